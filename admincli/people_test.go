package admincli_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/admin"
	"github.com/gtmgate/gtmgate/admincli"
	"github.com/gtmgate/gtmgate/idpsandbox"
	"github.com/gtmgate/gtmgate/people"
	"github.com/gtmgate/gtmgate/store/storetest"
)

// peopleGateway serves the admin API with the single sign-on routes over a
// SQLite store holding tenant acme, and a sandbox IdP at /idp whose
// discovery the routes check for real. It returns the gateway's URL, the
// IdP's issuer and the store.
func peopleGateway(t *testing.T) (gatewayURL, issuer string, st gtmgate.Store) {
	t.Helper()
	st = storetest.TenantWithToken(t)
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	idp, err := idpsandbox.New(idpsandbox.Options{Issuer: srv.URL + "/idp"})
	if err != nil {
		t.Fatal(err)
	}
	mux.Handle("/idp/", idp)
	sum := sha256.Sum256([]byte(peopleAdminKey))
	api := people.New(people.Options{Store: st, GatewayURL: "https://gw.example.com"})
	mux.Handle("/admin/", admin.New(admin.Options{Store: st, Recorder: &storetest.AuditRecorder{}, KeyHash: hex.EncodeToString(sum[:]),
		Extra: []func(gtmgate.Router){api.Mount}}))
	return srv.URL, idp.Issuer(), st
}

const peopleAdminKey = "admincli-people-test-admin-key-0123"

// TestSSOCLI: sso put reads the secret from a file or stdin, never a flag;
// list, get and delete; options before or after the command.
func TestSSOCLI(t *testing.T) {
	t.Parallel()
	gw, issuer, st := peopleGateway(t)
	sent := &bodies{}
	c := cli{t: t, env: map[string]string{"GTMGATE_GATEWAY_URL": gw, "GTMGATE_ADMIN_KEY": peopleAdminKey}, http: &http.Client{Transport: sent}}
	redirect := "https://gw.example.com/console/sso/callback"

	out := c.ok("sso", "list")
	if !strings.HasPrefix(out, "NAME") || !strings.Contains(out, "redirect URI to register at each identity provider: "+redirect) {
		t.Fatalf("empty list:\n%s", out)
	}

	secretFile := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(secretFile, []byte("idp-file-secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out = c.ok("sso", "put", "corp", "--issuer", issuer, "--client-id", "gtmgate", "--client-secret-file", secretFile,
		"--allowed-domain", "example.com", "--allowed-domain", "Example.org", "--display-name", "Corp SSO")
	var saved struct {
		IdP struct {
			Issuer          string   `json:"issuer"`
			HasClientSecret bool     `json:"has_client_secret"`
			AllowedDomains  []string `json:"allowed_domains"`
			RedirectURI     string   `json:"redirect_uri"`
		} `json:"idp"`
		Created bool `json:"created"`
	}
	if err := json.Unmarshal([]byte(out), &saved); err != nil || !saved.Created || !saved.IdP.HasClientSecret || saved.IdP.Issuer != issuer ||
		strings.Join(saved.IdP.AllowedDomains, " ") != "example.com example.org" || saved.IdP.RedirectURI != redirect || strings.Contains(out, "file-secret") {
		t.Fatalf("put from a file: %v\n%s", err, out)
	}
	if got := sent.last(); got["client_secret"] != "idp-file-secret" || got["display_name"] != "Corp SSO" {
		t.Fatalf("put from a file sent %v", got)
	}

	// The secret from stdin, a tenant's own IdP, options after the command.
	code, out, errs := c.run("acme-stdin-secret\n", "sso", "put", "acme-sso", "--tenant", "acme", "--issuer", issuer, "--client-id", "acme",
		"--client-secret-file", "-", "--output", "json")
	if code != admincli.ExitOK || strings.Contains(out, "stdin-secret") || !strings.Contains(out, `"tenant_id": "acme"`) {
		t.Fatalf("put from stdin: exit %d: %s%s", code, out, errs)
	}
	if got := sent.last(); got["client_secret"] != "acme-stdin-secret" {
		t.Fatalf("put from stdin sent %v", got)
	}
	// A replace without the secret sends none, and the gateway keeps it.
	out = c.ok("sso", "put", "acme-sso", "--tenant=acme", "--issuer", issuer, "--client-id", "acme-2", "--groups-claim", "roles")
	if got := sent.last(); got["client_secret"] != nil || !strings.Contains(out, `"has_client_secret": true`) || !strings.Contains(out, `"groups_claim": "roles"`) {
		t.Fatalf("a replace without a secret sent %v and got\n%s", got, out)
	}

	out = c.ok("sso", "list")
	if !strings.Contains(out, "(operator)") || !strings.Contains(out, "acme") || !strings.Contains(out, "sealed") || strings.Contains(out, "secret-") {
		t.Fatalf("list:\n%s", out)
	}
	if out := c.ok("--output", "json", "sso", "list"); !strings.Contains(out, `"idps"`) || !strings.Contains(out, `"redirect_uri": "`+redirect+`"`) {
		t.Fatalf("list as JSON:\n%s", out)
	}
	if out := c.ok("sso", "get", "acme-sso"); !strings.Contains(out, `"client_id": "acme-2"`) {
		t.Fatalf("get:\n%s", out)
	}
	if out := c.ok("sso", "delete", "acme-sso"); !strings.Contains(out, `"deleted": true`) {
		t.Fatalf("delete:\n%s", out)
	}
	if p, err := st.GetIdP(t.Context(), "corp"); err != nil || p.ClientSecret != "idp-file-secret" {
		t.Fatalf("the store holds %+v (%v)", p, err)
	}

	for _, tc := range []struct {
		name, stdin string
		args        []string
		want        int
		mention     string
	}{
		{"no issuer", "", []string{"sso", "put", "x", "--client-id", "c", "--client-secret-file", secretFile}, admincli.ExitUsage, "--issuer"},
		{"no client id", "", []string{"sso", "put", "x", "--issuer", issuer, "--client-secret-file", secretFile}, admincli.ExitUsage, "--client-id"},
		{"secret as a flag", "", []string{"sso", "put", "x", "--issuer", issuer, "--client-id", "c", "--client-secret", "s3cr3t"}, admincli.ExitUsage, "shell's history"},
		{"empty stdin", "", []string{"sso", "put", "x", "--issuer", issuer, "--client-id", "c", "--client-secret-file", "-"}, admincli.ExitUsage, "empty"},
		{"missing file", "", []string{"sso", "put", "x", "--issuer", issuer, "--client-id", "c", "--client-secret-file", "/nonexistent/secret"}, admincli.ExitUsage, "no such file"},
		{"create without a secret", "", []string{"sso", "put", "x", "--issuer", issuer, "--client-id", "c"}, admincli.ExitRefused, "client_secret is required"},
		{"http to a public host", "", []string{"sso", "put", "x", "--issuer", "http://idp.example.com", "--client-id", "c", "--client-secret-file", secretFile}, admincli.ExitRefused, "must use https"},
		{"issuer that names another", "", []string{"sso", "put", "x", "--issuer", strings.Replace(issuer, "127.0.0.1", "localhost", 1), "--client-id", "c",
			"--client-secret-file", secretFile}, admincli.ExitRefused, "/.well-known/openid-configuration"},
		{"deleted IdP", "", []string{"sso", "get", "acme-sso"}, admincli.ExitRefused, "NOT_FOUND"},
		{"no name", "", []string{"sso", "get"}, admincli.ExitUsage, "NAME"},
		{"unknown verb", "", []string{"sso", "rotate"}, admincli.ExitUsage, `unknown command "sso rotate"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := c.run(tc.stdin, tc.args...)
			if code != tc.want || !strings.Contains(errs, tc.mention) || strings.Contains(errs, "s3cr3t") {
				t.Errorf("%v: exit %d, want %d mentioning %q (and no secret): %s", tc.args, code, tc.want, tc.mention, errs)
			}
		})
	}
}

// TestPeopleAndRolesCLI: roles grant, list and revoke; people list and delete.
func TestPeopleAndRolesCLI(t *testing.T) {
	t.Parallel()
	gw, issuer, st := peopleGateway(t)
	sent := &bodies{}
	c := cli{t: t, env: map[string]string{"GTMGATE_GATEWAY_URL": gw, "GTMGATE_ADMIN_KEY": peopleAdminKey}, http: &http.Client{Transport: sent}}
	secretFile := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(secretFile, []byte("s"), 0o600); err != nil {
		t.Fatal(err)
	}
	c.ok("sso", "put", "corp", "--issuer", issuer, "--client-id", "c", "--client-secret-file", secretFile)

	out := c.ok("roles", "grant", "--idp", "corp", "--group", "Marketing Team", "--role", "approver", "--tenant", "acme",
		"--category", "ads_mutate,email_send", "--tool", "gmail_messages")
	var created struct{ Grant gtmgate.RoleGrant }
	if err := json.Unmarshal([]byte(out), &created); err != nil || created.Grant.ID == "" || created.Grant.Match != "Marketing Team" ||
		len(created.Grant.Categories) != 2 || created.Grant.CreatedBy != "admin-key" {
		t.Fatalf("roles grant: %v\n%s", err, out)
	}
	if got := sent.last(); got["kind"] != "group" || got["tenant_id"] != "acme" {
		t.Errorf("roles grant sent %v", got)
	}
	c.ok("roles", "grant", "--idp=corp", "--email", "Ada@Example.com", "--role", "admin")

	// The table fits 80 columns, cutting what it must; ids are never cut.
	out = c.ok("roles", "list")
	if !strings.HasPrefix(out, "ID") || !strings.Contains(out, "(operator)") || !strings.Contains(out, created.Grant.ID+"  corp  approver  acme") ||
		!strings.Contains(out, "group Marke") || !strings.Contains(out, "email ada@") || !strings.Contains(out, "ads_mutate") {
		t.Fatalf("roles list:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if utf8.RuneCountInString(line) > 80 {
			t.Errorf("line wider than 80 columns: %q", line)
		}
	}
	if out := c.ok("roles", "list", "--tenant", "acme"); strings.Contains(out, "(operator)") || !strings.Contains(out, "group Market") {
		t.Errorf("roles list --tenant acme:\n%s", out)
	}
	if out := c.ok("roles", "list", "--idp", "corp", "--output", "json"); !strings.Contains(out, `"grants"`) {
		t.Errorf("roles list as JSON:\n%s", out)
	}
	if out := c.ok("roles", "revoke", created.Grant.ID); !strings.Contains(out, `"deleted": true`) {
		t.Errorf("roles revoke:\n%s", out)
	}

	ada, err := st.SignedIn(t.Context(), "corp", gtmgate.Identity{Issuer: issuer, Subject: "sub-ada", Email: "ada@example.com", Name: "Ada"},
		time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if out := c.ok("people", "list"); !strings.HasPrefix(out, "ID") || !strings.Contains(out, ada.ID) || !strings.Contains(out, "2026-03-01 09:00") {
		t.Errorf("people list:\n%s", out)
	}
	if out := c.ok("people", "delete", ada.ID); !strings.Contains(out, `"deleted": true`) {
		t.Errorf("people delete:\n%s", out)
	}

	for _, tc := range []struct {
		name    string
		args    []string
		want    int
		mention string
	}{
		{"no idp", []string{"roles", "grant", "--group", "g", "--role", "admin"}, admincli.ExitUsage, "--idp"},
		{"nothing to match", []string{"roles", "grant", "--idp", "corp", "--role", "admin"}, admincli.ExitUsage, "one of --subject, --email or --group"},
		{"two things to match", []string{"roles", "grant", "--idp", "corp", "--group", "g", "--email", "a@b.c", "--role", "admin"}, admincli.ExitUsage, "one of"},
		{"no role", []string{"roles", "grant", "--idp", "corp", "--group", "g"}, admincli.ExitUsage, "--role"},
		{"owner without a tenant", []string{"roles", "grant", "--idp", "corp", "--group", "g", "--role", "owner"}, admincli.ExitRefused, "tenant_id is required"},
		{"duplicate", []string{"roles", "grant", "--idp", "corp", "--email", "ada@example.com", "--role", "admin"}, admincli.ExitRefused, "CONFLICT"},
		{"revoked grant", []string{"roles", "revoke", created.Grant.ID}, admincli.ExitRefused, "NOT_FOUND"},
		{"deleted person", []string{"people", "delete", ada.ID}, admincli.ExitRefused, "NOT_FOUND"},
		{"unknown roles verb", []string{"roles", "add"}, admincli.ExitUsage, `unknown command "roles add"`},
		{"unknown people verb", []string{"people", "get", "p_1"}, admincli.ExitUsage, `unknown command "people get"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := c.run("", tc.args...)
			if code != tc.want || !strings.Contains(errs, tc.mention) {
				t.Errorf("%v: exit %d, want %d mentioning %q: %s", tc.args, code, tc.want, tc.mention, errs)
			}
		})
	}
}
