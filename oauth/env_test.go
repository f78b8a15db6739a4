package oauth

import (
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/gateway"
	"github.com/gtmgate/gtmgate/jsonapi"
	"github.com/gtmgate/gtmgate/oauth/oauthtest"
	"github.com/gtmgate/gtmgate/secret"
	"github.com/gtmgate/gtmgate/store/sqlite"
	"github.com/gtmgate/gtmgate/store/sqlstore"
	"github.com/gtmgate/gtmgate/store/storetest"
)

// clock is the injected clock of the tests: time moves only when told.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// env is a gateway stand-in on httptest: the OAuth routes, the admin
// connect-code route, and a stub /mcp behind gateway.Authenticator with the
// OAuth verifier and the scope gate, as the lead wires them.
type env struct {
	store  *sqlstore.Store
	clock  *clock
	srv    *Server
	ts     *httptest.Server
	base   string
	tokens map[string]string // tenant id → tenant bearer token
}

// redirectURI is a loopback redirect URI nobody listens on: the browser stub
// stops at the 303 and reads the code from Location.
const redirectURI = "http://127.0.0.1:7777/callback"

func newEnv(t *testing.T, configure ...func(*Options)) *env {
	t.Helper()
	st, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "gtmgate.db"), &sqlstore.Options{Sealer: storetest.NewSealer(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e := &env{store: st, clock: &clock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}, tokens: map[string]string{}}
	for _, id := range []string{"acme", "beta"} {
		if _, err := st.PutTenant(t.Context(), &gtmgate.Tenant{ID: id, Name: id, Status: gtmgate.TenantActive}); err != nil {
			t.Fatal(err)
		}
		tok := "tenant-token-of-" + id + "-0123456789"
		if err := st.CreateTenantToken(t.Context(), &gtmgate.TenantToken{ID: "tok_" + id, TenantID: id,
			Hash: secret.HashToken(tok), Prefix: secret.TokenPrefix(tok)}); err != nil {
			t.Fatal(err)
		}
		e.tokens[id] = tok
	}
	e.ts = httptest.NewUnstartedServer(nil)
	e.base = "http://" + e.ts.Listener.Addr().String()
	opts := Options{Store: st, BaseURL: e.base, Now: e.clock.Now, CSRFKey: []byte("test-csrf-key")}
	for _, c := range configure {
		c(&opts)
	}
	if e.srv, err = New(opts); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	e.srv.Mount(mux)
	e.srv.MountAdmin(mux)
	auth := &gateway.Authenticator{Tokens: st, OAuth: e.srv.Verify, Challenge: e.srv.Challenge()}
	mux.Handle("/mcp", auth.Require(e.srv.RequireScope(http.HandlerFunc(stubMCP))))
	mux.Handle("/mcp/tenants/{tenant}", auth.Require(http.HandlerFunc(stubMCP)))
	e.ts.Config.Handler = mux
	e.ts.Start()
	t.Cleanup(e.ts.Close)
	return e
}

// stubMCP answers with the caller; under /mcp/tenants/{tenant} it refuses a
// principal of another tenant, as the REST proxy does (404 TENANT_NOT_FOUND).
func stubMCP(w http.ResponseWriter, r *http.Request) {
	p := gtmgate.PrincipalFromContext(r.Context())
	if t := r.PathValue("tenant"); t != "" {
		if err := p.ActsFor(t); err != nil {
			jsonapi.WriteError(w, r, err)
			return
		}
	}
	json.NewEncoder(w).Encode(p)
}

// register registers a client through POST /oauth/register.
func (e *env) register(t *testing.T, meta *oauthex.ClientRegistrationMetadata) *oauthex.ClientRegistrationResponse {
	t.Helper()
	reg, err := oauthex.RegisterClient(t.Context(), e.base+"/oauth/register", meta, nil)
	if err != nil {
		t.Fatalf("register: %v", err)
	}
	return reg
}

func (e *env) config(reg *oauthex.ClientRegistrationResponse, style oauth2.AuthStyle) *oauth2.Config {
	return &oauth2.Config{
		ClientID: reg.ClientID, ClientSecret: reg.ClientSecret, RedirectURL: reg.RedirectURIs[0],
		Scopes:   []string{ScopeRead, ScopeWrite},
		Endpoint: oauth2.Endpoint{AuthURL: e.base + "/oauth/authorize", TokenURL: e.base + "/oauth/token", AuthStyle: style},
	}
}

func browser(t *testing.T) *http.Client { return oauthtest.Browser(t) }

func consentForm(t *testing.T, b *http.Client, authURL string) (*http.Response, url.Values) {
	t.Helper()
	return oauthtest.ConsentForm(t, b, authURL)
}

// submit POSTs the consent form and returns the response (a redirect on success).
func (e *env) submit(t *testing.T, b *http.Client, form url.Values) *http.Response {
	t.Helper()
	resp, err := b.PostForm(e.base+"/oauth/authorize", form)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

// authorize runs the browser part of the flow and returns the redirect's
// query (code, state, iss or error).
func (e *env) authorize(t *testing.T, authURL, credential string) url.Values {
	t.Helper()
	b := browser(t)
	resp, form := consentForm(t, b, authURL)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("consent page: status %d", resp.StatusCode)
	}
	form.Set("credential", credential)
	form.Set("decision", "approve")
	return redirectQuery(t, e.submit(t, b, form))
}

func redirectQuery(t *testing.T, resp *http.Response) url.Values {
	t.Helper()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("status %d, want a 303 redirect", resp.StatusCode)
	}
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || !strings.HasPrefix(loc.String(), redirectURI) {
		t.Fatalf("redirect to %q, want %s", resp.Header.Get("Location"), redirectURI)
	}
	return loc.Query()
}

// callMCP POSTs a JSON-RPC body to /mcp (or path) with a bearer token.
func (e *env) callMCP(t *testing.T, path, token, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, e.base+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

// publicClient registers a public client with redirectURI.
func (e *env) publicClient(t *testing.T) *oauth2.Config {
	reg := e.register(t, &oauthex.ClientRegistrationMetadata{RedirectURIs: []string{redirectURI}, ClientName: "Test Agent",
		TokenEndpointAuthMethod: "none"})
	return e.config(reg, oauth2.AuthStyleInParams)
}

// tokens runs the whole flow for conf and returns the token.
func (e *env) tokensFor(t *testing.T, conf *oauth2.Config, tenant string) *oauth2.Token {
	t.Helper()
	verifier := oauth2.GenerateVerifier()
	q := e.authorize(t, conf.AuthCodeURL("st", oauth2.S256ChallengeOption(verifier),
		oauth2.SetAuthURLParam("resource", e.srv.Resource())), e.tokens[tenant])
	tok, err := conf.Exchange(t.Context(), q.Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatalf("exchange: %v", err)
	}
	return tok
}

const toolsList = `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`

func newJar() (http.CookieJar, error) { return cookiejar.New(nil) }
