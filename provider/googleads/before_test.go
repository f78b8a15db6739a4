package googleads

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

// TestBeforeReadsWhatTheCallChanges: the state read when a call is held is
// what the call, run next, reports it changed from.
func TestBeforeReadsWhatTheCallChanges(t *testing.T) {
	e := newEnv(t)
	budget := `{"rationale":"r","action":"update_budget","campaign_id":"21000100002","amount":200}`
	before, err := e.Before(t, "google_ads_campaigns", budget)
	if err != nil {
		t.Fatal(err)
	}
	out := e.MustRun(t, "google_ads_campaigns", budget)
	want := map[string]any{"daily_budget": out["previous_daily_budget"], "currency": "USD"}
	if diff := cmp.Diff(want, before); diff != "" || before["daily_budget"] == nil {
		t.Errorf("budget before (-want +got):\n%s", diff)
	}

	status := `{"rationale":"r","action":"update_status","campaign_id":"21000100001","status":"PAUSED"}`
	was := e.MustRun(t, "google_ads_campaigns", `{"rationale":"r","action":"get","campaign_id":"21000100001"}`)
	before, err = e.Before(t, "google_ads_campaigns", status)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]any{"status": was["status"]}, before); diff != "" || was["status"] == "PAUSED" {
		t.Errorf("status before (-want +got):\n%s", diff)
	}

	_, err = e.Before(t, "google_ads_campaigns", `{"rationale":"r","action":"update_status","campaign_id":"999","status":"PAUSED"}`)
	providertest.WantCode(t, err, gtmgate.ENotFound)
}
