package hubspot

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

// TestStageBefore: a held deal update that moves the stage reads the stage
// the deal is in; one that leaves the stage alone, and a contact's or a
// company's update, read nothing.
func TestStageBefore(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	kit := providertest.NewKit(nil, e.account, e.token)
	kit.Tools = e.tools
	was := propValue(mustRun[Item](e, "crm_deals", `{"rationale": "r", "action": "get", "id": "7201", "fields": ["dealstage"]}`), "dealstage")
	if was == "" || was == "closedwon" {
		t.Fatalf("deal 7201's stage is %q: pick a deal that can move to closedwon", was)
	}
	move := `{"rationale": "r", "action": "update", "id": "7201", "properties": {"dealstage": "closedwon", "amount": "5000"}}`
	before, err := kit.Before(t, "crm_deals", move)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]any{"stage": was}, before); diff != "" {
		t.Errorf("stage before (-want +got):\n%s", diff)
	}
	if before, err := kit.Before(t, "crm_deals", `{"rationale": "r", "action": "update", "id": "7201", "properties": {"amount": "5000"}}`); before != nil || err != nil {
		t.Errorf("an update that keeps the stage read %v, %v; want nothing", before, err)
	}
	for _, tool := range []string{"crm_contacts", "crm_companies"} {
		for _, a := range e.tools[tool].Actions {
			if a.Before != nil {
				t.Errorf("%s.%s reads a state before it; only deals have a stage", tool, a.Name)
			}
		}
	}
}
