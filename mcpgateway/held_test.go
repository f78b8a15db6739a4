package mcpgateway

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/registry"
	"github.com/gtmgate/gtmgate/store/sqlite"
	"github.com/gtmgate/gtmgate/store/sqlstore"
	"github.com/gtmgate/gtmgate/store/storetest"
	"github.com/gtmgate/gtmgate/toolrun"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// heldEnv is /mcp over a budget change the default policy holds, served to
// real go-sdk clients; the bearer value names the agent.
type heldEnv struct {
	url    string
	runner *toolrun.Runner
	store  *sqlstore.Store
	now    time.Time

	mu  sync.Mutex
	ran int // budget changes that reached the tool
}

func newHeldEnv(t *testing.T) *heldEnv {
	t.Helper()
	return newHeldEnvFor(t, gtmgate.ProviderAccounts{Default: "123", Accounts: []gtmgate.Account{{ID: "123"}}}, "")
}

// newHeldEnvFor is heldEnv over the tenant's Google Ads accounts, its
// agents acting for person ("" for nobody).
func newHeldEnvFor(t *testing.T, accounts gtmgate.ProviderAccounts, person string) *heldEnv {
	t.Helper()
	st, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "g.db"), &sqlstore.Options{Sealer: storetest.NewSealer(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	tenant := &gtmgate.Tenant{ID: "acme", Name: "Acme", Status: gtmgate.TenantActive,
		Providers: map[string]gtmgate.ProviderAccounts{"googleads": accounts}}
	if _, err := st.PutTenant(t.Context(), tenant); err != nil {
		t.Fatal(err)
	}
	e := &heldEnv{store: st, now: time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)}
	reg, err := registry.New(gtmgate.Tool{Name: "gads_campaigns", Domain: "ads", Provider: "googleads", Title: "Campaigns", Description: "campaigns",
		Run: func(_ context.Context, c *gtmgate.Call) (any, error) {
			e.mu.Lock()
			defer e.mu.Unlock()
			e.ran++
			return map[string]any{"budget": "changed"}, nil
		},
		Properties: map[string]*jsonschema.Schema{"campaign_id": {Type: "string"}, "amount": {Type: "number"}},
		Actions: []gtmgate.Action{{Name: "update_budget", Category: gtmgate.CategoryAdsMutate, Mutating: true},
			{Name: "list", Category: gtmgate.CategoryAdsRead}}})
	if err != nil {
		t.Fatal(err)
	}
	e.runner = toolrun.New(toolrun.Options{Registry: reg, Store: st, Recorder: nopRecorder{}, Tokens: anyToken{},
		ApprovalTTL: time.Hour, Now: func() time.Time { e.mu.Lock(); defer e.mu.Unlock(); return e.now }})
	srv := httptest.NewServer(New(Options{
		Runner: e.runner,
		Require: func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				agent := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
				p := &gtmgate.Principal{TenantID: "acme", KeyID: agent, Kind: gtmgate.PrincipalToken, Person: person}
				next.ServeHTTP(w, r.WithContext(gtmgate.NewContextWithPrincipal(r.Context(), p)))
			})
		},
		Held: &HeldOptions{Key: []byte("held-state-key"), PageURL: func(id string) string { return "https://gw.example" + gtmgate.ApprovalPagePath(id) },
			ConnectURL: func(tenantID, provider string) string {
				return "https://gw.example" + gtmgate.ConnectPagePath(tenantID, provider)
			}, Poll: time.Millisecond},
		MaxBodyBytes: 1 << 20, Logger: slog.New(slog.DiscardHandler),
	}))
	t.Cleanup(srv.Close)
	e.url = srv.URL
	return e
}

func (e *heldEnv) executions() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.ran
}

// client connects agent at protocol version, handing each URL elicitation
// to elicit; mrtr false leaves the retries to the test.
func (e *heldEnv) client(t *testing.T, agent, version string, mrtr bool, elicit func(*mcp.ElicitParams) string) *mcp.ClientSession {
	return e.clientWith(t, agent, version, &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}, mrtr, elicit)
}

func (e *heldEnv) clientWith(t *testing.T, agent, version string, caps *mcp.ElicitationCapabilities, mrtr bool, elicit func(*mcp.ElicitParams) string) *mcp.ClientSession {
	t.Helper()
	opts := &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{Elicitation: caps},
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: elicit(req.Params)}, nil
		},
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: !mrtr},
	}
	hc := &http.Client{Transport: bearer{agent}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "held-test", Version: "1"}, opts).
		Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: e.url, HTTPClient: hc, DisableStandaloneSSE: true}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

var budgetChange = map[string]any{"action": "update_budget", "campaign_id": "42", "amount": 150, "rationale": "launch week"}

func resultBody(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	if len(res.Content) == 0 {
		t.Fatalf("result has no content: %+v", res)
	}
	var body map[string]any
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &body); err != nil {
		t.Fatal(err)
	}
	return body
}

// TestHeldCallInsideTheProtocol: a 2026-07-28 client is sent to the gate's
// page and its retry gets the decision's outcome; the call runs once, on
// the approver's decision, however often the client retries.
func TestHeldCallInsideTheProtocol(t *testing.T) {
	for _, tc := range []struct {
		name    string
		decide  func(e *heldEnv, id string)
		isError bool
		want    string // in the outcome's text
		runs    int
	}{
		{"approved", func(e *heldEnv, id string) {
			if _, err := e.runner.Decide(context.Background(), toolrun.Decision{ApprovalID: id, Approve: true, DecidedBy: "admin-key"}); err != nil {
				t.Error(err)
			}
		}, false, `"budget":"changed"`, 1},
		{"rejected", func(e *heldEnv, id string) {
			if _, err := e.runner.Decide(context.Background(), toolrun.Decision{ApprovalID: id, DecidedBy: "admin-key", Reason: "not this week"}); err != nil {
				t.Error(err)
			}
		}, true, "was rejected: not this week", 0},
		{"expired", func(e *heldEnv, id string) {
			e.mu.Lock()
			e.now = e.now.Add(2 * time.Hour)
			e.mu.Unlock()
		}, true, "before the approval expired", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newHeldEnv(t)
			var urls []string
			cs := e.client(t, "agent-1", "2026-07-28", true, func(p *mcp.ElicitParams) string {
				if p.Mode != "url" {
					t.Errorf("elicitation mode %q, want url", p.Mode)
				}
				urls = append(urls, p.URL)
				if len(urls) == 1 {
					tc.decide(e, p.ElicitationID)
				}
				return "accept"
			})
			res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "gads_campaigns", Arguments: budgetChange})
			if err != nil {
				t.Fatal(err)
			}
			if len(urls) != 1 || !strings.HasPrefix(urls[0], "https://gw.example/console/approvals/apr_") {
				t.Errorf("elicited %q, want one link to the gate's page", urls)
			}
			if res.IsError != tc.isError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, tc.want) {
				t.Errorf("outcome isError=%v %s, want isError=%v with %q", res.IsError, res.Content[0].(*mcp.TextContent).Text, tc.isError, tc.want)
			}
			if got := e.executions(); got != tc.runs {
				t.Errorf("the budget change ran %d times, want %d", got, tc.runs)
			}
		})
	}
}

// TestHeldCallRetries drives the rounds by hand: a pending gate answers
// input_required again, an executed one its result on every retry without
// running again, and a requestState is good only for its own agent's call.
func TestHeldCallRetries(t *testing.T) {
	e := newHeldEnv(t)
	never := func(*mcp.ElicitParams) string {
		t.Error("the client's elicitation handler was called")
		return "decline"
	}
	cs := e.client(t, "agent-1", "2026-07-28", false, never)
	first, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "gads_campaigns", Arguments: budgetChange})
	if err != nil {
		t.Fatal(err)
	}
	if !first.NeedsInput() || first.RequestState == "" || len(first.Content) != 0 {
		t.Fatalf("first answer %+v, want input_required with a requestState and no content", first)
	}
	ask, ok := first.InputRequests[approvalInput].(*mcp.ElicitParams)
	if !ok {
		t.Fatalf("input requests %+v, want the approval elicitation", first.InputRequests)
	}
	id := ask.ElicitationID
	retry := func(cs *mcp.ClientSession, args map[string]any, state string) *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "gads_campaigns", Arguments: args, RequestState: state,
			InputResponses: mcp.InputResponseMap{approvalInput: &mcp.ElicitResult{Action: "accept"}}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := retry(cs, budgetChange, first.RequestState); !res.NeedsInput() || res.InputRequests[approvalInput].(*mcp.ElicitParams).URL != ask.URL {
		t.Errorf("retry while pending: %+v, want input_required with the same page", res)
	}
	other := map[string]any{"action": "update_budget", "campaign_id": "42", "amount": 9000, "rationale": "launch week"}
	for name, res := range map[string]*mcp.CallToolResult{
		"another call's arguments": retry(cs, other, first.RequestState),
		"a forged state":           retry(cs, budgetChange, id+".00000000000000000000000000000000"),
		"another agent":            retry(e.client(t, "agent-2", "2026-07-28", false, never), budgetChange, first.RequestState),
	} {
		if !res.IsError || resultBody(t, res)["error"].(map[string]any)["code"] != gtmgate.EValidation {
			t.Errorf("%s: %+v, want a VALIDATION_ERROR", name, res)
		}
	}
	if _, err := e.runner.Decide(t.Context(), toolrun.Decision{ApprovalID: id, Approve: true, DecidedBy: "admin-key"}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		res := retry(cs, budgetChange, first.RequestState)
		body := resultBody(t, res)
		if res.IsError || res.NeedsInput() || body["approval_id"] != id || body["result"].(map[string]any)["budget"] != "changed" {
			t.Errorf("retry once approved: %+v, want the executed result", body)
		}
	}
	if got := e.executions(); got != 1 {
		t.Errorf("the budget change ran %d times, want once", got)
	}
}

// olderClients are the clients that keep the answers of before: one on
// 2025-11-25, and one on 2026-07-28 that takes no URL elicitation.
func (e *heldEnv) olderClients(t *testing.T) map[string]*mcp.ClientSession {
	never := func(*mcp.ElicitParams) string {
		t.Error("the client's elicitation handler was called")
		return "decline"
	}
	return map[string]*mcp.ClientSession{
		"2025-11-25":         e.client(t, "agent-1", "2025-11-25", true, never),
		"no URL elicitation": e.clientWith(t, "agent-2", "2026-07-28", &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}, true, never),
	}
}

// TestHeldCallOlderClients: a 2025-11-25 client, and a 2026-07-28 one that
// takes no URL elicitation, keep APPROVAL_REQUIRED.
func TestHeldCallOlderClients(t *testing.T) {
	e := newHeldEnv(t)
	for name, cs := range e.olderClients(t) {
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "gads_campaigns", Arguments: budgetChange})
		if err != nil {
			t.Fatal(err)
		}
		if body := resultBody(t, res); !res.IsError || res.NeedsInput() || body["error"].(map[string]any)["code"] != gtmgate.EApprovalRequired || body["approval_id"] == nil {
			t.Errorf("%s: %+v, want APPROVAL_REQUIRED with an approval_id", name, body)
		}
	}
}

// FuzzHeldState: a requestState opens only as one seal gave for the same
// call, saying what it waits on, whatever the client sends.
func FuzzHeldState(f *testing.F) {
	h := &heldCalls{opts: HeldOptions{Key: []byte("k")}}
	c := heldCall{principal: &gtmgate.Principal{TenantID: "acme", KeyID: "agent-1"}, tool: "gads_campaigns", input: json.RawMessage(`{"a":1}`)}
	good, err := h.seal(c, waitApproval, "apr_1")
	if err != nil {
		f.Fatal(err)
	}
	connect, err := h.seal(c, waitConnect, "gmail")
	if err != nil {
		f.Fatal(err)
	}
	_, mac, _ := strings.Cut(connect, ".")
	for _, s := range []string{good, connect, "", ".", "apr_1.", "apr_1.zz", good + "0", "apr_2" + good[5:],
		"gmail." + mac, "connect:apr_1" + good[5:], "connect:." + mac, ":gmail." + mac, "connect:gmail.x." + mac, "approval:" + good} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, state string) {
		kind, subject, err := h.open(c, state)
		want := map[string][2]string{good: {waitApproval, "apr_1"}, connect: {waitConnect, "gmail"}}
		w, sealed := want[state]
		if (err == nil) != sealed || err == nil && (kind != w[0] || subject != w[1]) {
			t.Errorf("open(%q) = %q, %q, %v", state, kind, subject, err)
		}
	})
}
