package refresh

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gtmgate/gtmgate"
)

func TestRefreshOutcomes(t *testing.T) {
	t.Parallel()
	echoSecret := "Token " + testRefresh1 + " for client_secret=" + testClientSecret + " is bad"
	tests := []struct {
		name      string
		replies   []reply
		unreached bool
		// wantCode is the error code ("" for success).
		wantCode    string
		wantReauth  bool
		wantLastErr string
		wantHits    int
		wantBasic   bool
	}{
		{name: "success", replies: []reply{tokenReply("access-new", "", 3600)}, wantHits: 1},
		{name: "invalid_grant", replies: []reply{errorReply(400, "invalid_grant", echoSecret)},
			wantCode: gtmgate.EReauthRequired, wantReauth: true, wantLastErr: "HTTP 400 invalid_grant", wantHits: 1},
		{name: "unauthorized_client", replies: []reply{errorReply(400, "unauthorized_client", "")},
			wantCode: gtmgate.EReauthRequired, wantReauth: true, wantLastErr: "unauthorized_client", wantHits: 1},
		{name: "invalid_client with post and basic", replies: []reply{errorReply(401, "invalid_client", echoSecret)},
			wantCode: gtmgate.EReauthRequired, wantReauth: true, wantLastErr: "HTTP 401 invalid_client", wantHits: 2},
		{name: "invalid_client with post only", replies: []reply{errorReply(401, "invalid_client", ""), tokenReply("access-new", "", 3600)},
			wantHits: 2, wantBasic: true},
		{name: "server error", replies: []reply{{status: 500, body: "<html>" + echoSecret + "</html>"}},
			wantCode: gtmgate.EUpstream, wantLastErr: "HTTP 500", wantHits: 1},
		{name: "other oauth error", replies: []reply{errorReply(400, "invalid_request", "")},
			wantCode: gtmgate.EUpstream, wantLastErr: "invalid_request", wantHits: 1},
		{name: "no access token", replies: []reply{{status: 200, body: `{"refresh_token":"` + testRefresh2 + `"}`}},
			wantCode: gtmgate.EUpstream, wantLastErr: "without an access_token", wantHits: 1},
		{name: "time-out", replies: []reply{{hang: true}},
			wantCode: gtmgate.EUpstreamTimeout, wantLastErr: "did not answer within 10s", wantHits: 1},
		{name: "unreachable", unreached: true,
			wantCode: gtmgate.EUpstream, wantLastErr: "could not be reached"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				f := newFixture(t, script(tt.replies...), func(o *Options) {
					if tt.unreached {
						o.HTTPClient = &http.Client{Transport: memTransport{fail: errors.New("dial tcp: connection refused")}}
					}
				})
				start := time.Now()
				tok, err := f.r.Refresh(t.Context(), tenantID, provider, accountID, "")
				if got := gtmgate.ErrorCode(err); got != tt.wantCode {
					t.Fatalf("code = %q, want %q (%v)", got, tt.wantCode, err)
				}
				if f.ep.hits() != tt.wantHits {
					t.Errorf("endpoint hits = %d, want %d", f.ep.hits(), tt.wantHits)
				}
				o := f.record(t)
				if o.NeedsReauth != tt.wantReauth || !strings.Contains(o.LastError, tt.wantLastErr) {
					t.Errorf("record needs_reauth=%v last_error=%q, want %v and %q", o.NeedsReauth, o.LastError, tt.wantReauth, tt.wantLastErr)
				}
				if f.store.leaseHolder(tenantID, provider, accountID) != "" {
					t.Error("lease not released")
				}
				noSecrets(t, "last_error", o.LastError)
				noSecrets(t, "logs", f.logs.String())
				if err != nil {
					noSecrets(t, "error", err.Error())
					noSecrets(t, "error body", errorJSON(err))
					return
				}
				stored := f.token(t)
				if tok != "access-new" || stored.AccessToken != tok || !stored.ExpiresAt.Equal(start.Add(time.Hour)) {
					t.Errorf("token %q, stored %+v", tok, stored)
				}
				if last := f.ep.request(f.ep.hits() - 1); last.basic != tt.wantBasic {
					t.Errorf("basic auth = %v, want %v", last.basic, tt.wantBasic)
				}
			})
		})
	}
}

func TestRefreshRequest(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, script(errorReply(401, "invalid_client", ""), tokenReply("a1", "", 60), tokenReply("a2", "", 60)), nil)
		if _, err := f.r.Refresh(t.Context(), tenantID, provider, accountID, ""); err != nil {
			t.Fatal(err)
		}
		post := f.ep.request(0)
		want := map[string]string{"grant_type": "refresh_token", "refresh_token": testRefresh1, "client_id": "client-1", "client_secret": testClientSecret}
		for k, v := range want {
			if post.form.Get(k) != v {
				t.Errorf("form %s = %q, want %q", k, post.form.Get(k), v)
			}
		}
		if post.basic || post.accept != "application/json" || post.contentType != "application/x-www-form-urlencoded" {
			t.Errorf("first request: %+v", post)
		}
		basic := f.ep.request(1)
		if !basic.basic || basic.user != "client-1" || basic.pass != testClientSecret || basic.form.Has("client_secret") {
			t.Errorf("basic request: %+v", basic)
		}
		// Basic is remembered: the next refresh starts with it.
		if _, err := f.r.Refresh(t.Context(), tenantID, provider, accountID, "a1"); err != nil {
			t.Fatal(err)
		}
		if f.ep.hits() != 3 || !f.ep.request(2).basic {
			t.Errorf("hits = %d, third request basic = %v", f.ep.hits(), f.ep.request(2).basic)
		}
	})
}

func TestRotatedRefreshTokenIsUsedNext(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, script(tokenReply("a1", testRefresh2, 3600), tokenReply("a2", "", 3600)), nil)
		ctx := t.Context()
		a1, err := f.r.Refresh(ctx, tenantID, provider, accountID, "")
		must(t, err)
		if got := f.record(t).RefreshToken; got != testRefresh2 {
			t.Fatalf("stored refresh token = %q, want the rotated one", got)
		}
		a2, err := f.r.Refresh(ctx, tenantID, provider, accountID, a1)
		must(t, err)
		if a2 != "a2" || f.ep.request(1).form.Get("refresh_token") != testRefresh2 {
			t.Errorf("second refresh: token %q, sent refresh_token %q", a2, f.ep.request(1).form.Get("refresh_token"))
		}
		if got := f.record(t).RefreshToken; got != testRefresh2 {
			t.Errorf("refresh token without rotation = %q, want it kept", got)
		}
	})
}

func TestStoredTokenNewerThanStale(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		stored    string
		expiresIn time.Duration
		stale     string
		want      string
		wantHits  int
	}{
		{"another caller refreshed", "fresh", time.Hour, "old", "fresh", 0},
		{"no expiry known", "fresh", 0, "old", "fresh", 0},
		{"stale is the stored one", "old", time.Hour, "old", "new", 1},
		{"stored one expired", "fresh", -time.Minute, "old", "new", 1},
		{"no token known to caller", "fresh", time.Hour, "", "fresh", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				f := newFixture(t, script(tokenReply("new", "", 3600)), nil)
				var exp time.Time
				if tt.expiresIn != 0 {
					exp = time.Now().Add(tt.expiresIn)
				}
				f.putToken(t, tt.stored, exp)
				got, err := f.r.Refresh(t.Context(), tenantID, provider, accountID, tt.stale)
				must(t, err)
				if got != tt.want || f.ep.hits() != tt.wantHits {
					t.Errorf("got %q with %d hits, want %q with %d", got, f.ep.hits(), tt.want, tt.wantHits)
				}
			})
		})
	}
}

func TestConfigured(t *testing.T) {
	t.Parallel()
	f := newFixture(t, script(errorReply(400, "invalid_grant", "")), nil)
	ctx := t.Context()
	if !f.r.Configured(ctx, tenantID, provider, accountID) {
		t.Error("seeded account not configured")
	}
	if f.r.Configured(ctx, tenantID, provider, "222") {
		t.Error("unseeded account configured")
	}
	_, err := f.r.Refresh(ctx, tenantID, provider, "222", "")
	if gtmgate.ErrorCode(err) != gtmgate.EReauthRequired {
		t.Errorf("refresh of an unseeded account: %v", err)
	}
	// An account needing re-authorisation stays configured so that its
	// refresh explains what is wrong.
	f.r.Refresh(ctx, tenantID, provider, accountID, "")
	if !f.record(t).NeedsReauth || !f.r.Configured(ctx, tenantID, provider, accountID) {
		t.Error("account needing re-authorisation not configured")
	}
}

// TestEndpointReturnsSameToken: a provider that hands back the refused
// token again is not asked a second time.
func TestEndpointReturnsSameToken(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, script(tokenReply("same", "", 3600)), nil)
		f.putToken(t, "same", time.Now().Add(time.Hour))
		got, err := f.r.Refresh(t.Context(), tenantID, provider, accountID, "same")
		if err != nil || got != "same" || f.ep.hits() != 1 {
			t.Errorf("got %q, %v with %d hits", got, err, f.ep.hits())
		}
	})
}
