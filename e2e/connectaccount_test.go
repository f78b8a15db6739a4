package e2e

import (
	"encoding/json"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/internal/nodetools"
)

// TestConnectAccountInBrowser: "Connect accounts" end to end in Chromium
// against the real binary, with JavaScript on and off, one fresh tenant
// each (connect-browser.mjs drives the browser). The operator makes a
// HubSpot link in the console, the owner opens it, consents on the
// sandbox's page and lands on "Your HubSpot account is connected"; then a tool call of the
// tenant runs on the connected portal, the link is listed completed, and
// the audit records it without the link's secret or any token. In the
// browser too: two links open in two tabs of one browser both complete, a
// form on another site posting to a link's start is refused (403) and the
// link still works, the used link is refused, a denied consent stores
// nothing, and from a Google grant that reaches several accounts only the
// GA4 property ticked in the picker is added. Screenshots go to
// $GTMGATE_SCREENSHOTS when set.
func TestConnectAccountInBrowser(t *testing.T) {
	nodetools.Dir(t)
	chromium := nodetools.Chromium(t)
	// Connect links and their redirect URI name GATEWAY_URL, so the
	// gateway needs a known port.
	p := startKnownGateway(t, t.TempDir())
	tenants := []string{"connect-js", "connect-nojs"}
	tokens := map[string]string{}
	for _, id := range tenants {
		call(t, p, "PUT", "/admin/tenants/"+id, "", map[string]any{"name": "Tenant " + id, "status": "active", "providers": map[string]any{}}, nil)
		tokens[id] = "tok-" + id + "-0123456789abcdef"
		if st := call(t, p, "POST", "/admin/auth", "", map[string]any{"tenant_id": id, "token": tokens[id]}, nil); st != 201 {
			t.Fatalf("register token for %s: %d", id, st)
		}
		if st := call(t, p, "POST", "/api/v1/"+id+"/crm", tokens[id], contactsList(), nil); st == 200 {
			t.Fatalf("%s called HubSpot before any account was connected", id)
		}
	}

	var got struct {
		Checks   int
		Failures []string
		Runs     []struct{ Tenant, Link, Code, State, GA4 string }
	}
	runNodeScript(t, p, "connect-browser.mjs", &got, "GTMGATE_GATEWAY_URL="+p.gateway, "GTMGATE_ADMIN_KEY="+adminKey,
		"GTMGATE_TENANTS="+strings.Join(tenants, ","), "CHROMIUM="+chromium, "CONNECT_SHOTS="+os.Getenv("GTMGATE_SCREENSHOTS"))
	if got.Checks < 2*25 {
		t.Errorf("only %d checks ran", got.Checks)
	}
	for _, f := range got.Failures {
		t.Error(f)
	}
	if len(got.Runs) != len(tenants) {
		t.Fatalf("%d runs finished, want %d", len(got.Runs), len(tenants))
	}
	for _, run := range got.Runs {
		id := run.Tenant
		if st := call(t, p, "POST", "/api/v1/"+id+"/crm", tokens[id], contactsList(), nil); st != 200 {
			t.Errorf("%s: tool call on the connected portal: %d", id, st)
		}
		var links struct {
			Links []map[string]any `json:"connect_links"`
		}
		call(t, p, "GET", "/admin/connect-links?tenant="+url.QueryEscape(id), "", nil, &links)
		status := map[string]string{}
		for _, l := range links.Links {
			status[l["provider"].(string)+" "+l["status"].(string)] = ""
		}
		for _, want := range []string{"hubspot completed", "hubspot failed", "google completed"} {
			if _, ok := status[want]; !ok {
				t.Errorf("%s: no %s link in %v", id, want, links.Links)
			}
		}
		var stored struct {
			Tokens []map[string]any `json:"provider_tokens"`
		}
		call(t, p, "GET", "/admin/tenants/"+id+"/provider-tokens", "", nil, &stored)
		var accounts []string
		for _, tk := range stored.Tokens {
			accounts = append(accounts, tk["provider"].(string)+":"+tk["account_id"].(string))
		}
		ga4 := strings.TrimPrefix(run.GA4, "ga4:")
		slices.Sort(accounts)
		if len(accounts) != 2 || accounts[0] != "ga4:"+ga4 || !strings.HasPrefix(accounts[1], "hubspot:") {
			t.Errorf("%s: provider tokens %v, want the HubSpot portal and GA4 property %s only", id, accounts, ga4)
		}

		var audit json.RawMessage
		call(t, p, "GET", "/admin/audit?tenant="+url.QueryEscape(id)+"&limit=200", "", nil, &audit)
		for _, want := range []string{"connect.opened", "connect.completed"} {
			if !strings.Contains(string(audit), want) {
				t.Errorf("%s: the audit lacks %s", id, want)
			}
		}
		secret := run.Link[strings.LastIndex(run.Link, "/")+1:]
		listed, _ := json.Marshal(links)
		if len(secret) < 22 || strings.Contains(string(audit), secret) || strings.Contains(string(listed), secret) {
			t.Errorf("%s: the link's secret (%.6s…) is in the audit or the list of links", id, secret)
		}
		if run.Code == "" || run.State == "" {
			t.Errorf("%s: the callback's code and state were not seen", id)
		}
		// The sandboxes' tokens start with hs-sandbox- and ya29.sandbox-.
		for _, s := range []string{tokens[id], run.Code, run.State, "hs-sandbox-", "ya29.sandbox-"} {
			if s != "" && strings.Contains(string(audit), s) {
				t.Errorf("%s: the audit holds a secret (%.6s…)", id, s)
			}
		}
	}
}

// contactsList is a read-only HubSpot tool call.
func contactsList() map[string]any {
	return map[string]any{"tool": "crm_contacts", "input": map[string]any{"action": "list", "limit": 2, "rationale": "e2e connect"}}
}
