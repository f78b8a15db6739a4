package refresh

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/upstream"
	"github.com/gtmgate/gtmgate/toolrun"
)

// newNetworkFixture is a fixture whose token endpoint is a real loopback
// HTTP server.
func newNetworkFixture(t *testing.T, answer func(int, seen) reply) *fixture {
	t.Helper()
	ep := &fakeEndpoint{answer: answer}
	srv := httptest.NewServer(ep)
	t.Cleanup(srv.Close)
	f := newFixture(t, nil, func(o *Options) { o.HTTPClient = srv.Client() })
	f.ep = ep
	o := f.record(t)
	o.TokenEndpoint = srv.URL + "/token"
	must(t, f.store.PutProviderOAuth(t.Context(), o))
	return f
}

func TestConcurrentRefreshSharesOneRequest(t *testing.T) {
	t.Parallel()
	f := newNetworkFixture(t, script(tokenReply("fresh", "", 3600)))
	f.putToken(t, "old", time.Now().Add(-time.Minute))
	const callers = 20
	var wg sync.WaitGroup
	got := make([]string, callers)
	errs := make([]error, callers)
	for i := range callers {
		wg.Go(func() {
			got[i], errs[i] = f.r.Refresh(t.Context(), tenantID, provider, accountID, "old")
		})
	}
	wg.Wait()
	for i := range callers {
		if errs[i] != nil || got[i] != "fresh" {
			t.Errorf("caller %d: %q, %v", i, got[i], errs[i])
		}
	}
	if f.ep.hits() != 1 {
		t.Errorf("endpoint hits = %d, want 1", f.ep.hits())
	}
}

// TestToolPath drives the refresher the way a tool call does: the upstream
// client with toolrun.StoredTokens, against a provider that refuses the
// stored token.
func TestToolPath(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		endpoint  []reply
		wantCode  string
		wantHits  int
		wantCalls int
	}{
		{"refresh and retry", []reply{tokenReply("fresh", "", 3600)}, "", 1, 2},
		{"refresh refused", []reply{errorReply(400, "invalid_grant", "Token has been expired or revoked.")}, gtmgate.EReauthRequired, 1, 1},
		{"endpoint down", []reply{{status: 503, body: "unavailable"}}, gtmgate.EUpstream, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newNetworkFixture(t, script(tt.endpoint...))
			f.putToken(t, "old", time.Now().Add(time.Hour))
			var mu sync.Mutex
			calls := 0
			api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				calls++
				mu.Unlock()
				if r.Header.Get("Authorization") != "Bearer fresh" {
					w.WriteHeader(http.StatusUnauthorized)
					w.Write([]byte(`{"error":{"message":"Request had invalid authentication credentials."}}`))
					return
				}
				w.Write([]byte(`{"ok":true}`))
			}))
			t.Cleanup(api.Close)
			client := upstream.MustNew(upstream.Options{Provider: provider, BaseURL: api.URL})
			tokens := &toolrun.StoredTokens{Store: tokenStore{m: f.store}, Refresher: f.r}
			call := func() error {
				ts, err := tokens.TokenSource(t.Context(), tenantID, provider, accountID)
				if err != nil {
					return err
				}
				return client.Do(t.Context(), &upstream.Request{Method: "GET", Path: "/v1/thing", Token: ts}, nil)
			}
			err := call()
			if gtmgate.ErrorCode(err) != tt.wantCode || f.ep.hits() != tt.wantHits || calls != tt.wantCalls {
				t.Fatalf("first call: %v, endpoint hits %d, provider calls %d; want %q, %d, %d",
					err, f.ep.hits(), calls, tt.wantCode, tt.wantHits, tt.wantCalls)
			}
			if tt.wantCode != gtmgate.EReauthRequired {
				return
			}
			// Later calls fail fast with a message naming the account, and
			// never reach the token endpoint again.
			for range 3 {
				err = call()
			}
			e := gtmgate.AsError(err)
			if e.Code != gtmgate.EReauthRequired || f.ep.hits() != 1 {
				t.Fatalf("later call: %v, endpoint hits %d", err, f.ep.hits())
			}
			for _, want := range []string{provider, `"` + accountID + `"`, `"` + tenantID + `"`, "invalid_grant", "re-authorisation"} {
				if !strings.Contains(e.Message, want) {
					t.Errorf("message %q does not name %s", e.Message, want)
				}
			}
			if !strings.Contains(e.Hint, "POST /admin/seed-oauth") {
				t.Errorf("hint %q does not say how to fix it", e.Hint)
			}
			noSecrets(t, "error body", errorJSON(err))
		})
	}
}
