package e2e

import (
	"context"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var (
	connectCSRF   = regexp.MustCompile(`name="csrf" value="([^"]+)"`)
	consentHidden = regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)">`)
)

// TestPersonGrantEndToEnd: issue #42's per-person grants through the real
// --demo binary, no browser. The demo's sandbox OAuth server crm-notes is
// made per-person; Ada connects her own account through a connect link
// (its page, the same-origin start, the sandbox's no-JavaScript consent,
// the callback), all over plain HTTP. Then Ada's agent calls a crm-notes
// tool over MCP and it runs on her grant, the only one stored; Victor's
// agent gets REAUTH_REQUIRED naming Victor and his connect page, and no
// grant is sent for him.
func TestPersonGrantEndToEnd(t *testing.T) {
	// Connect links and their redirect URI name GATEWAY_URL.
	p := startKnownGateway(t, t.TempDir())
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("gtmgate stderr:\n%s", p.stderr.String())
		}
	})
	const server = "crm-notes"
	ada, victor := signInAdaAndVictor(t, p)

	// crm-notes becomes per-person, through the admin API.
	var one struct {
		Server struct {
			URL  string `json:"url"`
			Auth struct {
				Kind  string `json:"kind"`
				Grant string `json:"grant"`
			} `json:"auth"`
		} `json:"server"`
	}
	call(t, p, "GET", "/admin/tenants/demo/mcp-servers/"+server, "", nil, &one)
	var put struct {
		Auth struct{ Grant string } `json:"auth"`
	}
	if st := call(t, p, "PUT", "/admin/tenants/demo/mcp-servers/"+server, "", map[string]any{"url": one.Server.URL,
		"auth": map[string]any{"kind": "oauth", "scopes": []string{"notes"}, "grant": "person"}}, &put); st != http.StatusOK || put.Auth.Grant != "person" {
		t.Fatalf("PUT %s per-person: %d %+v", server, st, put)
	}

	tokens := map[string]string{"ada": "gtm_ada_" + strings.Repeat("g5", 16), "victor": "gtm_victor_" + strings.Repeat("h6", 16)}
	tokenIDs := map[string]string{} // who: the token's id, its audit key
	for who, person := range map[string]string{"ada": ada, "victor": victor} {
		var created map[string]any
		body := map[string]any{"tenant_id": "demo", "token": tokens[who], "label": who + "'s notes agent", "person": person}
		if st := call(t, p, "POST", "/admin/auth", "", body, &created); st != http.StatusCreated || created["person"] != person {
			t.Fatalf("token for %s: %d %v", who, st, created)
		}
		tokenIDs[who], _ = created["id"].(string)
	}

	// Ada's connect link, completed as a browser without JavaScript would.
	var link struct{ URL string }
	if st := call(t, p, "POST", "/admin/tenants/demo/connect-links", "", map[string]any{"provider": "mcp:" + server, "person": ada}, &link); st != http.StatusCreated {
		t.Fatalf("connect link for Ada: %d %+v", st, link)
	}
	connectOverHTTP(t, p, link.URL)

	// The first listing after the connect is Ada's; it is accepted as the
	// link's maker. Refresh and accept now rather than wait for that.
	if st := call(t, p, "POST", "/admin/tenants/demo/mcp-servers/"+server+"/refresh", "", nil, nil); st != http.StatusOK {
		t.Fatalf("refresh %s after Ada connected: %d", server, st)
	}
	if st := call(t, p, "POST", "/admin/tenants/demo/mcp-servers/"+server+"/changes/accept", "", map[string]any{"all": true}, nil); st != http.StatusOK {
		t.Fatalf("accept %s's tools: %d", server, st)
	}

	var stored struct {
		Tokens []struct {
			Provider  string `json:"provider"`
			AccountID string `json:"account_id"`
		} `json:"provider_tokens"`
	}
	call(t, p, "GET", "/admin/tenants/demo/provider-tokens", "", nil, &stored)
	var grants []string
	for _, tk := range stored.Tokens {
		if tk.Provider == "mcp:"+server {
			grants = append(grants, tk.AccountID)
		}
	}
	if len(grants) != 1 || grants[0] != ada {
		t.Fatalf("grants of %s: %v, want Ada's (%s) alone", server, grants, ada)
	}

	search := func(who string) (*mcp.CallToolResult, string) {
		t.Helper()
		cs, err := connectMCP(t, p.gateway+"/mcp", tokens[who], nil)
		if err != nil {
			t.Fatalf("%s's agent: connect to /mcp: %v", who, err)
		}
		defer cs.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: server + "__search_notes",
			Arguments: map[string]any{"query": "pricing", "rationale": "e2e: whose grant"}})
		if err != nil {
			t.Fatalf("%s's agent: tools/call %s__search_notes: %v", who, server, err)
		}
		b, _ := json.Marshal(res)
		return res, string(b)
	}
	// Ada's call runs on her grant: the only one the upstream could accept.
	if res, text := search("ada"); res.IsError || !strings.Contains(text, "Pricing review") {
		t.Fatalf("Ada's call: %s", text)
	}
	// Victor has not connected: refused, naming him and his connect page;
	// never Ada's grant.
	connectPage := "/console/connect/demo/mcp:" + server
	if res, text := search("victor"); !res.IsError || !strings.Contains(text, "REAUTH_REQUIRED") ||
		!strings.Contains(text, "person "+victor) || !strings.Contains(text, connectPage) || strings.Contains(text, "Pricing review") {
		t.Fatalf("Victor's call: %s, want REAUTH_REQUIRED naming %s and %s", text, victor, connectPage)
	}

	// A destructive tool is held for approval; approved, each held call runs
	// on the grant of the person its token acts for: Ada's deletes her note,
	// Victor's fails REAUTH_REQUIRED and never borrows Ada's grant.
	approvals := map[string]string{}
	for who, note := range map[string]string{"ada": "n2", "victor": "n3"} {
		var held struct {
			Error      struct{ Code string } `json:"error"`
			ApprovalID string                `json:"approval_id"`
		}
		st := call(t, p, "POST", "/api/v1/demo/mcp/"+server, tokens[who], map[string]any{"tool": server + "__delete_note",
			"input": map[string]any{"id": note, "rationale": "e2e: a held call runs on its person's grant"}}, &held)
		if st != http.StatusAccepted || held.Error.Code != "APPROVAL_REQUIRED" || held.ApprovalID == "" {
			t.Fatalf("%s's delete_note: %d %+v, want 202 APPROVAL_REQUIRED", who, st, held)
		}
		approvals[who] = held.ApprovalID
	}
	decide := func(who string) string {
		t.Helper()
		var out map[string]any
		if st := call(t, p, "POST", "/admin/approvals/"+approvals[who]+"/approve", "", map[string]any{"reason": "e2e"}, &out); st != http.StatusOK {
			t.Fatalf("approve %s's held call: %d %v", who, st, out)
		}
		b, _ := json.Marshal(out)
		return string(b)
	}
	if got := decide("ada"); !strings.Contains(got, `"status":"executed"`) || !strings.Contains(got, `"id":"n2"`) {
		t.Errorf("Ada's approved call: %s, want executed, note n2 deleted on her grant", got)
	}
	if got := decide("victor"); strings.Contains(got, `"status":"executed"`) || !strings.Contains(got, "REAUTH_REQUIRED") {
		t.Errorf("Victor's approved call: %s, want it failed with REAUTH_REQUIRED (he has no grant)", got)
	}

	// The audit names each call's token (the token acting for Ada ran, the
	// one acting for Victor was refused) and the link completed for Ada.
	var audit struct {
		Entries []struct {
			Action, Key, Outcome, Detail string
			ErrorCode                    string `json:"error_code"`
		} `json:"entries"`
	}
	call(t, p, "GET", "/admin/audit?tenant=demo&limit=200", "", nil, &audit)
	var completed bool
	calls := map[string]string{} // audit key: outcome (error code) of the search_notes call
	for _, e := range audit.Entries {
		completed = completed || e.Action == "connect.completed" && strings.Contains(e.Detail, "for person "+ada)
		if e.Action == server+"__search_notes.call" {
			calls[e.Key] = e.Outcome + " " + e.ErrorCode
		}
	}
	if !completed {
		t.Errorf("the audit has no connect.completed for person %s: %+v", ada, audit.Entries)
	}
	if got := calls[tokenIDs["ada"]]; got != "ok " {
		t.Errorf("the audit of the call with Ada's token %s: %q, want ok (calls: %v)", tokenIDs["ada"], got, calls)
	}
	if got := calls[tokenIDs["victor"]]; got != "error REAUTH_REQUIRED" {
		t.Errorf("the audit of the call with Victor's token %s: %q, want REAUTH_REQUIRED (calls: %v)", tokenIDs["victor"], got, calls)
	}
}

// connectOverHTTP completes an MCP connect link as a browser without
// JavaScript: its page, Continue (a same-origin POST with the page's
// token), the authorization server's consent page, Allow, and the
// redirect back to the gateway's callback.
func connectOverHTTP(t *testing.T, p *process, link string) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	do := func(req *http.Request) (*http.Response, string) {
		t.Helper()
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		return resp, string(b)
	}
	form := func(to string, v url.Values, header map[string]string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest("POST", to, strings.NewReader(v.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for k, h := range header {
			req.Header.Set(k, h)
		}
		return do(req)
	}
	get := func(to string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", to, nil)
		return do(req)
	}

	resp, page := get(link)
	m := connectCSRF.FindStringSubmatch(page)
	if resp.StatusCode != http.StatusOK || m == nil {
		t.Fatalf("link page: %d %.500s", resp.StatusCode, page)
	}
	resp, page = form(link, url.Values{"csrf": {m[1]}}, map[string]string{"Origin": p.gateway, "Sec-Fetch-Site": "same-origin"})
	consent := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusSeeOther || consent == "" {
		t.Fatalf("Continue: %d %.500s", resp.StatusCode, page)
	}
	resp, page = get(consent)
	if resp.StatusCode != http.StatusOK || !strings.Contains(page, `value="allow"`) {
		t.Fatalf("consent page: %d %.500s", resp.StatusCode, page)
	}
	allow := url.Values{"decision": {"allow"}}
	for _, h := range consentHidden.FindAllStringSubmatch(page, -1) {
		allow.Set(h[1], html.UnescapeString(h[2]))
	}
	cu, _ := url.Parse(consent)
	resp, page = form(cu.Scheme+"://"+cu.Host+"/as/authorize", allow, map[string]string{"Origin": cu.Scheme + "://" + cu.Host})
	callback := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusSeeOther || !strings.Contains(callback, "code=") {
		t.Fatalf("Allow: %d %s %.500s", resp.StatusCode, callback, page)
	}
	resp, page = get(callback)
	if resp.StatusCode != http.StatusOK || !strings.Contains(page, "connected") {
		t.Fatalf("callback: %d %.500s", resp.StatusCode, page)
	}
}
