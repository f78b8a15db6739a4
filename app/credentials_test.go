package app_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/gtmgate/gtmgate/app/apptest"
	"github.com/gtmgate/gtmgate/oauth/oauthtest"
)

// oauthClient registers a public OAuth client and authorizes it for the demo
// tenant with scopes; it returns the client id and its token.
func oauthClient(t *testing.T, env *apptest.Env, scopes ...string) (string, *oauth2.Token) {
	t.Helper()
	const redirect = "http://127.0.0.1:9/cb"
	reg, err := oauthex.RegisterClient(t.Context(), env.GatewayURL+"/oauth/register",
		&oauthex.ClientRegistrationMetadata{RedirectURIs: []string{redirect}, ClientName: "Credential Test", TokenEndpointAuthMethod: "none"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	conf := &oauth2.Config{ClientID: reg.ClientID, RedirectURL: redirect, Scopes: scopes,
		Endpoint: oauth2.Endpoint{AuthURL: env.GatewayURL + "/oauth/authorize", TokenURL: env.GatewayURL + "/oauth/token", AuthStyle: oauth2.AuthStyleInParams}}
	verifier := oauth2.GenerateVerifier()
	loc := oauthtest.Approve(t, conf.AuthCodeURL("st", oauth2.S256ChallengeOption(verifier),
		oauth2.SetAuthURLParam("resource", env.Config.GatewayURL+"/mcp")), env.GatewayURL+"/oauth/authorize", env.DemoToken)
	tok, err := conf.Exchange(t.Context(), loc.Query().Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatalf("exchange: %v", err)
	}
	return reg.ClientID, tok
}

// mcpTool calls a tool over MCP with an OAuth access token and returns the
// tool result's JSON body and whether it is an error. A call refused for
// want of scope (HTTP 403 with a step-up challenge) returns its error body.
func mcpTool(t *testing.T, env *apptest.Env, access, tool string, args map[string]any) (map[string]any, bool) {
	t.Helper()
	r := env.Do("POST", env.GatewayURL+"/mcp", map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": map[string]any{"name": tool, "arguments": args}},
		"Authorization", "Bearer "+access, "Accept", "application/json, text/event-stream")
	if r.Status == 403 {
		return r.JSON(t), true
	}
	if r.Status != 200 {
		t.Fatalf("MCP %s: %d %s", tool, r.Status, r.Body)
	}
	var resp struct {
		Result struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	}
	if err := json.Unmarshal(r.Body, &resp); err != nil || len(resp.Result.Content) == 0 {
		t.Fatalf("MCP %s: %v: %s", tool, err, r.Body)
	}
	var body map[string]any
	if err := json.Unmarshal([]byte(resp.Result.Content[0].Text), &body); err != nil {
		t.Fatalf("MCP %s result: %v: %s", tool, err, resp.Result.Content[0].Text)
	}
	return body, resp.Result.IsError
}

// errorCode is error.code of a tool result body.
func errorCode(body map[string]any) string {
	e, _ := body["error"].(map[string]any)
	code, _ := e["code"].(string)
	return code
}

// TestCancelNeedsWriteScope: cancelling a run changes it, so an OAuth
// token with tools:read alone cannot cancel one; tools:write can.
func TestCancelNeedsWriteScope(t *testing.T) {
	t.Parallel()
	env, _ := startScripted(t, campaignsReportDraft)
	run := startRun(t, env, map[string]any{"task": "Review ad spend and draft an email",
		"tools": []string{"google_ads_campaigns", "google_ads_report", "email_send"}, "wait": 20})
	if run["status"] != "waiting_approval" {
		t.Fatalf("run = %v", run)
	}
	id := run["run_id"].(string)
	cancel := map[string]any{"action": "cancel", "run_id": id, "rationale": "stop it"}

	_, reader := oauthClient(t, env, "tools:read")
	body, isErr := mcpTool(t, env, reader.AccessToken, "run_agent", cancel)
	if !isErr || errorCode(body) != "FORBIDDEN" || !strings.Contains(body["error"].(map[string]any)["message"].(string), "scope") {
		t.Errorf("tools:read cancel: %v", body)
	}
	if got := getRun(t, env, id); got["status"] != "waiting_approval" {
		t.Fatalf("after a refused cancel the run is %v", got["status"])
	}

	_, writer := oauthClient(t, env, "tools:write")
	if body, isErr := mcpTool(t, env, writer.AccessToken, "run_agent", cancel); isErr || body["result"].(map[string]any)["status"] != "cancelled" {
		t.Errorf("tools:write cancel: %v", body)
	}
}
