package connectflow_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/connect"
	"github.com/gtmgate/gtmgate/connectflow"
	"github.com/gtmgate/gtmgate/middleware"
	"github.com/gtmgate/gtmgate/refresh"
	"github.com/gtmgate/gtmgate/registry"
	"github.com/gtmgate/gtmgate/store/sqlite"
	"github.com/gtmgate/gtmgate/store/sqlstore"
	"github.com/gtmgate/gtmgate/store/storetest"
)

// Secrets a HubSpot stand-in issues; none may show anywhere.
const (
	accessToken  = "AT-never-shown-5b7c1d9e"
	refreshToken = "RT-never-shown-8e2a4f6c"
	clientSecret = "CS-never-shown-3d9f1b7a"
)

// seeder keeps the refresh records it is given.
type seeder struct{ recs []refresh.SeedRecord }

func (s *seeder) Seed(_ context.Context, rec refresh.SeedRecord) (*refresh.SeedResult, error) {
	s.recs = append(s.recs, rec)
	return &refresh.SeedResult{}, nil
}

type env struct {
	flow    *connectflow.Flow
	store   *sqlstore.Store
	audit   *storetest.AuditRecorder
	seeder  *seeder
	logs    *bytes.Buffer
	handler http.Handler
	now     time.Time
	reg     *registry.Registry
	hub     string
	// set, when not nil, changes the options of every replica's flow.
	set func(*connectflow.Options)
	// exchanging, when set, receives once the stand-in's token endpoint
	// holds a code exchange, which then waits for release.
	exchanging, release chan struct{}
}

// newEnv is a flow on a SQLite store, with a HubSpot stand-in that issues
// the secrets above for any code and says portal 24681357.
func newEnv(t testing.TB) *env {
	t.Helper()
	return newEnvWith(t, nil)
}

// newEnvWith is newEnv with the flow's options changed by set (nil: none).
func newEnvWith(t testing.TB, set func(*connectflow.Options)) *env {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "gtmgate.db"), &sqlstore.Options{Sealer: storetest.NewSealer(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ctx := context.Background()
	if _, err := st.PutTenant(ctx, &gtmgate.Tenant{ID: "acme", Name: "Acme <Payments>", Status: gtmgate.TenantActive}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.PutOAuthApp(ctx, &gtmgate.OAuthApp{Provider: "hubspot", ClientID: "cid", ClientSecret: clientSecret}); err != nil {
		t.Fatal(err)
	}
	var e *env
	var usedMu sync.Mutex
	used := map[string]bool{}
	hub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/oauth/v1/token":
			// Like HubSpot, a code is exchanged once; the second try is a 400.
			r.ParseForm()
			usedMu.Lock()
			again := used[r.PostForm.Get("code")]
			used[r.PostForm.Get("code")] = true
			usedMu.Unlock()
			if again {
				w.WriteHeader(http.StatusBadRequest)
				fmt.Fprint(w, `{"status":"BAD_AUTH_CODE","message":"missing or unknown auth code"}`)
				return
			}
			if e.exchanging != nil {
				e.exchanging <- struct{}{}
				<-e.release
			}
			fmt.Fprintf(w, `{"access_token":%q,"refresh_token":%q,"expires_in":1800,"token_type":"bearer"}`, accessToken, refreshToken)
		case strings.HasPrefix(r.URL.Path, "/oauth/v1/access-tokens/"):
			fmt.Fprint(w, `{"hub_id":24681357,"hub_domain":"acme.example"}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(hub.Close)
	reg, err := registry.New(gtmgate.Tool{Name: "crm_contacts", Domain: "crm", Provider: "hubspot",
		Actions: []gtmgate.Action{{Name: "list", Category: gtmgate.Categories[0]}},
		Run:     func(context.Context, *gtmgate.Call) (any, error) { return nil, nil }})
	if err != nil {
		t.Fatal(err)
	}
	e = &env{store: st, audit: &storetest.AuditRecorder{}, seeder: &seeder{}, logs: &bytes.Buffer{}, now: time.Now().UTC(), reg: reg, hub: hub.URL,
		set: set}
	e.flow = e.replica()
	mux := http.NewServeMux()
	e.flow.Mount(mux)
	// As the gateway serves the pages: its access log writes to e.logs too.
	e.handler = middleware.Chain(mux, middleware.RequestID(e.logger()), middleware.Observe("gateway", nil))
	return e
}

// logger writes to e.logs, at every level.
func (e *env) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// replica is a flow on the env's store, as another replica would run it.
func (e *env) replica() *connectflow.Flow {
	opts := connectflow.Options{Store: e.store, Registry: e.reg, Seeder: e.seeder, Recorder: e.audit,
		Client:     &connect.Client{Bases: map[string]string{"hubspot": e.hub, "hubspot_app": e.hub}},
		GatewayURL: "https://gw.example", Now: func() time.Time { return e.now },
		Logger: e.logger()}
	if e.set != nil {
		e.set(&opts)
	}
	return connectflow.New(opts)
}

// link stores a link the way the admin route does and returns its secret.
func (e *env) link(t testing.TB) string { return e.linkTo(t, "hubspot") }

// linkTo is link to provider ("mcp:crm" for an MCP server).
func (e *env) linkTo(t testing.TB, provider string) string {
	t.Helper()
	w := e.createLink(`{"provider":"` + provider + `"}`)
	var c connectflow.Created
	if err := json.Unmarshal(w.Body.Bytes(), &c); err != nil || w.Code != 201 || c.Provider != provider {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	return strings.TrimPrefix(c.URL, "https://gw.example/connect/")
}

// pressContinue shows the link's page and submits its form, as a browser
// does, and returns the answer.
func (e *env) pressContinue(t testing.TB, secret string) *httptest.ResponseRecorder {
	t.Helper()
	token, form := e.page(t, secret)
	return e.send("POST", "/connect/"+secret, url.Values{"csrf": {token}}, form)
}

// createLink answers POST /admin/tenants/acme/connect-links with body.
func (e *env) createLink(body string) *httptest.ResponseRecorder {
	mux := http.NewServeMux()
	e.flow.MountAdmin(mux)
	w := httptest.NewRecorder()
	mux.ServeHTTP(w, httptest.NewRequest("POST", "/admin/tenants/acme/connect-links", strings.NewReader(body)))
	return w
}

func (e *env) do(method, target string, cookie *http.Cookie) *httptest.ResponseRecorder {
	return e.send(method, target, nil, cookie)
}

// send is do with a form (nil: none) and any cookies.
func (e *env) send(method, target string, form url.Values, cookies ...*http.Cookie) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, strings.NewReader(form.Encode()))
	if method == "POST" {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for _, c := range cookies {
		if c != nil {
			r.AddCookie(c)
		}
	}
	w := httptest.NewRecorder()
	e.handler.ServeHTTP(w, r)
	return w
}

var formToken = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// page shows a link's page and returns its form token and the cookie
// holding the page's nonce.
func (e *env) page(t testing.TB, secret string) (string, *http.Cookie) {
	t.Helper()
	w := e.do("GET", "/connect/"+secret, nil)
	m := formToken.FindStringSubmatch(w.Body.String())
	cookies := w.Result().Cookies()
	if w.Code != http.StatusOK || m == nil || len(cookies) != 1 {
		t.Fatalf("link page: %d %v %s", w.Code, cookies, w.Body)
	}
	c := cookies[0]
	if !c.Secure || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || !strings.HasPrefix(c.Name, "__Host-gtmgate_connect_form_cl_") || c.MaxAge <= 0 {
		t.Errorf("form cookie: %+v", c)
	}
	return m[1], c
}

// stateCookie is the cookie of the link's state among cookies.
func stateCookie(cookies []*http.Cookie) *http.Cookie {
	for _, c := range cookies {
		if strings.HasPrefix(c.Name, "gtmgate_connect_cl_") && c.MaxAge > 0 {
			return c
		}
	}
	return nil
}

// open shows the link's page, presses Continue and returns the state sent
// to the provider and the cookie.
func (e *env) open(t testing.TB, secret string) (string, *http.Cookie) {
	t.Helper()
	w := e.pressContinue(t, secret)
	loc, err := url.Parse(w.Header().Get("Location"))
	c := stateCookie(w.Result().Cookies())
	if w.Code != http.StatusSeeOther || err != nil || c == nil {
		t.Fatalf("continue: %d %s", w.Code, w.Body)
	}
	if !c.Secure || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Path != "/connect/" || c.MaxAge <= 0 {
		t.Errorf("cookie: %+v", c)
	}
	q := loc.Query()
	if q.Get("redirect_uri") != "https://gw.example/connect/callback" || q.Get("code_challenge_method") != "S256" || q.Get("client_id") != "cid" {
		t.Errorf("authorize URL: %s", loc)
	}
	return q.Get("state"), c
}

// TestFlowKeepsSecrets: a whole HubSpot connection stores the token and
// seeds the refresher, and no secret (the link's, the state, the code, the
// PKCE verifier's challenge, the tokens, the client secret) appears in a
// page, the audit, the logs or the link's record.
func TestFlowKeepsSecrets(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	secret := e.link(t)
	show := e.do("GET", "/connect/"+secret, nil)
	if show.Code != 200 || !strings.Contains(show.Body.String(), "Acme &lt;Payments&gt;") || strings.Contains(show.Body.String(), "<Payments>") {
		t.Errorf("link page: %d %s", show.Code, show.Body)
	}
	state, cookie := e.open(t, secret)
	done := e.do("GET", "/connect/callback?code=the-code-1234567&state="+url.QueryEscape(state), cookie)
	if done.Code != 200 || !strings.Contains(done.Body.String(), "HubSpot portal 24681357") {
		t.Fatalf("callback: %d %s", done.Code, done.Body)
	}
	ctx := context.Background()
	tok, err := e.store.GetProviderToken(ctx, "acme", "hubspot", "24681357")
	if err != nil || tok.AccessToken != accessToken || tok.ExpiresAt.IsZero() {
		t.Fatalf("provider token: %v %+v", err, tok)
	}
	if len(e.seeder.recs) != 1 || e.seeder.recs[0].RefreshToken != refreshToken || e.seeder.recs[0].ClientSecret != clientSecret ||
		!strings.HasSuffix(e.seeder.recs[0].TokenEndpoint, "/oauth/v1/token") {
		t.Errorf("seeded: %+v", e.seeder.recs)
	}
	tenant, _ := e.store.GetTenant(ctx, "acme")
	if pa := tenant.Providers["hubspot"]; pa.Default != "24681357" || len(pa.Accounts) != 1 || pa.Accounts[0].Label != "acme.example" {
		t.Errorf("tenant: %+v", tenant.Providers)
	}
	links, _ := e.store.ListConnectLinks(ctx, "acme", 10)
	if len(links) != 1 || links[0].Status != gtmgate.ConnectCompleted || links[0].Secret != "" {
		t.Fatalf("link: %+v", links)
	}
	record, _ := json.Marshal(links[0])
	audit, _ := json.Marshal(e.audit.Entries())
	for _, s := range []string{secret, state, "the-code-1234567", accessToken, refreshToken, clientSecret} {
		for where, text := range map[string]string{"page": show.Body.String() + done.Body.String(), "audit": string(audit),
			"logs": e.logs.String(), "link": string(record) + links[0].Result} {
			if strings.Contains(text, s) {
				t.Errorf("the %s holds a secret (%.6s…)", where, s)
			}
		}
	}
	for _, want := range []string{"connect.opened", "connect.completed"} {
		if !strings.Contains(string(audit), want) {
			t.Errorf("audit lacks %s: %s", want, audit)
		}
	}
	// Replayed: refused, nothing stored again.
	if again := e.do("GET", "/connect/callback?code=the-code-1234567&state="+url.QueryEscape(state), cookie); again.Code != http.StatusConflict {
		t.Errorf("replay: %d", again.Code)
	}
	if len(e.seeder.recs) != 1 {
		t.Errorf("replay seeded again")
	}
}

// TestLinkForAPerson: a link issued for a person connects their own
// account (only agents acting for them reach it); a person must have
// signed in to be named; and an account that is one person's own is never
// taken over by a link for the tenant's shared accounts.
func TestLinkForAPerson(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	if w := e.createLink(`{"provider":"hubspot","person":"rep@acme.example"}`); w.Code != 400 || !strings.Contains(w.Body.String(), "nobody who has signed in") {
		t.Fatalf("link for someone who never signed in: %d %s", w.Code, w.Body)
	}
	rep, err := e.store.SignedIn(ctx, "corp", gtmgate.Identity{Issuer: "https://idp.example", Subject: "rep-1", Email: "rep@acme.example"}, e.now)
	if err != nil {
		t.Fatal(err)
	}
	w := e.createLink(`{"provider":"hubspot","person":"REP@acme.example"}`)
	var c connectflow.Created
	if err := json.Unmarshal(w.Body.Bytes(), &c); err != nil || w.Code != 201 || c.Person != rep.ID {
		t.Fatalf("link for the rep: %d %s", w.Code, w.Body)
	}
	secret := strings.TrimPrefix(c.URL, "https://gw.example/connect/")
	state, cookie := e.open(t, secret)
	if done := e.do("GET", "/connect/callback?code=the-code-1234567&state="+url.QueryEscape(state), cookie); done.Code != 200 {
		t.Fatalf("callback: %d %s", done.Code, done.Body)
	}
	tenant, _ := e.store.GetTenant(ctx, "acme")
	if pa := tenant.Providers["hubspot"]; len(pa.Accounts) != 1 || pa.Accounts[0].Person != rep.ID {
		t.Fatalf("the portal is not the rep's own: %+v", tenant.Providers)
	}

	// The same portal through a link for the tenant: refused, kept the rep's.
	state, cookie = e.open(t, e.link(t))
	done := e.do("GET", "/connect/callback?code=the-code-7654321&state="+url.QueryEscape(state), cookie)
	if done.Code != http.StatusConflict || !strings.Contains(done.Body.String(), "one person") {
		t.Fatalf("a shared link over the rep's portal: %d %s", done.Code, done.Body)
	}
	tenant, _ = e.store.GetTenant(ctx, "acme")
	if pa := tenant.Providers["hubspot"]; len(pa.Accounts) != 1 || pa.Accounts[0].Person != rep.ID {
		t.Errorf("the portal changed owner: %+v", tenant.Providers)
	}
}

// TestSameAnswerOnTwoReplicas: the provider's answer delivered to two
// replicas at once (a retried request behind a load balancer) is exchanged
// by one of them; the other answers 409 without touching the code, so the
// person never sees "Nothing was connected" for an account that connected.
func TestSameAnswerOnTwoReplicas(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	other := http.NewServeMux()
	e.replica().Mount(other)
	state, cookie := e.open(t, e.link(t))
	e.exchanging, e.release = make(chan struct{}), make(chan struct{})
	target := "/connect/callback?code=the-code-1234567&state=" + url.QueryEscape(state)
	first := make(chan *httptest.ResponseRecorder)
	go func() { first <- e.do("GET", target, cookie) }()
	<-e.exchanging // the first replica is exchanging the code

	r := httptest.NewRequest("GET", target, nil)
	r.AddCookie(cookie)
	second := httptest.NewRecorder()
	other.ServeHTTP(second, r)
	close(e.release)
	done := <-first

	if done.Code != http.StatusOK || !strings.Contains(done.Body.String(), "HubSpot portal 24681357") {
		t.Fatalf("first delivery: %d %s", done.Code, done.Body)
	}
	if second.Code != http.StatusConflict || strings.Contains(second.Body.String(), "Nothing was connected") {
		t.Fatalf("second delivery: %d %s, want 409 Link already used", second.Code, second.Body)
	}
	links, _ := e.store.ListConnectLinks(context.Background(), "acme", 10)
	if links[0].Status != gtmgate.ConnectCompleted {
		t.Errorf("link: %+v, want completed", links[0])
	}
	for _, a := range e.audit.Entries() {
		if a.Action == "connect.failed" {
			t.Errorf("audited %s: %s, although the account connected", a.Action, a.Detail)
		}
	}
}

// TestFlowExpiry: a link past its expiry is refused on its page, on
// Continue, and at the callback, which marks it failed.
func TestFlowExpiry(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	secret := e.link(t)
	state, cookie := e.open(t, secret)
	e.now = e.now.Add(connectflow.DefaultExpiry + time.Second)
	if w := e.do("GET", "/connect/callback?code=c&state="+url.QueryEscape(state), cookie); w.Code != http.StatusGone {
		t.Errorf("callback after expiry: %d", w.Code)
	}
	links, _ := e.store.ListConnectLinks(context.Background(), "acme", 10)
	if links[0].Status != gtmgate.ConnectFailed || !strings.Contains(links[0].Result, "expired") {
		t.Errorf("link: %+v", links[0])
	}
	if _, err := e.store.GetProviderToken(context.Background(), "acme", "hubspot", "24681357"); err == nil {
		t.Error("a token was stored")
	}
	fresh := e.link(t)
	e.now = e.now.Add(connectflow.DefaultExpiry + time.Second)
	for _, m := range []string{"GET", "POST"} {
		if w := e.do(m, "/connect/"+fresh, nil); w.Code != http.StatusGone {
			t.Errorf("%s expired link: %d", m, w.Code)
		}
	}
}

// FuzzCallback sends any query to the callback, with and without the
// cookie of an opened link: never a 5xx, never a secret in the page, and
// nothing stored unless the state is the link's.
func FuzzCallback(f *testing.F) {
	f.Add("code=abc&state=xyz", true)
	f.Add("error=access_denied&error_description=%3Cscript%3E&state=", false)
	f.Add("state=%00%ff&state=a&code=", true)
	e := newEnv(f)
	secret := e.link(f)
	state, cookie := e.open(f, secret)
	f.Fuzz(func(t *testing.T, query string, withCookie bool) {
		q, err := url.ParseQuery(query)
		if err != nil || q.Get("state") == state {
			return
		}
		r := httptest.NewRequest("GET", "/connect/callback", nil)
		r.URL.RawQuery = query
		if withCookie {
			r.AddCookie(cookie)
		}
		w := httptest.NewRecorder()
		e.handler.ServeHTTP(w, r)
		if w.Code >= 500 || w.Code < 400 {
			t.Fatalf("%q: %d", query, w.Code)
		}
		if strings.Contains(w.Body.String(), secret) || strings.Contains(w.Body.String(), "<script>") {
			t.Fatalf("%q: the page holds the link's secret or unescaped input", query)
		}
		if _, err := e.store.GetProviderToken(context.Background(), "acme", "hubspot", "24681357"); err == nil {
			t.Fatalf("%q: a token was stored", query)
		}
	})
}
