package connectflow_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
)

// browser is one browser on the flow: a cookie jar for the gateway's
// address, and the headers a browser adds to a form it posts.
type browser struct {
	t   *testing.T
	e   *env
	jar *cookiejar.Jar
}

var gateway, _ = url.Parse("https://gw.example/connect/")

func newBrowser(t *testing.T, e *env) *browser {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &browser{t: t, e: e, jar: jar}
}

// send makes a request with the jar's cookies and the headers given, and
// keeps the cookies the answer sets.
func (b *browser) send(method, path string, form url.Values, header map[string]string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, "https://gw.example"+path, strings.NewReader(form.Encode()))
	if method == "POST" {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for k, v := range header {
		r.Header.Set(k, v)
	}
	for _, c := range b.jar.Cookies(r.URL) {
		r.AddCookie(c)
	}
	w := httptest.NewRecorder()
	b.e.handler.ServeHTTP(w, r)
	b.jar.SetCookies(r.URL, w.Result().Cookies())
	return w
}

// sameOrigin is what Chromium sends with a form posted from the gateway's page.
var sameOrigin = map[string]string{"Origin": "https://gw.example", "Sec-Fetch-Site": "same-origin"}

// show opens the link's page and returns its form token.
func (b *browser) show(secret string) string {
	b.t.Helper()
	w := b.send("GET", "/connect/"+secret, nil, map[string]string{"Sec-Fetch-Site": "cross-site"})
	m := formToken.FindStringSubmatch(w.Body.String())
	if w.Code != http.StatusOK || m == nil {
		b.t.Fatalf("link page: %d %s", w.Code, w.Body)
	}
	return m[1]
}

// start presses Continue on the page shown with token and returns the
// state sent to the provider.
func (b *browser) start(secret, token string) string {
	b.t.Helper()
	w := b.send("POST", "/connect/"+secret, url.Values{"csrf": {token}}, sameOrigin)
	loc, err := url.Parse(w.Header().Get("Location"))
	if w.Code != http.StatusSeeOther || err != nil {
		b.t.Fatalf("continue: %d %s", w.Code, w.Body)
	}
	return loc.Query().Get("state")
}

// linkStatus is the status of the link of secret.
func (e *env) linkStatus(t *testing.T, secret string) string {
	t.Helper()
	sum := sha256.Sum256([]byte(secret))
	l, err := e.store.GetConnectLink(context.Background(), hex.EncodeToString(sum[:]))
	if err != nil {
		t.Fatalf("link: %v", err)
	}
	return l.Status
}

// TestStartOnlyFromLinkPage: Continue starts the flow only as a
// same-origin POST carrying the token of the link's page in this browser.
// A GET shows the page; a cross-site POST, a POST without the token, with
// another link's token or from another browser is refused with a 403 page
// that says what to do, and leaves the link usable.
func TestStartOnlyFromLinkPage(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	secret, other := e.link(t), e.link(t)
	b := newBrowser(t, e)
	token := b.show(secret)
	otherToken := newBrowser(t, e).show(other)
	stranger := newBrowser(t, e)
	strangerToken := stranger.show(secret)

	if w := b.send("GET", "/connect/"+secret, nil, nil); w.Code != http.StatusOK || w.Header().Get("Location") != "" {
		t.Errorf("GET: %d %q, want the page", w.Code, w.Header().Get("Location"))
	}
	refusals := []struct {
		name   string
		by     *browser
		form   url.Values
		header map[string]string
	}{
		{"cross-site POST with the page's token", b, url.Values{"csrf": {token}}, map[string]string{"Sec-Fetch-Site": "cross-site"}},
		{"POST from another origin", b, url.Values{"csrf": {token}}, map[string]string{"Origin": "https://evil.example"}},
		{"same-site POST from a sibling host", b, url.Values{"csrf": {token}}, map[string]string{"Sec-Fetch-Site": "same-site", "Origin": "https://x.gw.example"}},
		{"POST without the token", b, url.Values{}, sameOrigin},
		{"POST with a wrong token", b, url.Values{"csrf": {token[1:] + "A"}}, sameOrigin},
		{"POST with another link's token", b, url.Values{"csrf": {otherToken}}, sameOrigin},
		{"POST from a browser that never opened the page", newBrowser(t, e), url.Values{"csrf": {token}}, sameOrigin},
		{"POST with the token of another browser's page", b, url.Values{"csrf": {strangerToken}}, sameOrigin},
	}
	for _, tt := range refusals {
		w := tt.by.send("POST", "/connect/"+secret, tt.form, tt.header)
		body := w.Body.String()
		if w.Code != http.StatusForbidden || w.Header().Get("Location") != "" || !strings.Contains(body, "Press Continue on the link") ||
			!strings.Contains(body, `<a href="">Open the link's page again</a>`) || strings.Contains(body, secret) {
			t.Errorf("%s: %d %s, want 403 and what to do", tt.name, w.Code, body)
		}
		if s := e.linkStatus(t, secret); s != gtmgate.ConnectCreated {
			t.Fatalf("%s: the link is %s", tt.name, s)
		}
	}
	for _, a := range e.audit.Entries() {
		if a.Action == "connect.opened" {
			t.Errorf("a refused start was audited as opened: %+v", a)
		}
	}
	// The page's own POST, after all that: accepted, and the link opened.
	if state := b.start(secret, token); state == "" {
		t.Fatal("no state sent to the provider")
	}
	if s := e.linkStatus(t, secret); s != gtmgate.ConnectOpened {
		t.Errorf("after Continue the link is %s", s)
	}
}

// TestLogsHoldNoLinkSecret: across a whole flow (the page, a refused
// start, Continue, the provider's answer, a replay) neither the flow's
// logs nor the access log hold the link's secret or the state; the access
// log names the path with "{secret}" in its place.
func TestLogsHoldNoLinkSecret(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	secret := e.link(t)
	b := newBrowser(t, e)
	token := b.show(secret)
	b.send("POST", "/connect/"+secret, url.Values{}, map[string]string{"Sec-Fetch-Site": "cross-site"})
	state := b.start(secret, token)
	if w := b.send("GET", "/connect/callback?code=the-code-1234567&state="+url.QueryEscape(state), nil, nil); w.Code != http.StatusOK {
		t.Fatalf("callback: %d %s", w.Code, w.Body)
	}
	b.send("GET", "/connect/callback?code=the-code-1234567&state="+url.QueryEscape(state), nil, nil)
	b.send("GET", "/connect/"+secret, nil, nil) // used: 410
	if w := b.send("PUT", "/connect/"+secret, nil, nil); w.Code != http.StatusMethodNotAllowed {
		t.Errorf("PUT: %d, want 405", w.Code)
	}
	logs := e.logs.String()
	if n := strings.Count(logs, "path=/connect/{secret}"); n != 5 {
		t.Errorf("%d access lines name /connect/{secret}, want 5:\n%s", n, logs)
	}
	if !strings.Contains(logs, "path=/connect/callback") {
		t.Errorf("no access line for the callback:\n%s", logs)
	}
	for _, s := range []string{secret, state, token, "the-code-1234567", accessToken, refreshToken} {
		if strings.Contains(logs, s) {
			t.Errorf("the logs hold a secret (%.6s…):\n%s", s, logs)
		}
	}
}

// TestTwoLinksInOneBrowser: two links opened in one browser (two tabs)
// each complete, whichever the provider answers first: each link has its
// own cookies.
func TestTwoLinksInOneBrowser(t *testing.T) {
	t.Parallel()
	for _, order := range []string{"first link first", "second link first"} {
		t.Run(order, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			b := newBrowser(t, e)
			one, two := e.link(t), e.link(t)
			// Both pages open before either Continue is pressed.
			tokenOne, tokenTwo := b.show(one), b.show(two)
			states := []string{b.start(one, tokenOne), b.start(two, tokenTwo)}
			if order == "second link first" {
				states[0], states[1] = states[1], states[0]
			}
			for i, state := range states {
				w := b.send("GET", "/connect/callback?code=the-code-"+string(rune('a'+i))+"234567&state="+url.QueryEscape(state), nil, nil)
				if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "HubSpot portal 24681357") {
					t.Fatalf("answer %d: %d %s", i+1, w.Code, w.Body)
				}
			}
			links, _ := e.store.ListConnectLinks(context.Background(), "acme", 10)
			for _, l := range links {
				if l.Status != gtmgate.ConnectCompleted {
					t.Errorf("link %s is %s", l.ID, l.Status)
				}
			}
			// Done, the links' state cookies are gone from the browser.
			for _, c := range b.jar.Cookies(gateway) {
				if strings.HasPrefix(c.Name, "gtmgate_connect_cl_") {
					t.Errorf("cookie %s kept after its link completed", c.Name)
				}
			}
		})
	}
}
