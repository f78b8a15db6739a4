package linkedinads

import (
	"reflect"
	"testing"

	"github.com/gtmgate/gtmgate/provider/apispec/spectest"
)

// TestDecodedFieldsAreDeclared: every field the adapter decodes LinkedIn's
// answers into is one the reference pages give that operation's answer, so
// a misspelled tag (the search cursor's) cannot drop what LinkedIn sends.
func TestDecodedFieldsAreDeclared(t *testing.T) {
	t.Parallel()
	spectest.Decoded(t, liSpec(), "adAccounts.get", reflect.TypeFor[accountCurrency]())
	spectest.Decoded(t, liSpec(), "adCampaigns.search", reflect.TypeFor[campaignSearchPage]())
	spectest.Decoded(t, liSpec(), "adAnalytics.finder", reflect.TypeFor[analyticsPage]())
}
