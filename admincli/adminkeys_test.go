package admincli_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gtmgate/gtmgate/admin"
	"github.com/gtmgate/gtmgate/admincli"
	"github.com/gtmgate/gtmgate/secret"
	"github.com/gtmgate/gtmgate/store/storetest"
)

const keysBreakGlass = "admincli-admin-keys-test-key-0123"

var printedKey = regexp.MustCompile(`(?m)^admin key (gtmak_[A-Za-z0-9_-]{43})$`)

// TestAdminKeysCLI: admin-keys create prints the key once, and the key
// works as GTMGATE_ADMIN_KEY within its scopes; list and revoke.
func TestAdminKeysCLI(t *testing.T) {
	t.Parallel()
	st := storetest.TenantWithToken(t)
	sum := sha256.Sum256([]byte(keysBreakGlass))
	srv := httptest.NewServer(admin.New(admin.Options{Store: st, Recorder: &storetest.AuditRecorder{}, KeyHash: hex.EncodeToString(sum[:])}))
	t.Cleanup(srv.Close)
	sent := &bodies{}
	c := cli{t: t, env: map[string]string{"GTMGATE_GATEWAY_URL": srv.URL, "GTMGATE_ADMIN_KEY": keysBreakGlass}, http: &http.Client{Transport: sent}}

	out := c.ok("admin-keys", "create", "--name", "acme reporting", "--scope", "read", "--scope", "approve", "--tenant", "acme",
		"--expires-in", "720h", "--owner", "ada@example.com")
	m := printedKey.FindStringSubmatch(out)
	if m == nil || !strings.Contains(out, "It is shown once") || !strings.Contains(out, "scopes read,approve, tenants acme, expires 20") {
		t.Fatalf("create:\n%s", out)
	}
	key := m[1]
	if got := sent.last(); got["name"] != "acme reporting" || got["expires_in"] != "720h" || got["owner"] != "ada@example.com" ||
		len(got["scopes"].([]any)) != 2 || got["tenants"].([]any)[0] != "acme" {
		t.Errorf("create sent %v", got)
	}
	stored, err := st.FindAdminKey(t.Context(), secret.HashToken(key))
	if err != nil || stored.Name != "acme reporting" {
		t.Fatalf("the store holds %+v (%v) under the printed key's hash", stored, err)
	}
	out = c.ok("admin-keys", "create", "--name", "ops", "--scope", "read,write", "--output", "json")
	var created struct{ ID, Key, Status string }
	if err := json.Unmarshal([]byte(out), &created); err != nil || !strings.HasPrefix(created.Key, admin.AdminKeyPrefix) || created.Status != "active" {
		t.Fatalf("create as JSON: %v\n%s", err, out)
	}

	out = c.ok("admin-keys", "list")
	if !strings.HasPrefix(out, "ID") || !strings.Contains(out, stored.ID+"  active") || !strings.Contains(out, "read,approve  acme") ||
		!strings.Contains(out, "read,write    (all)") || strings.Contains(out, key) {
		t.Fatalf("list:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if utf8.RuneCountInString(line) > 80 {
			t.Errorf("line wider than 80 columns: %q", line)
		}
	}
	if out := c.ok("admin-keys", "list", "--output", "json"); !strings.Contains(out, `"admin_keys"`) || strings.Contains(out, key) {
		t.Errorf("list as JSON:\n%s", out)
	}

	// The new key is an admin key of its own, within its scopes.
	withKey := cli{t: t, env: map[string]string{"GTMGATE_GATEWAY_URL": srv.URL, "GTMGATE_ADMIN_KEY": key}}
	if out := withKey.ok("tenants", "list"); !strings.Contains(out, "acme") {
		t.Errorf("tenants list with the named key:\n%s", out)
	}
	if code, _, errs := withKey.run("", "admin-keys", "list"); code != admincli.ExitAuth || !strings.Contains(errs, "FORBIDDEN") {
		t.Errorf("a key of acme lists the admin keys: exit %d: %s", code, errs)
	}

	if out := c.ok("admin-keys", "revoke", stored.ID); !strings.Contains(out, `"status": "revoked"`) {
		t.Errorf("revoke:\n%s", out)
	}
	if code, _, errs := withKey.run("", "tenants", "list"); code != admincli.ExitAuth || !strings.Contains(errs, "was revoked") {
		t.Errorf("a revoked key: exit %d: %s", code, errs)
	}

	for _, tc := range []struct {
		name    string
		args    []string
		want    int
		mention string
	}{
		{"no name", []string{"admin-keys", "create", "--scope", "read"}, admincli.ExitUsage, "--name"},
		{"no scope", []string{"admin-keys", "create", "--name", "x"}, admincli.ExitUsage, "--scope"},
		{"unknown scope", []string{"admin-keys", "create", "--name", "x", "--scope", "admin"}, admincli.ExitRefused, "is not read, approve or write"},
		{"unknown tenant", []string{"admin-keys", "create", "--name", "x", "--scope", "read", "--tenant", "initech"}, admincli.ExitRefused, "TENANT_NOT_FOUND"},
		{"bad duration", []string{"admin-keys", "create", "--name", "x", "--scope", "read", "--expires-in", "30d"}, admincli.ExitRefused, "not a positive duration"},
		{"taken name", []string{"admin-keys", "create", "--name", "ops", "--scope", "read"}, admincli.ExitRefused, "CONFLICT"},
		{"revoked key", []string{"admin-keys", "revoke", stored.ID}, admincli.ExitRefused, "already revoked"},
		{"no key id", []string{"admin-keys", "revoke"}, admincli.ExitUsage, "KEY_ID"},
		{"unknown verb", []string{"admin-keys", "rotate"}, admincli.ExitUsage, `unknown command "admin-keys rotate"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := c.run("", tc.args...)
			if code != tc.want || !strings.Contains(errs, tc.mention) {
				t.Errorf("%v: exit %d, want %d mentioning %q: %s", tc.args, code, tc.want, tc.mention, errs)
			}
		})
	}
}
