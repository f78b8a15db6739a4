package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/internal/nodetools"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// heldAgent is a go-sdk client at MCP 2026-07-28, in this test's process, as
// the demo's agent: it takes URL elicitations and hands each to decide.
func heldAgent(t *testing.T, p *process, headers http.Header, decide func(*mcp.ElicitParams)) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e-held-agent", Version: "1"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}},
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			decide(req.Params)
			return &mcp.ElicitResult{Action: "accept"}, nil
		},
	})
	h := headers.Clone()
	h.Set("Authorization", "Bearer "+p.demoToken)
	cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: p.gateway + "/mcp",
		HTTPClient: &http.Client{Transport: withHeaders{h}, Timeout: 2 * time.Minute}, DisableStandaloneSSE: true},
		&mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

type withHeaders struct{ h http.Header }

func (w withHeaders) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range w.h {
		r.Header[k] = v
	}
	return http.DefaultTransport.RoundTrip(r)
}

func budgetChange(amount int) map[string]any {
	return map[string]any{"action": "update_budget", "campaign_id": "21000100002", "amount": amount,
		"rationale": "Raise the competitor campaign budget for the launch week"}
}

func toolText(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	var body map[string]any
	if len(res.Content) == 0 || json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &body) != nil {
		t.Fatalf("tool result without a JSON text: %+v", res)
	}
	return body
}

// TestHeldCallInsideTheProtocol: tried as a new user would on --demo, an
// agent at MCP 2026-07-28 changes a budget; the call is held and answers
// input_required with a link to the gate's page; Ada, the demo's approver,
// opens it in Chromium, signs in through the demo IdP, sees the call (the
// budget as old → new in the account's currency, the old one read from
// the provider when the call was held) and approves; the SDK's retry
// returns the executed result. The call ran once, the alert webhook named
// Ada, and the agent's trace holds the execution.
// A rejected call's retry returns the reason.
func TestHeldCallInsideTheProtocol(t *testing.T) {
	chromium := nodetools.Chromium(t)
	rcv := newOTLPReceiver(t)
	// A known address: the demo IdP needs the gateway URL before listening.
	p := startKnownGateway(t, t.TempDir(),
		"OTEL_EXPORTER_OTLP_ENDPOINT="+rcv.URL, "OTEL_BSP_SCHEDULE_DELAY=50", "OTEL_SERVICE_NAME=gtmgate-e2e")

	traceID := "4bf92f3577b34da6a3ce929d0e0e4736"
	var links []string
	agent := heldAgent(t, p, http.Header{"Traceparent": {"00-" + traceID + "-00f067aa0ba902b7-01"}}, func(ask *mcp.ElicitParams) {
		links = append(links, ask.URL)
		if len(links) > 1 {
			return // still pending: the decision was made on the first link
		}
		var got struct {
			Checks   int
			Failures []string
		}
		runNodeScript(t, p, "gate-browser.mjs", &got, "GATE_URL="+ask.URL, "WHO=Ada", "DECISION=approve",
			"EXPECT=google_ads_campaigns update_budget|21000100002|Daily budget|120.00 → 150.00 USD|when the call was held|launch week|Input as JSON", "CHROMIUM="+chromium,
			"SCREENSHOT_DIR="+os.Getenv("GTMGATE_SCREENSHOTS"))
		for _, f := range got.Failures {
			t.Error(f)
		}
	})
	res, err := agent.CallTool(t.Context(), &mcp.CallToolParams{Name: "google_ads_campaigns", Arguments: budgetChange(150)})
	if err != nil {
		t.Fatal(err)
	}
	if len(links) == 0 || !strings.HasPrefix(links[0], p.gateway+"/console/approvals/apr_") {
		t.Fatalf("elicited %q, want the gate's page", links)
	}
	id := links[0][strings.LastIndex(links[0], "/")+1:]
	body := toolText(t, res)
	if res.IsError || body["ok"] != true || body["approval_id"] != id {
		t.Fatalf("the retried call answered %v, want the executed result of %s", body, id)
	}

	var gate struct {
		Status    string `json:"status"`
		DecidedBy string `json:"decided_by"`
	}
	if call(t, p, "GET", "/admin/approvals/"+id, "", nil, &gate); gate.Status != "executed" || !strings.Contains(gate.DecidedBy, "ada@demo.example") {
		t.Errorf("gate %s: %+v, want executed, decided by Ada", id, gate)
	}
	// Once: one executed budget change in the audit, the approval's.
	// One audit trail: the held call and its execution, both in the
	// agent's trace.
	var audit struct {
		Entries []struct {
			Outcome string `json:"outcome"`
			TraceID string `json:"trace_id"`
		} `json:"entries"`
	}
	call(t, p, "GET", "/admin/audit?tenant=demo&action=google_ads_campaigns.update_budget&limit=50", "", nil, &audit)
	var outcomes []string
	for _, e := range audit.Entries {
		outcomes = append(outcomes, e.Outcome)
		if e.TraceID != traceID {
			t.Errorf("an audit entry of the budget change is in trace %q, want the agent's %s", e.TraceID, traceID)
		}
	}
	if slices.Sort(outcomes); !slices.Equal(outcomes, []string{"ok", "pending_approval"}) {
		t.Errorf("audit outcomes %v, want the held call (pending) and one execution (ok)", outcomes)
	}
	// The demo's route for ad changes announced the gate, signed, to its
	// receiver (which checks the signature and names Ada: app tests read
	// the message; here the delivery's record shows where it went).
	var deliveries struct {
		Deliveries []struct {
			WebhookID string `json:"webhook_id"`
			Endpoint  string `json:"endpoint"`
			OK        bool   `json:"ok"`
		} `json:"deliveries"`
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		call(t, p, "GET", "/admin/grader/deliveries?limit=100", "", nil, &deliveries)
		delivered := map[string]bool{}
		for _, d := range deliveries.Deliveries {
			if d.Endpoint == "whk_demo_receiver" && d.OK {
				delivered[d.WebhookID] = true
			}
		}
		if delivered["approval.requested_"+id] && delivered["approval.decided_"+id] {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the gate's notices did not reach the demo route's receiver: %+v", deliveries.Deliveries)
		}
	}
	// The execution continues the agent's trace.
	rcv.trace(t, traceID, "execute_tool google_ads_campaigns", "approval.execute "+id)

	// Rejected: the retry returns the reason.
	rejected := heldAgent(t, p, http.Header{}, func(ask *mcp.ElicitParams) {
		id := ask.ElicitationID
		if call(t, p, "POST", "/admin/approvals/"+id+"/reject", "", map[string]any{"reason": "not before the board meets"}, nil) != http.StatusOK {
			t.Errorf("reject %s failed", id)
		}
	})
	res, err = rejected.CallTool(t.Context(), &mcp.CallToolParams{Name: "google_ads_campaigns", Arguments: budgetChange(175)})
	if err != nil {
		t.Fatal(err)
	}
	if body := toolText(t, res); !res.IsError || !strings.Contains(body["error"].(map[string]any)["message"].(string), "not before the board meets") {
		t.Errorf("a rejected call answered %v, want the reason", body)
	}
}

// TestHeldCallExpires: nobody decides before the gate expires; the retry
// says so, and nothing ran.
func TestHeldCallExpires(t *testing.T) {
	p := start(t, t.TempDir(), "GTMGATE_APPROVAL_TTL=2s")
	agent := heldAgent(t, p, http.Header{}, func(ask *mcp.ElicitParams) {
		// Wait, by the gate's state, not a clock, until it has expired.
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
			var gate struct{ Status string }
			if call(t, p, "GET", "/admin/approvals/"+ask.ElicitationID, "", nil, &gate); gate.Status == "expired" {
				return
			}
		}
		t.Errorf("gate %s never expired", ask.ElicitationID)
	})
	res, err := agent.CallTool(t.Context(), &mcp.CallToolParams{Name: "google_ads_campaigns", Arguments: budgetChange(160)})
	if err != nil {
		t.Fatal(err)
	}
	body := toolText(t, res)
	if e, _ := body["error"].(map[string]any); !res.IsError || e["code"] != "CONFLICT" || !strings.Contains(e["message"].(string), "expired") {
		t.Errorf("an expired gate's retry answered %v, want CONFLICT saying it expired", body)
	}
}
