package metaads

import (
	"reflect"
	"testing"

	"github.com/gtmgate/gtmgate/provider/apispec/spectest"
)

// TestDecodedFieldsAreDeclared: every field the tools decode the Graph API's
// answers into is one Meta's SDK specs give that operation's answer, so a
// misspelled tag (the paging cursor's) cannot drop what Meta sends. page
// reads both lists; a campaign read is a map, its fields chosen by the
// fields parameter the spec checks.
func TestDecodedFieldsAreDeclared(t *testing.T) {
	t.Parallel()
	spectest.Decoded(t, graphSpec, "AdAccount.api_get", reflect.TypeFor[accountCurrency]())
	spectest.Decoded(t, graphSpec, "AdAccount.get_campaigns", reflect.TypeFor[page]())
	spectest.Decoded(t, graphSpec, "AdAccount.get_insights", reflect.TypeFor[page]())
	spectest.Decoded(t, graphSpec, "Campaign.api_update", reflect.TypeFor[updateAnswer]())
}
