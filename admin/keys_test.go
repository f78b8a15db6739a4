package admin_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/admin"
	"github.com/gtmgate/gtmgate/secret"
	"github.com/gtmgate/gtmgate/store/storetest"
	"github.com/gtmgate/gtmgate/throttle"
)

const breakGlassKey = "admin-keys-test-break-glass-0123"

// keysEnv is the admin API over a SQLite store holding tenant acme, with a
// clock the test moves.
type keysEnv struct {
	t     *testing.T
	store gtmgate.Store
	audit *storetest.AuditRecorder
	now   time.Time
	// tick moves the clock on at every reading, when set.
	tick  time.Duration
	guard *throttle.Guard
	h     *admin.Handler
}

// startKeysAt is where the tests' clock starts.
var startKeysAt = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func startKeys(t *testing.T) *keysEnv {
	t.Helper()
	e := &keysEnv{t: t, store: storetest.TenantWithToken(t), audit: &storetest.AuditRecorder{}, now: startKeysAt}
	e.serve(e.store)
	return e
}

// serve answers with the admin API over st, and a fresh guard allowing
// one failed key, so a test sees whether a refusal counted.
func (e *keysEnv) serve(st gtmgate.Store) {
	sum := sha256.Sum256([]byte(breakGlassKey))
	clock := func() time.Time {
		now := e.now
		e.now = e.now.Add(e.tick)
		return now
	}
	e.guard = throttle.New(throttle.Options{Name: "admin", Burst: 1, Refill: time.Hour, Now: clock,
		Logger: slog.New(slog.DiscardHandler)})
	e.h = admin.New(admin.Options{Store: st, Recorder: e.audit, KeyHash: hex.EncodeToString(sum[:]), KeyGuard: e.guard, Now: clock})
}

type keysAnswer struct {
	status int
	body   string
}

func (a keysAnswer) errorOf(t *testing.T) (code, message, hint string) {
	t.Helper()
	var b struct {
		Error struct{ Code, Message, Hint string }
	}
	if err := json.Unmarshal([]byte(a.body), &b); err != nil {
		t.Fatalf("not an error body: %s", a.body)
	}
	return b.Error.Code, b.Error.Message, b.Error.Hint
}

// do sends a request with headers (name, value pairs).
func (e *keysEnv) do(method, path, body string, headers ...string) keysAnswer {
	e.t.Helper()
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	for i := 0; i+1 < len(headers); i += 2 {
		r.Header.Set(headers[i], headers[i+1])
	}
	w := httptest.NewRecorder()
	e.h.ServeHTTP(w, r)
	return keysAnswer{w.Code, w.Body.String()}
}

// create makes a key with the break-glass key and returns its id and key.
func (e *keysEnv) create(body string) (id, key string) {
	e.t.Helper()
	a := e.do("POST", "/admin/admin-keys", body, "X-Admin-Key", breakGlassKey)
	var created admin.AdminKeyCreated
	if err := json.Unmarshal([]byte(a.body), &created); err != nil || a.status != 201 {
		e.t.Fatalf("create %s: %d %s", body, a.status, a.body)
	}
	return created.ID, created.Key
}

// failed reports whether the guard counted a failed key from the test's address.
func (e *keysEnv) failed() bool {
	return e.guard.Check(httptest.NewRequest("GET", "/admin/tenants", nil)) != nil
}

// failingFind is a store that cannot read named keys.
type failingFind struct{ gtmgate.Store }

func (failingFind) FindAdminKey(context.Context, string) (*gtmgate.AdminKey, error) {
	return nil, &gtmgate.Error{Code: gtmgate.EUnavailable, Message: "the store is unavailable", Err: gtmgate.ErrStoreUnavailable}
}

// TestNamedKeyAuthentication: a named key signs in as itself; an unknown
// one gets the break-glass key's refusal and counts against the address;
// a revoked or expired one is named by its prefix and does not count; a
// store failure is no wrong key.
func TestNamedKeyAuthentication(t *testing.T) {
	e := startKeys(t)
	readerID, reader := e.create(`{"name": "reader", "owner": "ada@example.com", "scopes": ["read"]}`)
	_, expiring := e.create(`{"name": "expiring", "owner": "ada@example.com", "scopes": ["read"], "expires_in": "1h"}`)
	revokedID, revoked := e.create(`{"name": "gone", "owner": "bob@example.com", "scopes": ["read"]}`)
	if a := e.do("DELETE", "/admin/admin-keys/"+revokedID, "", "X-Admin-Key", breakGlassKey); a.status != 200 {
		t.Fatalf("revoke: %d %s", a.status, a.body)
	}
	expiredAt := e.now.Add(time.Hour)
	e.now = expiredAt // expiring expires at this instant

	for _, tc := range []struct {
		name          string
		store         gtmgate.Store
		path          string
		headers       []string
		status        int
		mention, hint string
		counts        bool
	}{
		{"break-glass key", nil, "/admin/tenants", []string{"X-Admin-Key", breakGlassKey}, 200, "", "", false},
		{"named key", nil, "/admin/tenants", []string{"X-Admin-Key", reader}, 200, "", "", false},
		{"named key as a bearer where bearers go", nil, "/admin/feedback", []string{"Authorization", "Bearer " + reader}, 200, "", "", false},
		{"named key as a bearer elsewhere", nil, "/admin/tenants", []string{"Authorization", "Bearer " + reader}, 401, "missing or wrong admin key", "", true},
		{"no key", nil, "/admin/tenants", nil, 401, "missing or wrong admin key", "x-admin-key", true},
		{"unknown named key", nil, "/admin/tenants", []string{"X-Admin-Key", "gtmak_" + strings.Repeat("x", 43)}, 401, "missing or wrong admin key", "", true},
		{"revoked key", nil, "/admin/tenants", []string{"X-Admin-Key", revoked}, 401, "admin key " + revoked[:12] + "… was revoked", "owner (bob@example.com)", false},
		{"expired key", nil, "/admin/tenants", []string{"X-Admin-Key", expiring}, 401,
			"admin key " + expiring[:12] + "… expired at " + expiredAt.Format(time.RFC3339), "owner (ada@example.com) or an operator admin", false},
		{"store failure", failingFind{e.store}, "/admin/tenants", []string{"X-Admin-Key", reader}, 503, "named admin keys cannot be checked", "break-glass", false},
		{"break-glass key through a store failure", failingFind{e.store}, "/admin/tenants", []string{"X-Admin-Key", breakGlassKey}, 200, "", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := tc.store
			if st == nil {
				st = e.store
			}
			e.serve(st)
			a := e.do("GET", tc.path, "", tc.headers...)
			if a.status != tc.status {
				t.Fatalf("%d %s, want %d", a.status, a.body, tc.status)
			}
			if tc.status >= 400 {
				_, message, hint := a.errorOf(t)
				if !strings.Contains(message, tc.mention) || !strings.Contains(hint, tc.hint) {
					t.Errorf("message %q hint %q, want them to mention %q and %q", message, hint, tc.mention, tc.hint)
				}
			}
			if got := e.failed(); got != tc.counts {
				t.Errorf("counted as a failed key: %v, want %v", got, tc.counts)
			}
		})
	}

	// The named key's calls are its own in the audit, and mark it used.
	e.serve(e.store)
	e.do("GET", "/admin/tenants", "", "X-Admin-Key", reader)
	if a := e.audit.Last(); a.Key != "api-key:"+readerID || a.Via != "x-admin-key" || a.Action != "admin.tenants.get" {
		t.Errorf("audit entry of a named key's call: %+v", a)
	}
	k, err := e.store.FindAdminKey(t.Context(), secret.HashToken(reader))
	if err != nil || k.LastUsedAt == nil || !k.LastUsedAt.Equal(expiredAt) {
		t.Errorf("after use the key reads %+v (%v), want last_used_at %s", k, err, expiredAt)
	}
}

func TestAdminKeyCreate(t *testing.T) {
	e := startKeys(t)
	if _, err := e.store.PutTenant(t.Context(), &gtmgate.Tenant{ID: "globex", Name: "Globex", Status: gtmgate.TenantActive}); err != nil {
		t.Fatal(err)
	}
	e.tick = time.Millisecond // the expiry counts from the creation, not from a later reading
	a := e.do("POST", "/admin/admin-keys", `{"name": "ci deploy", "scopes": ["write", "read"], "tenants": ["globex", "acme"], "expires_in": "720h"}`,
		"X-Admin-Key", breakGlassKey)
	e.tick = 0
	var created admin.AdminKeyCreated
	if err := json.Unmarshal([]byte(a.body), &created); err != nil || a.status != 201 {
		t.Fatalf("create: %d %s", a.status, a.body)
	}
	expires := created.CreatedAt.Add(720 * time.Hour)
	if k := created; !strings.HasPrefix(k.Key, admin.AdminKeyPrefix) || len(k.Key) != len(admin.AdminKeyPrefix)+43 || k.Prefix != k.Key[:12] ||
		!strings.HasPrefix(k.ID, "ak_") || k.Owner != "admin key" || k.CreatedBy != "admin-key" || k.Status != "active" ||
		strings.Join(k.Scopes, " ") != "read write" || strings.Join(k.Tenants, " ") != "acme globex" ||
		k.ExpiresAt == nil || !k.ExpiresAt.Equal(expires) || k.CreatedAt.Before(startKeysAt) || !k.CreatedAt.Before(e.now) {
		t.Errorf("created %+v", k)
	}
	stored, err := e.store.FindAdminKey(t.Context(), secret.HashToken(created.Key))
	if err != nil || stored.ID != created.ID {
		t.Fatalf("the store does not hold the key's hash: %+v (%v)", stored, err)
	}
	if d := e.audit.Last().Detail; d != "admin key ci deploy ("+created.Prefix+"…) created: scopes read write, tenants acme globex, expires "+
		expires.Format(time.RFC3339) || strings.Contains(d, created.Key) {
		t.Errorf("audit detail %q", d)
	}
	list := e.do("GET", "/admin/admin-keys", "", "X-Admin-Key", breakGlassKey)
	if list.status != 200 || !strings.Contains(list.body, `"prefix":"`+created.Prefix+`"`) || strings.Contains(list.body, created.Key) ||
		strings.Contains(list.body, stored.Hash) {
		t.Errorf("list: %d %s", list.status, list.body)
	}

	for _, tc := range []struct {
		name, body string
		status     int
		code       string
		mention    string
	}{
		{"no name", `{"scopes": ["read"]}`, 400, "VALIDATION_ERROR", "name is required"},
		{"long name", `{"name": "` + strings.Repeat("n", 65) + `", "scopes": ["read"]}`, 400, "VALIDATION_ERROR", "1 to 64 printable"},
		{"name with a control character", `{"name": "ci\u0007", "scopes": ["read"]}`, 400, "VALIDATION_ERROR", "printable"},
		{"no scopes", `{"name": "x", "scopes": []}`, 400, "VALIDATION_ERROR", "at least one of read, approve and write"},
		{"unknown scope", `{"name": "x", "scopes": ["admin"]}`, 400, "VALIDATION_ERROR", `scopes[0] "admin"`},
		{"scope twice", `{"name": "x", "scopes": ["read", "read"]}`, 400, "VALIDATION_ERROR", "names read twice"},
		{"tenant twice", `{"name": "x", "scopes": ["read"], "tenants": ["acme", "acme"]}`, 400, "VALIDATION_ERROR", "names acme twice"},
		{"not a tenant id", `{"name": "x", "scopes": ["read"], "tenants": ["Acme Inc"]}`, 400, "VALIDATION_ERROR", "not a tenant id"},
		{"unknown tenant", `{"name": "x", "scopes": ["read"], "tenants": ["initech"]}`, 404, "TENANT_NOT_FOUND", "initech"},
		{"both expiries", `{"name": "x", "scopes": ["read"], "expires_in": "1h", "expires_at": "2030-01-01T00:00:00Z"}`, 400, "VALIDATION_ERROR", "not both"},
		{"expiry in the past", `{"name": "x", "scopes": ["read"], "expires_at": "2026-03-01T11:59:59Z"}`, 400, "VALIDATION_ERROR", "not in the future"},
		{"expiry now", `{"name": "x", "scopes": ["read"], "expires_at": "2026-03-01T12:00:00Z"}`, 400, "VALIDATION_ERROR", "not in the future"},
		{"negative duration", `{"name": "x", "scopes": ["read"], "expires_in": "-1h"}`, 400, "VALIDATION_ERROR", "not a positive duration"},
		{"days are no duration", `{"name": "x", "scopes": ["read"], "expires_in": "30d"}`, 400, "VALIDATION_ERROR", `expires_in "30d"`},
		{"unknown member", `{"name": "x", "scopes": ["read"], "key": "gtmak_mine"}`, 400, "VALIDATION_ERROR", "key"},
		{"name of a live key", `{"name": "ci deploy", "scopes": ["read"]}`, 409, "CONFLICT", `"ci deploy" exists`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := e.do("POST", "/admin/admin-keys", tc.body, "X-Admin-Key", breakGlassKey)
			if code, message, _ := a.errorOf(t); a.status != tc.status || code != tc.code || !strings.Contains(message, tc.mention) {
				t.Errorf("%d %s, want %d %s mentioning %q", a.status, a.body, tc.status, tc.code, tc.mention)
			}
		})
	}
	if keys, err := e.store.ListAdminKeys(t.Context()); err != nil || len(keys) != 1 {
		t.Errorf("refused keys were stored: %d (%v)", len(keys), err)
	}
}

func TestAdminKeyRevoke(t *testing.T) {
	e := startKeys(t)
	id, key := e.create(`{"name": "bot", "owner": "ops team", "scopes": ["approve"], "tenants": ["acme"]}`)
	e.now = e.now.Add(time.Hour)
	a := e.do("DELETE", "/admin/admin-keys/"+id, "", "X-Admin-Key", breakGlassKey)
	var view admin.AdminKeyView
	if err := json.Unmarshal([]byte(a.body), &view); err != nil || a.status != 200 || view.Status != "revoked" ||
		view.RevokedAt == nil || !view.RevokedAt.Equal(e.now) || strings.Contains(a.body, key) {
		t.Fatalf("revoke: %d %s", a.status, a.body)
	}
	if d := e.audit.Last().Detail; d != "admin key bot ("+key[:12]+"…) revoked" {
		t.Errorf("audit detail %q", d)
	}
	for _, tc := range []struct {
		name, id, mention string
	}{
		{"again", id, "was already revoked at " + e.now.Format(time.RFC3339)},
		{"unknown", "ak_unknown", `no admin key "ak_unknown"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := e.do("DELETE", "/admin/admin-keys/"+tc.id, "", "X-Admin-Key", breakGlassKey)
			if code, message, _ := a.errorOf(t); a.status != 404 || code != "NOT_FOUND" || !strings.Contains(message, tc.mention) {
				t.Errorf("%d %s, want 404 mentioning %q", a.status, a.body, tc.mention)
			}
		})
	}
	if a := e.do("POST", "/admin/approvals/apr_x/approve", "", "X-Admin-Key", key); a.status != 401 || !strings.Contains(a.body, "was revoked") {
		t.Errorf("a revoked key's call: %d %s", a.status, a.body)
	}
}

// TestKeyCreatesNoWiderKey: only an unlimited write key reaches the
// route, and the keys it creates name it as their creator; a limited key
// is refused by the route's operator access (keyWithin's own table is in
// keyscope_test.go).
func TestKeyCreatesNoWiderKey(t *testing.T) {
	e := startKeys(t)
	fullID, full := e.create(`{"name": "full", "scopes": ["write"]}`)
	_, limited := e.create(`{"name": "acme writer", "scopes": ["read", "write"], "tenants": ["acme"]}`)
	for _, tc := range []struct {
		name, key, body string
		status          int
		mention         string
	}{
		{"unlimited write key creates any key", full, `{"name": "r", "scopes": ["read", "approve"]}`, 201, `"created_by":"api-key:` + fullID + `"`},
		{"limited key is refused the operator's route", limited, `{"name": "r2", "scopes": ["read"], "tenants": ["acme"]}`, 403,
			"admin key acme writer has scopes read, write on tenants acme: operator access"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := e.do("POST", "/admin/admin-keys", tc.body, "X-Admin-Key", tc.key)
			if a.status != tc.status || !strings.Contains(a.body, tc.mention) {
				t.Errorf("%d %s, want %d mentioning %q", a.status, a.body, tc.status, tc.mention)
			}
		})
	}
}
