package linkedinads

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

// TestBeforeReadsWhatTheCallChanges: a held status change reads the
// campaign's status as the list shows it, and after the change the read
// sees the new one.
func TestBeforeReadsWhatTheCallChanges(t *testing.T) {
	e := newEnv(t)
	status := `{"rationale":"r","action":"update_status","campaign_id":"508123102","status":"PAUSED"}`
	var listed any
	for _, c := range providertest.Items(t, e.MustRun(t, "linkedin_ads_campaigns", `{"rationale":"r","action":"list","limit":100}`)) {
		if c["id"] == "508123102" {
			listed = c["status"]
		}
	}
	before, err := e.Before(t, "linkedin_ads_campaigns", status)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]any{"status": listed}, before); diff != "" || listed == nil || listed == "PAUSED" {
		t.Errorf("status before (-want +got):\n%s", diff)
	}
	e.MustRun(t, "linkedin_ads_campaigns", status)
	if after, err := e.Before(t, "linkedin_ads_campaigns", status); err != nil || after["status"] != "PAUSED" {
		t.Errorf("status read after the change = %v, %v; want PAUSED", after, err)
	}
	_, err = e.Before(t, "linkedin_ads_campaigns", `{"rationale":"r","action":"update_status","campaign_id":"999","status":"PAUSED"}`)
	providertest.WantCode(t, err, gtmgate.EUpstream)
}
