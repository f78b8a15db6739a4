package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/internal/nodetools"
)

// TestPersonsOwnAccounts: the demo's Gmail mailbox "me" becomes Ada's own,
// the sales inbox stays shared. Ada's agent, Victor's agent and an agent of
// nobody, each a token driven by the official MCP TypeScript SDK client,
// reach exactly what they may: Ada's agent her mailbox by default, Victor's
// the shared inbox by default and never Ada's, nobody's agent never Ada's.
// A schedule Victor's agent creates acts for Victor too, so it cannot reach
// Ada's mailbox either.
func TestPersonsOwnAccounts(t *testing.T) {
	nodetools.Dir(t)
	// The demo IdP is served only when the gateway's URL is known.
	p := startKnownGateway(t, t.TempDir())
	ada, victor := signInAdaAndVictor(t, p)

	// The operator makes "me" Ada's own mailbox, as a connect link issued
	// for her would.
	var got struct{ Tenant map[string]any }
	call(t, p, "GET", "/admin/tenants/demo", "", nil, &got)
	tenant := got.Tenant
	gmail := tenant["providers"].(map[string]any)["gmail"].(map[string]any)
	for _, a := range gmail["accounts"].([]any) {
		if acct := a.(map[string]any); acct["id"] == "me" {
			acct["person"] = ada
		}
	}
	for _, readOnly := range []string{"id", "created_at", "updated_at", "mcp_servers"} {
		delete(tenant, readOnly)
	}
	var put map[string]any
	if code := call(t, p, "PUT", "/admin/tenants/demo", "", tenant, &put); code != http.StatusOK {
		t.Fatalf("PUT demo with Ada's own mailbox: %d %v", code, put)
	}
	if code := call(t, p, "PUT", "/admin/tenants/demo/toolsets/mail", "", map[string]any{
		"allow": []string{"email_messages.list", "agent_schedules"}}, nil); code != http.StatusCreated {
		t.Fatalf("PUT toolset mail: %d", code)
	}
	tokens := map[string]string{"ada": "gtm_ada_" + strings.Repeat("r4", 16), "victor": "gtm_victor_" + strings.Repeat("t8", 16),
		"nobody": "gtm_nobody_" + strings.Repeat("m2", 16)}
	// Ada's by the email she signs in with, Victor's by his id.
	for who, person := range map[string]string{"ada": "ada@demo.example", "victor": victor, "nobody": ""} {
		var created map[string]any
		body := map[string]any{"tenant_id": "demo", "token": tokens[who], "label": who + "'s mail agent", "toolset": "mail", "person": person}
		want := map[string]any{"ada": ada, "victor": victor, "nobody": nil}[who]
		if code := call(t, p, "POST", "/admin/auth", "", body, &created); code != http.StatusCreated || created["person"] != want {
			t.Fatalf("token for %s: %d %v", who, code, created)
		}
	}

	list := func(account string) map[string]any {
		args := map[string]any{"action": "list", "limit": 1, "rationale": "e2e: whose mailbox"}
		if account != "" {
			args["account_id"] = account
		}
		return map[string]any{"name": "email_messages", "arguments": args}
	}
	agents := []map[string]any{
		{"token": tokens["ada"], "calls": []map[string]any{list(""), list("sales@ledgerly.example")}},
		{"token": tokens["victor"], "calls": []map[string]any{list(""), list("me"), {"name": "agent_schedules", "arguments": map[string]any{
			"action": "upsert", "job_id": "victor-peek", "cron": "0 9 * * 1", "rationale": "e2e: a schedule that tries Ada's mailbox",
			"call": map[string]any{"tool": "email_messages", "input": map[string]any{"action": "list", "account_id": "me", "rationale": "peek"}}}}}},
		{"token": tokens["nobody"], "calls": []map[string]any{list(""), list("me")}},
	}
	sum := runAgents(t, p, agents)
	outcome := func(agent, i int) string {
		c := sum.Agents[agent].Calls[i]
		if code := c.code(); code != "" {
			e, _ := c.Body["error"].(map[string]any)
			return fmt.Sprintf("%s: %v", code, e["message"])
		}
		if c.IsError {
			return fmt.Sprint(c.Body)
		}
		return "ok"
	}
	for _, tc := range []struct {
		who      string
		agent, i int
		want     string
		mailbox  string // whose mail a call that ran read (the messages' To)
	}{
		{"Ada's agent, no account: her own mailbox", 0, 0, "ok", "alex@ledgerly.example"},
		{"Ada's agent, the shared inbox", 0, 1, "ok", "sales@ledgerly.example"},
		{"Victor's agent, no account: the shared inbox, not Ada's default", 1, 0, "ok", "sales@ledgerly.example"},
		{"Victor's agent, Ada's mailbox", 1, 1, `FORBIDDEN: gmail account "me" is another person's own`, ""},
		{"Victor's agent creates a schedule", 1, 2, "ok", ""},
		{"nobody's agent, no account: the shared inbox", 2, 0, "ok", "sales@ledgerly.example"},
		{"nobody's agent, Ada's mailbox", 2, 1, `FORBIDDEN: gmail account "me" is a person's own, and this agent acts for no person`, ""},
	} {
		if got := outcome(tc.agent, tc.i); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: %s, want %s", tc.who, got, tc.want)
		}
		body, _ := json.Marshal(sum.Agents[tc.agent].Calls[tc.i].Body)
		if tc.mailbox != "" && !strings.Contains(string(body), `\u003c`+tc.mailbox+`\u003e`) {
			t.Errorf("%s read another mailbox than %s: %s", tc.who, tc.mailbox, body)
		}
	}
	// The schedule Victor's agent created acts for Victor: run now, its call
	// is refused Ada's mailbox.
	var ran map[string]any
	if code := call(t, p, "POST", "/admin/agent-schedules/victor-peek/run?tenant=demo", "", nil, &ran); code != http.StatusOK {
		t.Fatalf("run victor-peek now: %d %v", code, ran)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		var view struct {
			LastRuns []struct{ Status, Reason string } `json:"last_runs"`
		}
		call(t, p, "GET", "/admin/agent-schedules/victor-peek?tenant=demo", "", nil, &view)
		if len(view.LastRuns) > 0 && view.LastRuns[0].Status != "queued" && view.LastRuns[0].Status != "running" {
			if r := view.LastRuns[0]; r.Status == "succeeded" || !strings.Contains(r.Reason, "another person's own") {
				t.Errorf("victor-peek's run: %+v, want refused Ada's mailbox", r)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("victor-peek's run did not finish: %+v", view.LastRuns)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

var idpSignInID = regexp.MustCompile(`name="id" value="([^"]+)"`)

// signInDemo signs in through the demo's sandbox IdP as subject, as a
// browser would (the console's button, the IdP's page, the callback), so
// the person exists for tokens and connect links to name.
// signInAdaAndVictor signs the demo IdP's ada@demo.example (an approver)
// and victor@demo.example (a viewer) in, so that both are people, and
// returns their ids.
func signInAdaAndVictor(t *testing.T, p *process) (ada, victor string) {
	t.Helper()
	signInDemo(t, p, "demo-approver")
	signInDemo(t, p, "demo-viewer")
	var people struct {
		People []struct{ ID, Email string }
	}
	call(t, p, "GET", "/admin/people", "", nil, &people)
	ids := map[string]string{}
	for _, who := range people.People {
		ids[who.Email] = who.ID
	}
	ada, victor = ids["ada@demo.example"], ids["victor@demo.example"]
	if ada == "" || victor == "" {
		t.Fatalf("people after sign-in: %+v", people.People)
	}
	return ada, victor
}

func signInDemo(t *testing.T, p *process, subject string) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 30 * time.Second}
	get := func(u string) string {
		resp, err := c.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	page := get(p.gateway + "/console/sso/start?idp=demo-idp&next=%2Fconsole%2F")
	m := idpSignInID.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no sign-in page of the demo IdP: %.500s", page)
	}
	resp, err := c.PostForm(p.gateway+"/demo-idp/login", url.Values{"id": {m[1]}, "subject": {subject}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), "Signed in as") {
		t.Fatalf("sign-in as %s: %d %.500s", subject, resp.StatusCode, b)
	}
}
