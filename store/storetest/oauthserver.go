package storetest

import (
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/secret"
)

// OAuthServerStore is a store that also keeps the gateway's OAuth
// authorization server state.
type OAuthServerStore interface {
	gtmgate.Store
	gtmgate.OAuthStore
}

// ExerciseOAuth runs every behaviour of gtmgate.OAuthStore as subtests. open
// returns a store on a fresh, empty database and arranges for it to be closed.
func ExerciseOAuth(t *testing.T, open func(t *testing.T) OAuthServerStore) {
	t.Helper()
	for _, tc := range []struct {
		name string
		fn   func(t *testing.T, s OAuthServerStore)
	}{
		{"Clients", testOAuthClients},
		{"CodeSingleUse", testOAuthCodeSingleUse},
		{"CodeConcurrent", testOAuthCodeConcurrent},
		{"Tokens", testOAuthTokens},
		{"RefreshRotation", testRefreshRotation},
		{"ConnectCodes", testConnectCodes},
		{"Purge", testOAuthPurge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t)
			putTenant(t, s, "acme")
			tc.fn(t, s)
		})
	}
}

func testOAuthClients(t *testing.T, s OAuthServerStore) {
	ctx := t.Context()
	_, err := s.GetOAuthClient(ctx, "cl_1")
	wantErr(t, err, gtmgate.ErrNotFound)
	c := &gtmgate.OAuthClient{ID: "cl_1", SecretHash: secret.HashToken("s"), Name: "Inspector",
		RedirectURIs: []string{"https://app.example/cb", "http://127.0.0.1:3000/cb"}, AuthMethod: "client_secret_basic",
		Scope: "tools:read", CreatedAt: t0}
	must(t, s.CreateOAuthClient(ctx, c))
	got, err := s.GetOAuthClient(ctx, "cl_1")
	must(t, err)
	if diff := cmp.Diff(c, got); diff != "" {
		t.Errorf("GetOAuthClient (-want +got):\n%s", diff)
	}
	wantErr(t, s.CreateOAuthClient(ctx, c), gtmgate.ErrConflict)
}

func newCode(hash string) *gtmgate.OAuthCode {
	return &gtmgate.OAuthCode{Hash: secret.HashToken(hash), FamilyID: "fam_" + hash, ClientID: "cl_1",
		RedirectURI: "https://app.example/cb", CodeChallenge: "challenge", Scopes: []string{"tools:read", "tools:write"},
		TenantID: "acme", Resource: "https://gw.example/mcp", CreatedAt: t0, ExpiresAt: t0.Add(time.Minute)}
}

func newOAuthToken(id, kind, family string) *gtmgate.OAuthToken {
	return &gtmgate.OAuthToken{ID: id, Hash: secret.HashToken(id), Kind: kind, FamilyID: family, TenantID: "acme",
		ClientID: "cl_1", Scopes: []string{"tools:read"}, Resource: "https://gw.example/mcp", CreatedAt: t0,
		ExpiresAt: t0.Add(time.Hour)}
}

func testOAuthCodeSingleUse(t *testing.T, s OAuthServerStore) {
	ctx := t.Context()
	bad := newCode("nobody")
	bad.TenantID = "nobody"
	wantErr(t, s.CreateOAuthCode(ctx, bad), gtmgate.ErrNotFound)

	c := newCode("c1")
	must(t, s.CreateOAuthCode(ctx, c))
	wantErr(t, s.CreateOAuthCode(ctx, newCode("c1")), gtmgate.ErrConflict)
	_, err := s.ConsumeOAuthCode(ctx, secret.HashToken("unknown"), t0)
	wantErr(t, err, gtmgate.ErrNotFound)

	used := t0.Add(time.Second)
	got, err := s.ConsumeOAuthCode(ctx, c.Hash, used)
	must(t, err)
	c.UsedAt = &used
	if diff := cmp.Diff(c, got); diff != "" {
		t.Errorf("ConsumeOAuthCode (-want +got):\n%s", diff)
	}
	access := newOAuthToken("at_1", gtmgate.OAuthAccessToken, c.FamilyID)
	refresh := newOAuthToken("rt_1", gtmgate.OAuthRefreshToken, c.FamilyID)
	other := newOAuthToken("at_other", gtmgate.OAuthAccessToken, "fam_other")
	must(t, s.CreateOAuthTokens(ctx, access, refresh, other))

	// A replay is refused and revokes the tokens the code issued, only those.
	replay := t0.Add(2 * time.Second)
	_, err = s.ConsumeOAuthCode(ctx, c.Hash, replay)
	wantErr(t, err, gtmgate.ErrConflict)
	for _, tc := range []struct {
		id      string
		revoked bool
	}{{"at_1", true}, {"rt_1", true}, {"at_other", false}} {
		tok, err := s.FindOAuthToken(ctx, secret.HashToken(tc.id))
		must(t, err)
		if (tok.RevokedAt != nil) != tc.revoked || (tc.revoked && !tok.RevokedAt.Equal(replay)) {
			t.Errorf("%s: revoked_at = %v, want revoked %v at %v", tc.id, tok.RevokedAt, tc.revoked, replay)
		}
	}
}

func testOAuthCodeConcurrent(t *testing.T, s OAuthServerStore) {
	ctx := t.Context()
	c := newCode("race")
	must(t, s.CreateOAuthCode(ctx, c))
	const n = 6
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { _, errs[i] = s.ConsumeOAuthCode(ctx, c.Hash, t0) })
	}
	wg.Wait()
	wins := 0
	for _, err := range errs {
		if err == nil {
			wins++
		} else {
			wantErr(t, err, gtmgate.ErrConflict)
		}
	}
	if wins != 1 {
		t.Errorf("%d concurrent exchanges of one code succeeded, want 1", wins)
	}
}

func testOAuthTokens(t *testing.T, s OAuthServerStore) {
	ctx := t.Context()
	_, err := s.FindOAuthToken(ctx, secret.HashToken("nope"))
	wantErr(t, err, gtmgate.ErrNotFound)
	bad := newOAuthToken("at_bad", gtmgate.OAuthAccessToken, "f")
	bad.TenantID = "nobody"
	wantErr(t, s.CreateOAuthTokens(ctx, bad), gtmgate.ErrNotFound)

	a := newOAuthToken("at_1", gtmgate.OAuthAccessToken, "fam")
	must(t, s.CreateOAuthTokens(ctx, a))
	wantErr(t, s.CreateOAuthTokens(ctx, newOAuthToken("at_1", gtmgate.OAuthAccessToken, "fam")), gtmgate.ErrConflict)
	got, err := s.FindOAuthToken(ctx, a.Hash)
	must(t, err)
	if diff := cmp.Diff(a, got); diff != "" {
		t.Errorf("FindOAuthToken (-want +got):\n%s", diff)
	}
	if raw := rawString(t, s, "SELECT hash FROM oauth_tokens WHERE id = ?", "at_1"); raw != secret.HashToken("at_1") {
		t.Errorf("hash at rest = %q, want the SHA-256 hex", raw)
	}

	first, second := t0.Add(time.Minute), t0.Add(2*time.Minute)
	must(t, s.RevokeOAuthToken(ctx, "at_1", first))
	must(t, s.RevokeOAuthToken(ctx, "at_1", second))
	got, err = s.FindOAuthToken(ctx, a.Hash)
	must(t, err)
	if got.RevokedAt == nil || !got.RevokedAt.Equal(first) {
		t.Errorf("revoked_at = %v, want the first revocation %v", got.RevokedAt, first)
	}
	wantErr(t, s.RevokeOAuthToken(ctx, "nope", first), gtmgate.ErrNotFound)

	must(t, s.CreateOAuthTokens(ctx, newOAuthToken("at_2", gtmgate.OAuthAccessToken, "fam2"),
		newOAuthToken("rt_2", gtmgate.OAuthRefreshToken, "fam2")))
	n, err := s.RevokeOAuthFamily(ctx, "fam2", first)
	must(t, err)
	if n != 2 {
		t.Errorf("RevokeOAuthFamily revoked %d, want 2", n)
	}
}

func testRefreshRotation(t *testing.T, s OAuthServerStore) {
	ctx := t.Context()
	r1 := newOAuthToken("rt_1", gtmgate.OAuthRefreshToken, "fam")
	must(t, s.CreateOAuthTokens(ctx, newOAuthToken("at_1", gtmgate.OAuthAccessToken, "fam"), r1))
	wantErr(t, s.RotateRefreshToken(ctx, secret.HashToken("unknown"), t0), gtmgate.ErrNotFound)

	at := t0.Add(time.Minute)
	r2 := newOAuthToken("rt_2", gtmgate.OAuthRefreshToken, "fam")
	must(t, s.RotateRefreshToken(ctx, r1.Hash, at, newOAuthToken("at_2", gtmgate.OAuthAccessToken, "fam"), r2))
	old, err := s.FindOAuthToken(ctx, r1.Hash)
	must(t, err)
	if old.UsedAt == nil || !old.UsedAt.Equal(at) || old.RevokedAt != nil {
		t.Errorf("rotated token: used_at %v revoked_at %v", old.UsedAt, old.RevokedAt)
	}

	// Reusing the rotated token stores nothing and revokes the whole family.
	reuse := t0.Add(2 * time.Minute)
	wantErr(t, s.RotateRefreshToken(ctx, r1.Hash, reuse, newOAuthToken("rt_3", gtmgate.OAuthRefreshToken, "fam")),
		gtmgate.ErrConflict)
	if _, err := s.FindOAuthToken(ctx, secret.HashToken("rt_3")); err == nil {
		t.Error("a reused refresh token issued a new one")
	}
	for _, id := range []string{"at_1", "at_2", "rt_2"} {
		tok, err := s.FindOAuthToken(ctx, secret.HashToken(id))
		must(t, err)
		if tok.RevokedAt == nil {
			t.Errorf("%s not revoked after refresh token reuse", id)
		}
	}
	// A revoked (not rotated) refresh token cannot rotate either.
	wantErr(t, s.RotateRefreshToken(ctx, r2.Hash, reuse), gtmgate.ErrConflict)
	// An access token is not a refresh token.
	must(t, s.CreateOAuthTokens(ctx, newOAuthToken("at_x", gtmgate.OAuthAccessToken, "fx")))
	wantErr(t, s.RotateRefreshToken(ctx, secret.HashToken("at_x"), reuse), gtmgate.ErrNotFound)
}

func testConnectCodes(t *testing.T, s OAuthServerStore) {
	ctx := t.Context()
	wantErr(t, s.CreateConnectCode(ctx, &gtmgate.ConnectCode{Hash: "h0", TenantID: "nobody", ExpiresAt: t0}), gtmgate.ErrNotFound)
	c := &gtmgate.ConnectCode{Hash: secret.HashToken("cc"), TenantID: "acme", CreatedAt: t0, ExpiresAt: t0.Add(15 * time.Minute)}
	must(t, s.CreateConnectCode(ctx, c))
	wantErr(t, s.CreateConnectCode(ctx, c), gtmgate.ErrConflict)
	expiring := &gtmgate.ConnectCode{Hash: secret.HashToken("old"), TenantID: "acme", CreatedAt: t0, ExpiresAt: t0.Add(time.Minute)}
	must(t, s.CreateConnectCode(ctx, expiring))

	for _, step := range []struct {
		name string
		hash string
		at   time.Time
		ok   bool
	}{
		{"unknown", secret.HashToken("x"), t0, false},
		{"expired", expiring.Hash, t0.Add(time.Minute), false},
		{"first use", c.Hash, t0.Add(time.Minute), true},
		{"second use", c.Hash, t0.Add(2 * time.Minute), false},
	} {
		got, err := s.ConsumeConnectCode(ctx, step.hash, step.at)
		if !step.ok {
			if !errors.Is(err, gtmgate.ErrNotFound) {
				t.Errorf("%s: err = %v, want ErrNotFound", step.name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if got.TenantID != "acme" || got.UsedAt == nil || !got.UsedAt.Equal(step.at) {
			t.Errorf("%s: got %+v", step.name, got)
		}
	}
}

func testOAuthPurge(t *testing.T, s OAuthServerStore) {
	ctx := t.Context()
	must(t, s.CreateOAuthCode(ctx, newCode("c")))
	must(t, s.CreateConnectCode(ctx, &gtmgate.ConnectCode{Hash: "cc", TenantID: "acme", CreatedAt: t0, ExpiresAt: t0.Add(time.Minute)}))
	live := newOAuthToken("live", gtmgate.OAuthRefreshToken, "f")
	live.ExpiresAt = t0.Add(48 * time.Hour)
	must(t, s.CreateOAuthTokens(ctx, newOAuthToken("dead", gtmgate.OAuthAccessToken, "f"), live))
	n, err := s.PruneRecords(ctx, gtmgate.RecordOAuth, t0.Add(2*time.Hour), 100)
	must(t, err)
	if n != 3 {
		t.Errorf("purged %d rows, want 3", n)
	}
	if _, err := s.FindOAuthToken(ctx, live.Hash); err != nil {
		t.Errorf("live token purged: %v", err)
	}
	if c, _ := strconv.Atoi(rawString(t, s, "SELECT COUNT(*) FROM oauth_codes")); c != 0 {
		t.Errorf("%d codes left", c)
	}
}
