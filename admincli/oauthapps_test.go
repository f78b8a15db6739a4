package admincli_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gtmgate/gtmgate/admincli"
	"github.com/gtmgate/gtmgate/app/apptest"
)

// TestOAuthAppsCLI: oauth-apps put reads the secret from a file or stdin,
// never a flag; list, get and delete work on gateway-wide and tenant apps,
// options before or after the command.
func TestOAuthAppsCLI(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	sent := &bodies{}
	c := cli{t: t, env: map[string]string{"GTMGATE_GATEWAY_URL": env.GatewayURL, "GTMGATE_ADMIN_KEY": apptest.AdminKey},
		http: &http.Client{Transport: sent}}
	redirect := env.Config.GatewayURL + "/connect/callback"
	// --demo registers each sandbox's app gateway-wide; start without them.
	for _, p := range []string{"google", "hubspot", "meta", "linkedin"} {
		if r := env.Admin("DELETE", "/admin/oauth-apps/"+p, nil); r.Status != 200 {
			t.Fatalf("delete the demo's %s app: %d %s", p, r.Status, r.Body)
		}
	}

	out := c.ok("oauth-apps", "list")
	if !strings.HasPrefix(out, "PROVIDER") || !strings.Contains(out, "redirect URI to register in each provider's app settings: "+redirect) {
		t.Fatalf("empty list:\n%s", out)
	}

	secretFile := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(secretFile, []byte("GOCSPX-file-secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out = c.ok("oauth-apps", "put", "google", "--client-id", "123.apps.googleusercontent.com",
		"--client-secret-file", secretFile, "--extra-scopes", "openid email")
	var saved struct {
		App struct {
			ClientID        string   `json:"client_id"`
			HasClientSecret bool     `json:"has_client_secret"`
			ExtraScopes     []string `json:"extra_scopes"`
			RedirectURI     string   `json:"redirect_uri"`
		} `json:"oauth_app"`
		Created bool `json:"created"`
	}
	if err := json.Unmarshal([]byte(out), &saved); err != nil || !saved.Created || !saved.App.HasClientSecret ||
		len(saved.App.ExtraScopes) != 2 || saved.App.RedirectURI != redirect || strings.Contains(out, "file-secret") {
		t.Fatalf("put from a file: %v\n%s", err, out)
	}
	if got := sent.last(); got["client_secret"] != "GOCSPX-file-secret" {
		t.Fatalf("put from a file sent %v", got)
	}

	// The secret from stdin, a tenant's app, options after the command.
	code, out, errs := c.run("hub-stdin-secret\n", "oauth-apps", "put", "hubspot", "--tenant", "demo", "--client-id", "hub-client",
		"--client-secret-file", "-", "--output", "json")
	if code != admincli.ExitOK || strings.Contains(out, "stdin-secret") {
		t.Fatalf("put from stdin: exit %d: %s%s", code, out, errs)
	}
	if got := sent.last(); got["client_secret"] != "hub-stdin-secret" {
		t.Fatalf("put from stdin sent %v", got)
	}
	// A replace without the secret sends none, and the gateway keeps it.
	out = c.ok("oauth-apps", "put", "hubspot", "--tenant=demo", "--client-id", "hub-client-2")
	if got := sent.last(); got["client_secret"] != nil || !strings.Contains(out, `"has_client_secret": true`) {
		t.Fatalf("a replace without a secret sent %v and got\n%s", got, out)
	}

	out = c.ok("oauth-apps", "list")
	if !strings.Contains(out, "(gateway-wide)") || !strings.Contains(out, "demo") || !strings.Contains(out, "sealed") ||
		strings.Contains(out, "secret-") {
		t.Fatalf("list:\n%s", out)
	}
	if out := c.ok("--output", "json", "oauth-apps", "list"); !strings.Contains(out, `"oauth_apps"`) || !strings.Contains(out, `"has_client_secret": true`) {
		t.Fatalf("list as JSON:\n%s", out)
	}
	if out := c.ok("oauth-apps", "get", "hubspot", "--tenant", "demo"); !strings.Contains(out, `"client_id": "hub-client-2"`) {
		t.Fatalf("get:\n%s", out)
	}
	if out := c.ok("oauth-apps", "delete", "google"); !strings.Contains(out, `"deleted": true`) {
		t.Fatalf("delete:\n%s", out)
	}

	for _, tc := range []struct {
		name, stdin string
		args        []string
		want        int
		mention     string
	}{
		{"no client id", "", []string{"oauth-apps", "put", "meta", "--client-secret-file", secretFile}, admincli.ExitUsage, "--client-id"},
		{"secret as a flag", "", []string{"oauth-apps", "put", "meta", "--client-id", "m", "--client-secret", "s3cr3t"}, admincli.ExitUsage, "shell's history"},
		{"empty stdin", "", []string{"oauth-apps", "put", "meta", "--client-id", "m", "--client-secret-file", "-"}, admincli.ExitUsage, "empty"},
		{"missing file", "", []string{"oauth-apps", "put", "meta", "--client-id", "m", "--client-secret-file", "/nonexistent/secret"}, admincli.ExitUsage, "no such file"},
		{"create without a secret", "", []string{"oauth-apps", "put", "meta", "--client-id", "m"}, admincli.ExitRefused, "client_secret is required"},
		{"unknown provider", "", []string{"oauth-apps", "get", "salesforce"}, admincli.ExitRefused, "google, hubspot, meta, linkedin"},
		{"deleted app", "", []string{"oauth-apps", "get", "google"}, admincli.ExitRefused, "NOT_FOUND"},
		{"unknown tenant", "", []string{"oauth-apps", "delete", "google", "--tenant", "nobody"}, admincli.ExitRefused, "TENANT_NOT_FOUND"},
		{"no provider", "", []string{"oauth-apps", "get"}, admincli.ExitUsage, "PROVIDER"},
		{"unknown verb", "", []string{"oauth-apps", "rotate"}, admincli.ExitUsage, `unknown command "oauth-apps rotate"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := c.run(tc.stdin, tc.args...)
			if code != tc.want || !strings.Contains(errs, tc.mention) || strings.Contains(errs, "s3cr3t") {
				t.Errorf("%v: exit %d, want %d mentioning %q (and no secret): %s", tc.args, code, tc.want, tc.mention, errs)
			}
		})
	}
}

// bodies is a transport that keeps the JSON body of each request it sends.
type bodies struct {
	mu   sync.Mutex
	sent []map[string]any
}

func (b *bodies) RoundTrip(r *http.Request) (*http.Response, error) {
	var body map[string]any
	if r.Body != nil {
		raw, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, err
		}
		_ = json.Unmarshal(raw, &body)
		r.Body = io.NopCloser(bytes.NewReader(raw))
	}
	b.mu.Lock()
	b.sent = append(b.sent, body)
	b.mu.Unlock()
	return http.DefaultTransport.RoundTrip(r)
}

func (b *bodies) last() map[string]any {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sent[len(b.sent)-1]
}
