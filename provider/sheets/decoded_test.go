package sheets

import (
	"reflect"
	"testing"

	"github.com/gtmgate/gtmgate/provider/apispec/spectest"
)

// TestDecodedFieldsAreDeclared: every field the tool decodes Sheets' answers
// into is one the discovery document gives that method's answer, so a
// misspelled tag cannot drop what Sheets sends.
func TestDecodedFieldsAreDeclared(t *testing.T) {
	t.Parallel()
	spectest.Decoded(t, Spec(), "sheets.spreadsheets.values.get", reflect.TypeFor[valueRange]())
	spectest.Decoded(t, Spec(), "sheets.spreadsheets.values.append", reflect.TypeFor[appendValuesResponse]())
}
