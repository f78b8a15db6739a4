package sheets

import (
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

// TestEveryActionIsChecked walks every Sheets action against the sandbox
// that enforces the Sheets API's discovery document.
func TestEveryActionIsChecked(t *testing.T) {
	sb, tool := setup(t)
	kit := providertest.NewKit([]gtmgate.Tool{tool}, sb.Accounts[0], SandboxToken)
	sheet := `"spreadsheet_id":"` + SandboxSpreadsheetID + `"`
	providertest.Walk(t, kit, sb.Spec, []providertest.ActionWalk{
		{Tool: "sheets_values", Action: "get", Steps: []providertest.Step{
			{Input: `{"rationale":"r","action":"get",` + sheet + `,"range":"Pipeline!A1:C3","value_render_option":"UNFORMATTED_VALUE"}`},
			{Input: `{"rationale":"r","action":"get","spreadsheet_id":"1NoSuchSheet","range":"A1:B2"}`, WantCode: gtmgate.EUpstream}}},
		{Tool: "sheets_values", Action: "append", Steps: []providertest.Step{
			{Input: `{"rationale":"r","action":"append",` + sheet + `,"range":"Pipeline!A1","values":[["Initech","discovery",9000,"sam@acme.example","2026-12-15",false]]}`},
			{Input: `{"rationale":"r","action":"append","spreadsheet_id":"1NoSuchSheet","range":"A1","values":[["x"]]}`, WantCode: gtmgate.EUpstream}}},
	})
}
