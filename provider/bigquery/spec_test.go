package bigquery

import (
	"maps"
	"slices"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

// TestEveryActionIsChecked walks every BigQuery action against the sandbox
// that enforces the BigQuery API's discovery document.
func TestEveryActionIsChecked(t *testing.T) {
	sb, tools := setup(t)
	kit := providertest.NewKit(slices.Collect(maps.Values(tools)), sb.Accounts[0], SandboxToken)
	fault := func() { sb.FailNext(400, 1) }
	providertest.Walk(t, kit, sb.Spec, []providertest.ActionWalk{
		{Tool: "bigquery_query", Action: "run", Steps: []providertest.Step{
			{Input: `{"rationale":"r","action":"run","query":"SELECT session_id, pageviews FROM marketing.web_sessions","limit":3}`},
			{Input: `{"rationale":"r","action":"run","query":"SELECT nope FROM marketing.no_such_table"}`, WantCode: gtmgate.EUpstream}}},
		{Tool: "bigquery_query", Action: "estimate", Steps: []providertest.Step{
			{Input: `{"rationale":"r","action":"estimate","query":"SELECT session_id FROM marketing.web_sessions","location":"EU"}`},
			{Input: `{"rationale":"r","action":"estimate","query":"SELECT session_id FROM marketing.web_sessions"}`, Before: fault, WantCode: gtmgate.EUpstream}}},
		{Tool: "bigquery_schema", Action: "datasets", Steps: []providertest.Step{
			{Input: `{"rationale":"r","action":"datasets"}`},
			{Input: `{"rationale":"r","action":"datasets"}`, Before: fault, WantCode: gtmgate.EUpstream}}},
		{Tool: "bigquery_schema", Action: "tables", Steps: []providertest.Step{
			{Input: `{"rationale":"r","action":"tables","dataset":"marketing"}`},
			{Input: `{"rationale":"r","action":"tables","dataset":"no_such_dataset"}`, WantCode: gtmgate.EUpstream}}},
		{Tool: "bigquery_schema", Action: "table", Steps: []providertest.Step{
			{Input: `{"rationale":"r","action":"table","dataset":"marketing","table":"web_sessions"}`},
			{Input: `{"rationale":"r","action":"table","dataset":"marketing","table":"no_such_table"}`, WantCode: gtmgate.EUpstream}}},
	})
}
