package console_test

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
)

// agentCall records one call of the agent with key, as the tool runner
// does: its audit entry, its usage event and, when it failed, its ledger
// entry, each carrying the key.
func (e *overviewEnv) agentCall(key, requestID string, at time.Time, ok bool) {
	e.t.Helper()
	entry := gtmgate.AuditEntry{Time: at, TenantID: "acme", Action: "crm_deals.list", Source: gtmgate.SourceMCP, Key: key,
		Outcome: gtmgate.OutcomeOK, Status: 200, RequestID: requestID}
	if !ok {
		entry.Outcome, entry.Status, entry.ErrorCode = gtmgate.OutcomeError, 502, gtmgate.EUpstream
		entry.Failure = &gtmgate.LedgerEntry{ID: "led_" + requestID, Kind: gtmgate.LedgerFailure, Time: at, TenantID: "acme", Key: key,
			Source: gtmgate.SourceMCP, Tool: "crm_deals", Action: "list", ErrorCode: gtmgate.EUpstream,
			Message: "hubspot answered 500 for " + requestID, RequestID: requestID}
	}
	usage := &gtmgate.UsageEvent{Time: at, TenantID: "acme", Key: key, Source: gtmgate.SourceMCP, Tool: "crm_deals", Action: "list", OK: ok, UpstreamMS: 10}
	if err := e.recorder.Record(e.t.Context(), entry, usage); err != nil {
		e.t.Fatal(err)
	}
}

// registerToken registers a tenant token for acme and returns its id.
func (e *overviewEnv) registerToken(label string) string {
	e.t.Helper()
	secret := make([]byte, 24)
	rand.Read(secret)
	body, _ := json.Marshal(map[string]string{"tenant_id": "acme", "token": hex.EncodeToString(secret), "label": label})
	status, answer := e.admin("POST", "/admin/auth", string(body))
	var tok struct{ ID string }
	if json.Unmarshal([]byte(answer), &tok); status != 201 || tok.ID == "" {
		e.t.Fatalf("register token: %d %s", status, answer)
	}
	return tok.ID
}

var agentBar = regexp.MustCompile(`<g [^>]*><title>(\d\d-\d\d): (\d+) calls?(?:, \d+ of them (?:an error|errors))?</title>`)

// TestConsoleAgentPage: the tenant page links each token to its agent
// page, which shows the token, its latest calls and failures, and its
// calls and errors per day over the last 7 days: only its own, from the
// audit log, the error ledger and the usage events filtered by its key.
func TestConsoleAgentPage(t *testing.T) {
	e := startOverview(t)
	prep, other := e.registerToken("meeting-prep-agent"), e.registerToken("ads-agent")
	e.agentCall(prep, "req-prep-1", overviewNow.Add(-time.Hour), true)
	e.agentCall(prep, "req-prep-2", overviewNow.Add(-2*time.Hour), true)
	e.agentCall(prep, "req-prep-3", overviewNow.Add(-48*time.Hour), false)
	e.agentCall(prep, "req-prep-old", overviewNow.Add(-10*24*time.Hour), true) // before the 7 days counted
	e.agentCall(other, "req-other-1", overviewNow.Add(-time.Hour), false)

	_, tenant := e.page("/console/tenants/acme")
	for _, id := range []string{prep, other} {
		if !strings.Contains(tenant, `href="/console/tenants/acme/agents/`+id+`"`) {
			t.Errorf("the tenant page does not link token %s to its agent page", id)
		}
	}

	status, page := e.page("/console/tenants/acme/agents/" + prep)
	if status != 200 || strings.Contains(page, `class="error"`) {
		t.Fatalf("agent page: %d\n%s", status, page)
	}
	for _, want := range []string{"<h1>Agent meeting-prep-agent</h1>", "<code>" + prep + "</code>", "none: every tool and account",
		"<strong>3</strong> metered calls, 1 errors", "req-prep-1", "req-prep-2", "req-prep-old",
		"led_req-prep-3", "hubspot answered 500 for req-prep-3", `href="/console/calls/req-prep-3"`} {
		if !strings.Contains(page, want) {
			t.Errorf("agent page lacks %q", want)
		}
	}
	for _, other := range []string{"req-other-1", "led_req-other-1"} {
		if strings.Contains(page, other) {
			t.Errorf("agent page shows another agent's %s", other)
		}
	}
	bars := agentBar.FindAllStringSubmatch(page, -1)
	if len(bars) != 7 || bars[0][1] != "11-19" || bars[6][1] != "11-25" || bars[6][2] != "2" || bars[4][2] != "1" {
		t.Errorf("calls per day: %v, want 7 days from 11-19 to 11-25 with 1 on 11-23 and 2 on 11-25", bars)
	}

	if status, _ := e.page("/console/tenants/acme/agents/tok_nobody"); status != 404 {
		t.Errorf("an unknown token's page: %d, want 404", status)
	}
	if status, _ := e.page("/console/tenants/nobody/agents/" + prep); status != 404 {
		t.Errorf("a token's page under another tenant: %d, want 404", status)
	}
}
