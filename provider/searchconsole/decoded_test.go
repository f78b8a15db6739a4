package searchconsole

import (
	"reflect"
	"testing"

	"github.com/gtmgate/gtmgate/provider/apispec/spectest"
)

// TestDecodedFieldsAreDeclared: every field the tool decodes Search Console's
// answer into is one the discovery document gives searchanalytics.query's
// answer, so a misspelled tag cannot drop what Google sends.
func TestDecodedFieldsAreDeclared(t *testing.T) {
	t.Parallel()
	spectest.Decoded(t, Spec(), "webmasters.searchanalytics.query", reflect.TypeFor[queryResponse]())
}
