package brief

import (
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/provider/apiversion"
)

func TestRender(t *testing.T) {
	to := time.Date(2026, 3, 2, 6, 0, 0, 0, time.UTC)
	quiet := &Figures{From: to.Add(-Window), To: to, Feedback: Feedback{BySeverity: map[string]int{}}, Agents: AgentRuns{ByStatus: map[string]int{}}}
	busy := &Figures{From: to.Add(-Window), To: to, Calls: 10, Errors: 3,
		Tenants:   []TenantFigures{{TenantID: "acme", Calls: 10, Errors: 3, Tools: []ToolFigures{{Tool: "crm_deals", Calls: 10, Errors: 3, P95MS: 41.5}}}},
		Incidents: Incidents{Opened: []Incident{{ID: "inc_1", TenantID: "acme", Path: "crm_deals.list", Time: to.Add(-time.Hour), Status: "open"}}, OpenNow: 1},
		Quality:   []PathQuality{{TenantID: "acme", Path: "crm_deals.list", Verdicts: 4, MeanQuality: 2.25, Bad: 3}},
		Approvals: Approvals{Waiting: 2, Oldest: []Approval{{ID: "apr_1", TenantID: "acme", Path: "email_send.send", CreatedAt: to.Add(-2 * time.Hour)}}},
		Feedback:  Feedback{Received: 3, BySeverity: map[string]int{"high": 1, "low": 2}},
		Reauth: []Account{{TenantID: "acme", Provider: "hubspot", AccountID: "portal-1"},
			{TenantID: "acme", Provider: "meta_ads", AccountID: "act_9", Kind: "expiring", Reason: "its token expires on 2026-03-05T00:00:00Z and cannot be refreshed"}},
		APIVersions: []apiversion.Status{{Provider: "meta_ads", Level: apiversion.LevelWarning,
			Message: "Meta Marketing API version v24.0 is sunset on 2026-12-20 (25 days): move GTMGATE_META_ADS_API_VERSION"}},
		Agents: AgentRuns{Started: 2, ByStatus: map[string]int{"succeeded": 1, "waiting_approval": 1}},
		Cost:   Cost{ToolCalls: 10, PromptTokens: 900, CompletionTokens: 100, ByModel: []ModelTokens{{Model: "gpt-x", PromptTokens: 900, CompletionTokens: 100}}}}
	berlin, _ := time.LoadLocation("Europe/Berlin")
	for _, tc := range []struct {
		name string
		f    *Figures
		loc  *time.Location
		want []string
	}{
		{"quiet day", quiet, time.UTC, []string{"# Daily brief — Monday 2 March 2026", "Nothing: no open incident", "No tool calls.", "No agent runs started."}},
		{"busy day in Berlin", busy, berlin, []string{"Covers 1 Mar 07:00 to 2 Mar 07:00 (Europe/Berlin)", "- 1 quality incident(s) open",
			"- 2 approval(s) waiting", "- 2 provider account(s) need re-authorisation", "- Meta Marketing API version v24.0 is sunset on 2026-12-20 (25 days): move GTMGATE_META_ADS_API_VERSION", "- error rate 30% (3 of 10 calls)",
			"| acme | crm_deals | 10 | 3 | 41.5 |", "| acme | crm_deals.list | 4 | 2.25 | 3 |", "3 received: low 2, high 1.",
			"- hubspot portal-1 of acme; send a re-connect link: `gtmgate admin reconnect acme hubspot portal-1`",
			"- meta_ads act_9 of acme: its token expires on 2026-03-05T00:00:00Z and cannot be refreshed; send a re-connect link: `gtmgate admin reconnect acme meta_ads act_9`", "2 runs started: succeeded 1, waiting_approval 1.", "(gpt-x 1000)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			md := Render(tc.f, tc.loc)
			for _, w := range tc.want {
				if !strings.Contains(md, w) {
					t.Errorf("brief lacks %q:\n%s", w, md)
				}
			}
			if Render(tc.f, tc.loc) != md {
				t.Error("two renderings of the same figures differ")
			}
		})
	}
}
