package mcpgateway

import (
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// newUnconnectedEnv is heldEnv where every agent acts for Ada, and the
// tenant's one Google Ads account is Bob's own: Ada has none to use.
func newUnconnectedEnv(t *testing.T) *heldEnv {
	t.Helper()
	return newHeldEnvFor(t, gtmgate.ProviderAccounts{Default: "123", Accounts: []gtmgate.Account{{ID: "123", Person: "p_bob"}}}, "p_ada")
}

// connect gives Ada an account of her own, as the connect link she opens
// on the console's page would.
func (e *heldEnv) connect(t *testing.T) {
	t.Helper()
	tenant, err := e.store.GetTenant(t.Context(), "acme")
	if err != nil {
		t.Error(err)
		return
	}
	pa := tenant.Providers["googleads"]
	pa.Accounts = append(pa.Accounts, gtmgate.Account{ID: "456", Person: "p_ada"})
	tenant.Providers["googleads"] = pa
	if _, err := e.store.PutTenant(t.Context(), tenant); err != nil {
		t.Error(err)
	}
}

var campaignList = map[string]any{"action": "list", "rationale": "weekly report"}

const connectPage = "https://gw.example/console/connect/acme/googleads"

// TestConnectInsideTheProtocol: a 2026-07-28 client whose person has no
// account to use (the tenant's only one is another person's, or it has
// none) is sent to the console's connect page; once the person has
// connected one, the SDK's retry runs the call.
func TestConnectInsideTheProtocol(t *testing.T) {
	for name, tc := range map[string]struct {
		accounts gtmgate.ProviderAccounts
		why      string
	}{
		"another person's account only": {gtmgate.ProviderAccounts{Default: "123", Accounts: []gtmgate.Account{{ID: "123", Person: "p_bob"}}},
			"may use none of the tenant's googleads accounts"},
		"no account at all": {gtmgate.ProviderAccounts{}, `tenant "acme" has no googleads account configured`},
	} {
		t.Run(name, func(t *testing.T) {
			e := newHeldEnvFor(t, tc.accounts, "p_ada")
			var asked []*mcp.ElicitParams
			cs := e.client(t, "agent-1", "2026-07-28", true, func(p *mcp.ElicitParams) string {
				asked = append(asked, p)
				e.connect(t)
				return "accept"
			})
			res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "gads_campaigns", Arguments: campaignList})
			if err != nil {
				t.Fatal(err)
			}
			if len(asked) != 1 || asked[0].Mode != "url" || asked[0].URL != connectPage || asked[0].ElicitationID != "connect:googleads" ||
				!strings.Contains(asked[0].Message, tc.why) {
				t.Fatalf("elicited %+v, want one URL elicitation to the connect page", asked)
			}
			if body := resultBody(t, res); res.IsError || body["result"].(map[string]any)["budget"] != "changed" {
				t.Errorf("outcome %v, want the call's result", body)
			}
			if got := e.executions(); got != 1 {
				t.Errorf("the call ran %d times, want once", got)
			}
		})
	}
}

// TestConnectRetries drives the rounds by hand: the retry runs the call
// again, asking again while nothing is connected; a person who declines
// gets the refusal; a requestState is good only for its own agent's call;
// once connected, a read runs and a budget change is held for approval,
// answering the approval's input_required.
func TestConnectRetries(t *testing.T) {
	e := newUnconnectedEnv(t)
	never := func(*mcp.ElicitParams) string {
		t.Error("the client's elicitation handler was called")
		return "decline"
	}
	cs := e.client(t, "agent-1", "2026-07-28", false, never)
	call := func(cs *mcp.ClientSession, args map[string]any, state, action string) *mcp.CallToolResult {
		t.Helper()
		p := &mcp.CallToolParams{Name: "gads_campaigns", Arguments: args, RequestState: state}
		if action != "" {
			p.InputResponses = mcp.InputResponseMap{connectInput: &mcp.ElicitResult{Action: action}}
		}
		res, err := cs.CallTool(t.Context(), p)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	asksToConnect := func(what string, res *mcp.CallToolResult) {
		t.Helper()
		ask, ok := res.InputRequests[connectInput].(*mcp.ElicitParams)
		if !res.NeedsInput() || len(res.Content) != 0 || !ok || ask.URL != connectPage || !strings.HasPrefix(res.RequestState, "connect:googleads.") {
			t.Errorf("%s: %+v, want input_required with the connect page", what, res)
		}
	}
	first := call(cs, campaignList, "", "")
	asksToConnect("first answer", first)
	asksToConnect("retry before connecting", call(cs, campaignList, first.RequestState, "accept"))

	declined := call(cs, campaignList, first.RequestState, "decline")
	body := resultBody(t, declined)
	errBody, _ := body["error"].(map[string]any)
	if !declined.IsError || declined.NeedsInput() || errBody["code"] != gtmgate.EForbidden ||
		!strings.Contains(errBody["hint"].(string), "connect link issued for them") {
		t.Errorf("declined: %v, want the FORBIDDEN with its hint", body)
	}
	if d, _ := body["error_detail"].(map[string]any); d["provider"] != "googleads" || d["person"] != "p_ada" {
		t.Errorf("error_detail %v, want the provider and the person", body["error_detail"])
	}

	budget := call(cs, budgetChange, "", "")
	asksToConnect("a budget change", budget)
	for name, res := range map[string]*mcp.CallToolResult{
		"another call's arguments": call(cs, budgetChange, first.RequestState, "accept"),
		"as a gate's":              call(cs, campaignList, strings.TrimPrefix(first.RequestState, waitConnect+":"), "accept"),
		"another agent":            call(e.client(t, "agent-2", "2026-07-28", false, never), campaignList, first.RequestState, "accept"),
	} {
		if !res.IsError || resultBody(t, res)["error"].(map[string]any)["code"] != gtmgate.EValidation {
			t.Errorf("%s: %+v, want a VALIDATION_ERROR", name, res)
		}
	}
	if got := e.executions(); got != 0 {
		t.Fatalf("ran %d times before an account was connected", got)
	}

	e.connect(t)
	if res := call(cs, campaignList, first.RequestState, "accept"); res.IsError || res.NeedsInput() ||
		resultBody(t, res)["result"].(map[string]any)["budget"] != "changed" {
		t.Errorf("retry once connected: %+v, want the call's result", res)
	}
	held := call(cs, budgetChange, budget.RequestState, "accept")
	if ask, ok := held.InputRequests[approvalInput].(*mcp.ElicitParams); !held.NeedsInput() || !ok ||
		!strings.HasPrefix(ask.URL, "https://gw.example/console/approvals/apr_") || !strings.HasPrefix(held.RequestState, "apr_") {
		t.Errorf("a budget change once connected: %+v, want the approval's input_required", held)
	}
	if got := e.executions(); got != 1 {
		t.Errorf("ran %d times, want once (the read; the budget change waits for its approver)", got)
	}
}

// TestConnectOlderClients: a 2025-11-25 client, and a 2026-07-28 one that
// takes no URL elicitation, keep the FORBIDDEN with its hint.
func TestConnectOlderClients(t *testing.T) {
	e := newUnconnectedEnv(t)
	for name, cs := range e.olderClients(t) {
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "gads_campaigns", Arguments: campaignList})
		if err != nil {
			t.Fatal(err)
		}
		body := resultBody(t, res)
		if errBody, _ := body["error"].(map[string]any); !res.IsError || res.NeedsInput() || errBody["code"] != gtmgate.EForbidden ||
			errBody["message"] != "this agent may use none of the tenant's googleads accounts" {
			t.Errorf("%s: %v, want the FORBIDDEN", name, body)
		}
	}
}
