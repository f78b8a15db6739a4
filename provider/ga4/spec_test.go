package ga4

import (
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

// TestEveryActionIsChecked walks every GA4 action against the sandbox that
// enforces the Data API's discovery document.
func TestEveryActionIsChecked(t *testing.T) {
	f := newFixture(t)
	providertest.Walk(t, f.Kit, f.sandbox.Spec, []providertest.ActionWalk{
		{Tool: "ga4_report", Action: "run_report", Steps: []providertest.Step{
			{Input: `{"rationale":"r","metrics":["sessions","totalUsers"],"dimensions":["country"],"limit":5}`},
			{Input: `{"rationale":"r","metrics":["sessions"],"dimensions":["city"]}`, WantCode: gtmgate.EUpstream}}},
		{Tool: "ga4_realtime", Action: "run_realtime_report", Steps: []providertest.Step{
			{Input: `{"rationale":"r"}`},
			{Input: `{"rationale":"r"}`, Before: func() { f.sandbox.FailNext(400, 1) }, WantCode: gtmgate.EUpstream}}},
		{Tool: "ga4_metadata", Action: "get_metadata", Steps: []providertest.Step{
			{Input: `{"rationale":"r"}`},
			{Input: `{"rationale":"r"}`, Before: func() { f.sandbox.FailNext(400, 1) }, WantCode: gtmgate.EUpstream}}},
	})
}
