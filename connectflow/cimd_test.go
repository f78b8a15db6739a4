package connectflow_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/connectflow"
	"github.com/gtmgate/gtmgate/mcpoauth"
	"github.com/gtmgate/gtmgate/mcpsandbox/oauthsandbox"
	"github.com/gtmgate/gtmgate/refresh"
)

// handlerTransport answers requests with a handler: the sandbox fetches
// the gateway's client ID metadata document from https://gw.example so.
type handlerTransport struct{ h http.Handler }

func (t handlerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	w := httptest.NewRecorder()
	r.RemoteAddr = "192.0.2.1:1234"
	t.h.ServeHTTP(w, r)
	return w.Result(), nil
}

var hiddenInput = regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)">`)

// TestMCPServerLinkSandbox connects the sandbox OAuth MCP server through a
// link: with a client ID metadata document when the sandbox accepts one
// (the MCP specification's preference over registration; the sandbox
// fetches https://gw.example/connect/mcp-client.json and checks the
// redirect URI against it), and by dynamic registration when it does not.
// The grant's refresh then names the resource, which the sandbox requires.
func TestMCPServerLinkSandbox(t *testing.T) {
	for _, tc := range []struct {
		name             string
		cimd             bool
		registrations    int
		fetches          int
		clientIDIsDocURL bool
	}{
		{"client ID metadata document", true, 0, 2, true},
		{"dynamic registration", false, 1, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var e *env
			sb := oauthsandbox.New(oauthsandbox.Options{MCP: http.NotFoundHandler(), ClientMetadataDocuments: tc.cimd,
				MetadataClient: &http.Client{Transport: handlerTransport{http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { e.handler.ServeHTTP(w, r) })}}})
			ts := httptest.NewServer(sb.Handler())
			t.Cleanup(ts.Close)
			sb.SetBase(ts.URL)
			client := ts.Client()
			client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
			e = newEnvWith(t, func(o *connectflow.Options) { o.MCPClient = client })
			ctx := context.Background()
			if _, err := e.store.PutMCPServer(ctx, &gtmgate.MCPServer{TenantID: "acme", Name: "crm", URL: ts.URL + "/mcp",
				Auth: gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthOAuth}}); err != nil {
				t.Fatal(err)
			}

			secret := e.linkTo(t, "mcp:crm")
			w := e.pressContinue(t, secret)
			authorize := w.Header().Get("Location")
			if w.Code != http.StatusSeeOther || !strings.HasPrefix(authorize, ts.URL+"/as/authorize?") {
				t.Fatalf("continue: %d %s %s", w.Code, authorize, w.Body)
			}
			loc, _ := url.Parse(authorize)
			if got := loc.Query().Get("client_id") == "https://gw.example"+mcpoauth.ClientMetadataPath; got != tc.clientIDIsDocURL {
				t.Fatalf("client_id %q: the document's URL is %v, want %v", loc.Query().Get("client_id"), got, tc.clientIDIsDocURL)
			}

			// The consent page, then Allow: back to the callback with a code.
			resp, err := client.Get(authorize)
			if err != nil {
				t.Fatal(err)
			}
			page, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("the sandbox's consent page: %d %s", resp.StatusCode, page)
			}
			consent := url.Values{"decision": {"allow"}}
			for _, m := range hiddenInput.FindAllStringSubmatch(string(page), -1) {
				consent.Set(m[1], htmlUnescape(m[2]))
			}
			resp, err = client.PostForm(ts.URL+"/as/authorize", consent)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			back, _ := url.Parse(resp.Header.Get("Location"))
			if resp.StatusCode != http.StatusSeeOther || back == nil || back.Query().Get("code") == "" {
				t.Fatalf("consent: %d %s", resp.StatusCode, resp.Header.Get("Location"))
			}
			if w = e.do("GET", "/connect/callback?"+back.RawQuery, stateCookie(w.Result().Cookies())); w.Code != http.StatusOK {
				t.Fatalf("callback: %d %s", w.Code, w.Body)
			}
			st := sb.Stats()
			if st.Grants != 1 || st.Registrations != tc.registrations || st.MetadataFetches != tc.fetches {
				t.Errorf("sandbox stats %+v, want %d registrations and %d document fetches", st, tc.registrations, tc.fetches)
			}
			if len(e.seeder.recs) != 1 || e.seeder.recs[0].Resource != ts.URL+"/mcp" {
				t.Fatalf("refresher seeded with %+v, want resource %s/mcp", e.seeder.recs, ts.URL)
			}
			rec := e.seeder.recs[0]

			// A refresh without the resource is refused by the sandbox ...
			resp, err = client.PostForm(rec.TokenEndpoint, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {rec.RefreshToken},
				"client_id": {rec.ClientID}})
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusBadRequest {
				t.Fatalf("a refresh without resource: HTTP %d, want 400", resp.StatusCode)
			}
			// ... and the durable refresher's names it.
			r, err := refresh.New(refresh.Options{Store: e.store, HTTPClient: client, AllowInsecureTokenEndpoint: true, Logger: e.logger()})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := r.Seed(ctx, rec); err != nil {
				t.Fatal(err)
			}
			before, err := e.store.GetProviderToken(ctx, "acme", "mcp:crm", gtmgate.MCPGrantTenant)
			if err != nil {
				t.Fatal(err)
			}
			fresh, err := r.Refresh(ctx, "acme", "mcp:crm", gtmgate.MCPGrantTenant, before.AccessToken)
			if err != nil || fresh == before.AccessToken || sb.Stats().Refreshes != 1 {
				t.Fatalf("refresh: %v (stats %+v)", err, sb.Stats())
			}
		})
	}
}

func htmlUnescape(s string) string {
	return strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&#34;", `"`, "&#39;", "'", "&#43;", "+").Replace(s)
}

// TestMCPClientRegistration: auth.client_registration picks how Continue
// gets a client from an authorization server without a static one. auto
// prefers gtmgate's metadata document where the server takes it; dynamic
// registers even then (a server that advertises documents may not reach
// gtmgate's public URL); metadata_document refuses, saying why, a server
// that takes none, and never registers.
func TestMCPClientRegistration(t *testing.T) {
	for _, tc := range []struct {
		name, setting string
		cimd          bool
		want          string // "document", "registered", or a refusal's words
	}{
		{"auto, the server takes documents", "", true, "document"},
		{"auto, the server takes none", gtmgate.MCPClientRegistrationAuto, false, "registered"},
		{"dynamic, the server takes documents", gtmgate.MCPClientRegistrationDynamic, true, "registered"},
		{"metadata_document, the server takes documents", gtmgate.MCPClientRegistrationMetadataDocument, true, "document"},
		{"metadata_document, the server takes none", gtmgate.MCPClientRegistrationMetadataDocument, false,
			"it accepts no client ID metadata document"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sb := oauthsandbox.New(oauthsandbox.Options{MCP: http.NotFoundHandler(), ClientMetadataDocuments: tc.cimd})
			ts := httptest.NewServer(sb.Handler())
			t.Cleanup(ts.Close)
			sb.SetBase(ts.URL)
			client := ts.Client()
			client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
			e := newEnvWith(t, func(o *connectflow.Options) { o.MCPClient = client })
			if _, err := e.store.PutMCPServer(context.Background(), &gtmgate.MCPServer{TenantID: "acme", Name: "crm", URL: ts.URL + "/mcp",
				Auth: gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthOAuth, ClientRegistration: tc.setting}}); err != nil {
				t.Fatal(err)
			}
			secret := e.linkTo(t, "mcp:crm")
			w := e.pressContinue(t, secret)
			loc, _ := url.Parse(w.Header().Get("Location"))
			clientID := ""
			if w.Code == http.StatusSeeOther && loc != nil {
				clientID = loc.Query().Get("client_id")
			}
			got := ""
			switch {
			case clientID == "https://gw.example"+mcpoauth.ClientMetadataPath:
				got = "document"
			case clientID != "":
				got = "registered"
			}
			if regs := sb.Stats().Registrations; got != "registered" && regs != 0 || got == "registered" && regs != 1 {
				t.Errorf("%d registrations for a %q client", regs, got)
			}
			if tc.want == "document" || tc.want == "registered" {
				if got != tc.want {
					t.Fatalf("continue: %d, client_id %q, want a %s client: %s", w.Code, clientID, tc.want, w.Body)
				}
				return
			}
			if body := htmlUnescape(w.Body.String()); w.Code != http.StatusBadGateway || !strings.Contains(body, tc.want) ||
				!strings.Contains(body, "client_registration") {
				t.Fatalf("continue: %d, want 502 saying %q and naming client_registration: %s", w.Code, tc.want, body)
			}
		})
	}
}
