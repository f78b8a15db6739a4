package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/internal/nodetools"
)

// idpBinary builds e2e/idpsrv, the sandbox OpenID provider as its own process.
func idpBinary(t *testing.T) string {
	return testBinary(t, "./idpsrv")
}

// idpPerson is a person of an idpsrv people file.
type idpPerson struct {
	Subject       string   `json:"subject"`
	Email         string   `json:"email"`
	EmailVerified bool     `json:"email_verified"`
	Name          string   `json:"name"`
	Groups        []string `json:"groups"`
}

// startIdP runs an OpenID provider (zitadel/oidc's certified op, in
// e2e/idpsrv) in its own process with people, and returns its issuer and
// its base URL (where its test endpoints are).
func startIdP(t *testing.T, people []idpPerson) (issuer, base string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "people.json")
	b, _ := json.Marshal(people)
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(idpBinary(t), "-listen", "127.0.0.1:0", "-path", "/idp", "-people", file)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = &lockedBuffer{}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "issuer="); ok {
				found <- v
			}
		}
	}()
	select {
	case issuer = <-found:
	case <-time.After(30 * time.Second):
		t.Fatal("idpsrv printed no issuer")
	}
	return issuer, strings.TrimSuffix(issuer, "/idp")
}

// registerClient registers gtmgate's console at an IdP with the redirect
// URI of every replica.
func registerClient(t *testing.T, idpBase, secret string, gateways ...string) {
	t.Helper()
	var uris []string
	for _, g := range gateways {
		uris = append(uris, g+"/console/sso/callback")
	}
	b, _ := json.Marshal(map[string]any{"id": "gtmgate", "secret": secret, "redirect_uris": uris})
	resp, err := http.Post(idpBase+"/admin/clients", "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("register the client at %s: %d", idpBase, resp.StatusCode)
	}
}

// TestPeopleSignInOnTwoReplicas: two gtmgate replicas on one PostgreSQL
// database, two independently configured OpenID providers in their own
// processes (the agency's, and a client company's bound to its tenant),
// and Chromium signing people in through them (e2e/node/people-browser.mjs).
func TestPeopleSignInOnTwoReplicas(t *testing.T) {
	nodetools.Dir(t)
	chromium := nodetools.Chromium(t)
	adminURL, db := testDatabase(t)
	corpIssuer, corpBase := startIdP(t, []idpPerson{
		{Subject: "olga", Email: "olga@agency.example", EmailVerified: true, Name: "Olga Operator", Groups: []string{"ops"}},
		{Subject: "ada", Email: "ada@demo.example", EmailVerified: true, Name: "Ada Approver", Groups: []string{"demo-approvers"}},
		{Subject: "victor", Email: "victor@demo.example", EmailVerified: true, Name: "Victor Viewer"},
		{Subject: "nina", Email: "nina@demo.example", EmailVerified: true, Name: "Nina Newcomer"},
	})
	acmeIssuer, acmeBase := startIdP(t, []idpPerson{
		{Subject: "carl", Email: "carl@acme.example", EmailVerified: true, Name: "Carl Client", Groups: []string{"acme-admins"}},
	})
	partnerIssuer, partnerBase := startIdP(t, []idpPerson{
		{Subject: "dana", Email: "dana@partner.example", EmailVerified: true, Name: "Dana Decider"},
	})
	env := []string{"DATABASE_URL=" + withDatabase(adminURL, hostOf(adminURL), db), "GTMGATE_ENCRYPTION_KEY=" + strings.Repeat("ab", 32)}
	a := startKnownGateway(t, t.TempDir(), env...)
	b := startKnownGateway(t, t.TempDir(), env...)
	registerClient(t, corpBase, "corp-secret", a.gateway, b.gateway)
	registerClient(t, acmeBase, "acme-secret", a.gateway, b.gateway)
	registerClient(t, partnerBase, "partner-secret", a.gateway, b.gateway)

	mustCall := func(p *process, method, path string, body any, want int, out any) {
		t.Helper()
		if st := call(t, p, method, path, "", body, out); st != want {
			t.Fatalf("%s %s: %d, want %d", method, path, st, want)
		}
	}
	mustCall(a, "PUT", "/admin/tenants/acme", map[string]any{"name": "Acme"}, 201, nil)
	mustCall(a, "PUT", "/admin/sso/idps/corp", map[string]any{"display_name": "Agency SSO", "issuer": corpIssuer,
		"client_id": "gtmgate", "client_secret": "corp-secret", "groups_claim": "groups"}, 201, nil)
	mustCall(b, "PUT", "/admin/sso/idps/acme-okta", map[string]any{"display_name": "Acme Okta", "issuer": acmeIssuer,
		"client_id": "gtmgate", "client_secret": "acme-secret", "tenant_id": "acme"}, 201, nil)
	mustCall(b, "PUT", "/admin/sso/idps/partner", map[string]any{"display_name": "Partner SSO", "issuer": partnerIssuer,
		"client_id": "gtmgate", "client_secret": "partner-secret"}, 201, nil)
	var ada struct {
		Grant struct{ ID string } `json:"grant"`
	}
	for _, g := range []map[string]any{
		{"idp": "corp", "kind": "group", "match": "ops", "role": "admin"},
		{"idp": "corp", "kind": "email", "match": "victor@demo.example", "role": "viewer", "tenant_id": "demo"},
		{"idp": "acme-okta", "kind": "group", "match": "acme-admins", "role": "owner", "tenant_id": "acme"},
		{"idp": "partner", "kind": "email", "match": "dana@partner.example", "role": "approver", "tenant_id": "demo"},
	} {
		mustCall(a, "POST", "/admin/role-grants", g, 201, nil)
	}
	mustCall(a, "POST", "/admin/role-grants", map[string]any{"idp": "corp", "kind": "group", "match": "demo-approvers",
		"role": "approver", "tenant_id": "demo", "categories": []string{"ads_mutate"}}, 201, &ada)
	// The client company's IdP cannot make anyone an operator.
	mustCall(a, "POST", "/admin/role-grants", map[string]any{"idp": "acme-okta", "kind": "group", "match": "acme-admins", "role": "admin"}, 400, nil)

	hold := func(amount int) string {
		var held struct {
			ApprovalID string `json:"approval_id"`
		}
		call(t, a, "POST", "/api/v1/demo/ads", a.demoToken, map[string]any{"tool": "google_ads_campaigns", "input": map[string]any{
			"action": "update_budget", "campaign_id": "21000100002", "amount": amount, "rationale": "launch week"}}, &held)
		if held.ApprovalID == "" {
			t.Fatal("the budget change was not held")
		}
		return held.ApprovalID
	}
	first, second := hold(150), hold(175)

	var got struct {
		Checks   int
		Failures []string
	}
	runNodeScript(t, a, "people-browser.mjs", &got, "GATEWAY_A="+a.gateway, "GATEWAY_B="+b.gateway, "ADMIN_KEY="+adminKey,
		"APPROVAL_ID="+first, "SECOND_APPROVAL_ID="+second, "CORP_IDP="+corpBase, "ADA_GRANT="+ada.Grant.ID, "CHROMIUM="+chromium)
	t.Logf("%d checks in the browser", got.Checks)
	if got.Checks < 30 {
		t.Errorf("only %d checks ran", got.Checks)
	}
	for _, f := range got.Failures {
		t.Error(f)
	}

	// The audit names Ada as the decider, on either replica.
	var audit struct {
		Entries []struct{ Key, Via, Detail, Tenant string }
	}
	mustCall(b, "GET", "/admin/audit?tenant=demo&action=admin.approvals.approve.post", nil, 200, &audit)
	want := map[string]string{"sso:corp": "ada@demo.example", "sso:partner": "dana@partner.example"}
	if len(audit.Entries) != 2 {
		t.Fatalf("audit of the decisions: %+v", audit.Entries)
	}
	for _, e := range audit.Entries {
		if !strings.HasPrefix(e.Key, "person:") || want[e.Via] == "" || !strings.Contains(e.Detail, want[e.Via]) {
			t.Errorf("audit of a decision: %+v", e)
		}
	}
}
