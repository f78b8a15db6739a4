package metaads

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

// TestBeforeReadsWhatTheCallChanges: the state read when a call is held is
// what the call, run next, reports it changed from, the budget it would
// pick (daily, or lifetime on a campaign that has only that) included.
func TestBeforeReadsWhatTheCallChanges(t *testing.T) {
	for _, tt := range []struct {
		name, account, input, field string
	}{
		{"daily", "act_1012345678901234", `"campaign_id":"236100000000000","amount":120`, "daily_budget"},
		{"lifetime by default", "act_1012345678901234", `"campaign_id":"236100000000003","amount":5000`, "lifetime_budget"},
		{"jpy", "2098765432109876", `"campaign_id":"246100000000001","amount":9000`, "daily_budget"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.Account = gtmgate.Account{ID: tt.account}
			input := `{"rationale":"r","action":"update_budget",` + tt.input + `}`
			before, err := e.Before(t, "meta_ads_campaigns", input)
			if err != nil {
				t.Fatal(err)
			}
			out := e.MustRun(t, "meta_ads_campaigns", input)
			want := map[string]any{tt.field: out["previous_"+tt.field], "currency": out["currency"]}
			if diff := cmp.Diff(want, before); diff != "" || before[tt.field] == nil {
				t.Errorf("before (-want +got):\n%s", diff)
			}
		})
	}
	e := newEnv(t)
	status := `{"rationale":"r","action":"update_status","campaign_id":"236100000000000","status":"PAUSED"}`
	before, err := e.Before(t, "meta_ads_campaigns", status)
	if err != nil {
		t.Fatal(err)
	}
	out := e.MustRun(t, "meta_ads_campaigns", status)
	if diff := cmp.Diff(map[string]any{"status": out["previous_status"]}, before); diff != "" {
		t.Errorf("status before (-want +got):\n%s", diff)
	}
	// Another account's campaign is refused, as the call would be.
	_, err = e.Before(t, "meta_ads_campaigns", `{"rationale":"r","action":"update_status","campaign_id":"246100000000000","status":"PAUSED"}`)
	providertest.WantCode(t, err, gtmgate.EForbidden)
}
