package app_test

import (
	"encoding/json"
	"net/url"
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

// TestRevokingACredentialStopsWhatActsForIt: a schedule carries the
// credential that created it; revoking that credential (a tenant token, an
// OAuth client's grant, a refresh token at /oauth/revoke) disables its
// schedules with the reason and time, cancels its unfinished runs and
// withdraws their gates. Putting the schedule again with a standing
// credential re-enables it, bound to that credential.
func TestRevokingACredentialStopsWhatActsForIt(t *testing.T) {
	t.Parallel()
	env, _ := startScripted(t, campaignsReportDraft)
	const secret = "tok-demo-revoked-0123456789abcdef"
	reg := env.Admin("POST", "/admin/auth", map[string]any{"tenant_id": "demo", "token": secret, "label": "to revoke"})
	if reg.Status != 201 {
		t.Fatalf("register token: %d %s", reg.Status, reg.Body)
	}
	tokID := reg.JSON(t)["id"].(string)
	upsert := func(token, job string) map[string]any {
		t.Helper()
		r := env.Tool(token, "demo", "agents", "agent_schedules", map[string]any{"action": "upsert", "job_id": job, "cron": "* * * * *",
			"rationale": "every minute", "call": map[string]any{"tool": "crm_deals", "input": map[string]any{"action": "list", "rationale": "minutely"}}})
		if r.Status != 200 {
			t.Fatalf("upsert %s: %d %s", job, r.Status, r.Body)
		}
		return r.JSON(t)["result"].(map[string]any)["schedule"].(map[string]any)
	}
	schedule := func(job string) map[string]any {
		t.Helper()
		return env.Admin("GET", "/admin/agent-schedules/"+job+"?tenant=demo", nil).JSON(t)
	}
	sc := upsert(secret, "minutely")
	if by := sc["created_by"].(map[string]any); by["kind"] != "token" || by["id"] != tokID || sc["next_run_at"] == nil {
		t.Fatalf("schedule made with a token = %v", sc)
	}
	tools := []string{"google_ads_campaigns", "google_ads_report", "email_send"}
	r := env.Tool(secret, "demo", "agents", "run_agent", map[string]any{"action": "start", "rationale": "r", "task": "Review and draft", "tools": tools, "wait": 20})
	run := r.JSON(t)["result"].(map[string]any)
	if run["status"] != "waiting_approval" || run["credential"].(map[string]any)["id"] != tokID {
		t.Fatalf("run started with the token = %v", run)
	}

	if r := env.Admin("DELETE", "/admin/auth/demo/"+tokID, nil); r.Status != 200 {
		t.Fatalf("revoke: %d %s", r.Status, r.Body)
	}
	sc = schedule("minutely")
	if sc["enabled"] != false || sc["next_run_at"] != nil || sc["disabled_at"] == nil ||
		!strings.Contains(sc["disabled_reason"].(string), "tenant token "+tokID+", which created it, was revoked") {
		t.Errorf("schedule after its token was revoked = %v", sc)
	}
	if ran := env.Admin("POST", "/admin/agent-schedules/minutely/run?tenant=demo", nil).JSON(t); ran["status"] != "skipped" ||
		!strings.Contains(ran["reason"].(string), "revoked") {
		t.Errorf("run now of the disabled schedule = %v", ran)
	}
	got := getRun(t, env, run["run_id"].(string))
	if got["status"] != "cancelled" || !strings.Contains(got["reason"].(string), "tenant token "+tokID) {
		t.Errorf("run after its token was revoked = %v %v", got["status"], got["reason"])
	}
	if g := env.Admin("GET", "/admin/approvals/"+run["waiting_for"].(string), nil).JSON(t); g["status"] != "withdrawn" {
		t.Errorf("the run's gate = %v", g["status"])
	}
	o := newOperator(t, env)
	o.signIn(apptest.AdminKey)
	if _, page := o.get("/console/schedules"); !strings.Contains(page, "which created it, was revoked") || !strings.Contains(page, "token "+tokID) {
		t.Errorf("console schedules page does not show the revocation")
	}

	// Re-enabled by a standing credential of the tenant: bound to it.
	sc = upsert(env.DemoToken, "minutely")
	if sc["enabled"] != true || sc["disabled_reason"] != nil || sc["created_by"].(map[string]any)["id"] == tokID {
		t.Errorf("re-enabled schedule = %v", sc)
	}

	// An OAuth client's schedule carries its grant and scopes, and so does
	// each run of it; revoking the client's grant disables the schedule.
	client, tok := oauthClient(t, env, "tools:read", "tools:write")
	args := map[string]any{"action": "upsert", "job_id": "oauth-minutely", "cron": "* * * * *", "rationale": "every minute",
		"call": map[string]any{"tool": "crm_deals", "input": map[string]any{"action": "list", "rationale": "minutely"}}}
	if body, isErr := mcpTool(t, env, tok.AccessToken, "agent_schedules", args); isErr {
		t.Fatalf("MCP upsert: %v", body)
	}
	sc = schedule("oauth-minutely")
	by := sc["created_by"].(map[string]any)
	if by["kind"] != "oauth" || by["client_id"] != client || by["id"] == "" || len(sc["scopes"].([]any)) != 2 {
		t.Fatalf("schedule made with OAuth = %v", sc)
	}
	ran := env.Admin("POST", "/admin/agent-schedules/oauth-minutely/run?tenant=demo", nil).JSON(t)
	scheduled := waitRun(t, env, ran["run_id"].(string), "succeeded")
	if scheduled["credential"].(map[string]any)["id"] != by["id"] || len(scheduled["scopes"].([]any)) != 2 {
		t.Errorf("scheduled run = credential %v, scopes %v", scheduled["credential"], scheduled["scopes"])
	}
	if r := env.Admin("POST", "/admin/tenants/demo/oauth-grants/revoke", map[string]any{"client_id": client}); r.Status != 200 {
		t.Fatalf("revoke grant: %d %s", r.Status, r.Body)
	}
	if sc = schedule("oauth-minutely"); sc["enabled"] != false || !strings.Contains(sc["disabled_reason"].(string), "OAuth grant") {
		t.Errorf("schedule after its grant was revoked = %v", sc)
	}

	// The client itself revoking its refresh token ends the grant too.
	client2, tok2 := oauthClient(t, env, "tools:read", "tools:write")
	args["job_id"] = "oauth-minutely-2"
	if body, isErr := mcpTool(t, env, tok2.AccessToken, "agent_schedules", args); isErr {
		t.Fatalf("MCP upsert: %v", body)
	}
	rv := env.Do("POST", env.GatewayURL+"/oauth/revoke", "token="+tok2.RefreshToken+"&client_id="+url.QueryEscape(client2),
		"Content-Type", "application/x-www-form-urlencoded")
	if rv.Status != 200 {
		t.Fatalf("/oauth/revoke: %d %s", rv.Status, rv.Body)
	}
	if sc = schedule("oauth-minutely-2"); sc["enabled"] != false || !strings.Contains(sc["disabled_reason"].(string), client2) {
		t.Errorf("schedule after the client revoked its refresh token = %v", sc)
	}

	// The admin key's schedules say so.
	r = env.Admin("PUT", "/admin/agent-schedules/by-admin", map[string]any{"tenant_id": "demo", "cron": "@daily",
		"call": map[string]any{"tool": "crm_deals", "input": map[string]any{"action": "list", "rationale": "daily"}}})
	if r.Status != 201 || r.JSON(t)["created_by"].(map[string]any)["kind"] != "admin" {
		t.Errorf("admin schedule: %d %s", r.Status, r.Body)
	}
}
