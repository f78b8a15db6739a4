package refresh

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// Secrets of the tests; none may appear in an error, a log or last_error.
const (
	testClientSecret = "client-secret-SUPER-1234"
	testRefresh1     = "refresh-token-ONE-5678"
	testRefresh2     = "refresh-token-TWO-9012"
)

var testSecrets = []string{testClientSecret, testRefresh1, testRefresh2}

// reply is one answer of the fake token endpoint.
type reply struct {
	status int
	body   string
	// hang answers only when the request is cancelled (a time-out).
	hang bool
}

func tokenReply(access, refresh string, expiresIn int) reply {
	b, _ := json.Marshal(map[string]any{"access_token": access, "token_type": "Bearer", "expires_in": expiresIn, "refresh_token": refresh})
	if refresh == "" {
		b, _ = json.Marshal(map[string]any{"access_token": access, "token_type": "Bearer", "expires_in": expiresIn})
	}
	return reply{status: 200, body: string(b)}
}

func errorReply(status int, code, desc string) reply {
	b, _ := json.Marshal(map[string]string{"error": code, "error_description": desc})
	return reply{status: status, body: string(b)}
}

// seen is one request the fake endpoint received.
type seen struct {
	form        url.Values
	basic       bool
	user, pass  string
	contentType string
	accept      string
}

// fakeEndpoint is an OAuth token endpoint answering from a script.
type fakeEndpoint struct {
	mu       sync.Mutex
	requests []seen
	// answer returns the reply to the n-th request (0-based).
	answer func(n int, s seen) reply
}

func (f *fakeEndpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	r.ParseForm()
	s := seen{form: r.PostForm, contentType: r.Header.Get("Content-Type"), accept: r.Header.Get("Accept")}
	s.user, s.pass, s.basic = r.BasicAuth()
	f.mu.Lock()
	n := len(f.requests)
	f.requests = append(f.requests, s)
	f.mu.Unlock()
	rep := f.answer(n, s)
	if rep.hang {
		<-r.Context().Done()
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(rep.status)
	io.WriteString(w, rep.body)
}

func (f *fakeEndpoint) hits() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.requests)
}

func (f *fakeEndpoint) request(n int) seen {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests[n]
}

// script answers the n-th request with replies[n], repeating the last.
func script(replies ...reply) func(int, seen) reply {
	return func(n int, _ seen) reply { return replies[min(n, len(replies)-1)] }
}

// memTransport serves requests in process, so tests can run in a synctest
// bubble; fail, when set, is returned instead (an unreachable endpoint).
type memTransport struct {
	h    http.Handler
	fail error
}

func (t memTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if t.fail != nil {
		return nil, t.fail
	}
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, r)
	if err := r.Context().Err(); err != nil {
		return nil, err
	}
	return rec.Result(), nil
}

const (
	tenantID  = "acme"
	provider  = "google"
	accountID = "111"
)

// fixture is a Refresher on a memStore with one tenant whose google account
// 111 is seeded, talking to a fake endpoint at https://oauth.example/token.
type fixture struct {
	store *memStore
	ep    *fakeEndpoint
	r     *Refresher
	logs  *lockedBuffer
}

// lockedBuffer collects log output from several goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func newFixture(t *testing.T, answer func(int, seen) reply, modify func(*Options)) *fixture {
	t.Helper()
	f := &fixture{store: newMemStore(), ep: &fakeEndpoint{answer: answer}, logs: &lockedBuffer{}}
	ctx := context.Background()
	f.store.PutTenant(ctx, testTenant())
	must(t, f.store.PutProviderOAuth(ctx, &gtmgate.ProviderOAuth{TenantID: tenantID, Provider: provider, AccountID: accountID,
		ClientID: "client-1", ClientSecret: testClientSecret, TokenEndpoint: "https://oauth.example/token",
		RefreshToken: testRefresh1, UpdatedAt: time.Now()}))
	opts := Options{Store: f.store, HTTPClient: &http.Client{Transport: memTransport{h: f.ep}}, Holder: "A",
		Logger: slog.New(slog.NewTextHandler(f.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	if modify != nil {
		modify(&opts)
	}
	r, err := New(opts)
	must(t, err)
	f.r = r
	return f
}

func testTenant() *gtmgate.Tenant {
	return &gtmgate.Tenant{ID: tenantID, Name: "Acme", Status: gtmgate.TenantActive, Providers: map[string]gtmgate.ProviderAccounts{
		provider: {Accounts: []gtmgate.Account{{ID: accountID, Label: "Acme Google"}}, Default: accountID}}}
}

// putToken stores an access token for the fixture's account.
func (f *fixture) putToken(t *testing.T, access string, expiresAt time.Time) {
	t.Helper()
	must(t, f.store.PutProviderToken(context.Background(), &gtmgate.ProviderToken{TenantID: tenantID, Provider: provider,
		AccountID: accountID, AccessToken: access, TokenType: "Bearer", ExpiresAt: expiresAt, UpdatedAt: time.Now()}))
}

func (f *fixture) record(t *testing.T) *gtmgate.ProviderOAuth {
	t.Helper()
	o, err := f.store.GetProviderOAuth(context.Background(), tenantID, provider, accountID)
	must(t, err)
	return o
}

func (f *fixture) token(t *testing.T) *gtmgate.ProviderToken {
	t.Helper()
	tok, err := f.store.GetProviderToken(context.Background(), tenantID, provider, accountID)
	must(t, err)
	return tok
}

// noSecrets fails when any test secret appears in what.
func noSecrets(t *testing.T, label, what string) {
	t.Helper()
	for _, s := range testSecrets {
		if strings.Contains(what, s) {
			t.Errorf("%s reveals a secret: %s", label, what)
		}
	}
}

// errorJSON is err as the gateway would send it.
func errorJSON(err error) string {
	b, _ := json.Marshal(jsonapi.NewErrorBody(err, "req-1"))
	return string(b)
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
