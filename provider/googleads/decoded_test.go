package googleads

import (
	"reflect"
	"testing"

	"github.com/gtmgate/gtmgate/provider/apispec/spectest"
)

// TestDecodedFieldsAreDeclared: every field the tools decode Google Ads'
// answers into is one the API's published description gives that method's
// answer, so a misspelled tag (the page token's) cannot drop what Google
// sends. mutateAnswer reads every mutate the tools call.
func TestDecodedFieldsAreDeclared(t *testing.T) {
	t.Parallel()
	spectest.Decoded(t, adsSpec(), "GoogleAdsService.Search", reflect.TypeFor[searchPage]())
	for _, op := range []string{"CampaignService.MutateCampaigns", "CampaignBudgetService.MutateCampaignBudgets", "CampaignCriterionService.MutateCampaignCriteria"} {
		spectest.Decoded(t, adsSpec(), op, reflect.TypeFor[mutateAnswer]())
	}
}
