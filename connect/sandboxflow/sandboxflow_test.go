// Package sandboxflow drives connect's client through each provider
// family's sandbox authorization server, as the connect flow will: the
// authorization URL is opened and consented to, the code exchanged, the
// accounts discovered. It holds connect's requests and the sandboxes'
// answers to each other; a package of its own so connect depends on no
// sandbox.
package sandboxflow

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/connect"
	"github.com/gtmgate/gtmgate/provider/gcalendar"
	"github.com/gtmgate/gtmgate/provider/gmail"
	"github.com/gtmgate/gtmgate/provider/googleapi"
	"github.com/gtmgate/gtmgate/provider/hubspot"
	"github.com/gtmgate/gtmgate/provider/linkedinads"
	"github.com/gtmgate/gtmgate/provider/metaads"
	"github.com/gtmgate/gtmgate/provider/oauthsandbox/consenttest"
)

// oauthClient is a sandbox authorization server's client registration.
type oauthClient interface {
	RegisterOAuthClient(redirectURIs ...string) (id, secret string)
}

const redirect = "https://gw.example/connect/callback"

func TestConnectThroughSandboxes(t *testing.T) {
	tests := []struct {
		family  string
		handler http.Handler
		needs   []connect.ToolNeed
		keys    []string
	}{
		{connect.HubSpot, hubspot.NewSandbox().Handler,
			[]connect.ToolNeed{{Provider: "hubspot", Tool: "crm_contacts", Action: "list"}}, nil},
		{connect.Meta, metaads.NewSandbox().Handler,
			[]connect.ToolNeed{{Provider: "meta_ads", Tool: "meta_ads_campaigns", Action: "list"}}, nil},
		{connect.LinkedIn, linkedinads.NewSandbox().Handler,
			[]connect.ToolNeed{{Provider: "linkedin_ads", Tool: "linkedin_ads_campaigns", Action: "list"}}, nil},
		// Google's authorization server with userinfo, knowing the
		// products' scopes; the products' sandboxes are wired by the app.
		{connect.Google, googleapi.NewTokenInfoSandbox(append(gmail.Spec().Scopes(), gcalendar.Spec().Scopes()...)...),
			[]connect.ToolNeed{{Provider: "gmail", Tool: "email_messages", Action: "list"}}, []string{"gmail", "google_calendar"}},
	}
	for _, tt := range tests {
		t.Run(tt.family, func(t *testing.T) {
			p, _ := connect.Lookup(tt.family)
			srv := httptest.NewServer(tt.handler)
			defer srv.Close()
			bases := map[string]string{}
			for _, k := range append([]string{p.Authorize.Key, p.Token.Key, connect.KeyGoogleOpenID}, p.Covers...) {
				bases[k] = srv.URL
			}
			c := &connect.Client{Bases: bases}
			id, secret := tt.handler.(oauthClient).RegisterOAuthClient(redirect)
			app := &gtmgate.OAuthApp{Provider: p.Name, ClientID: id, ClientSecret: secret}

			scopes := connect.Scopes(p, tt.needs, nil)
			raw, err := c.AuthorizeURL(p, app, redirect, "state-42", consenttest.Challenge(consenttest.Verifier), scopes, false)
			if err != nil {
				t.Fatal(err)
			}
			back := consenttest.Decide(t, tt.handler, strings.TrimPrefix(raw, srv.URL), true)
			if back.Query().Get("state") != "state-42" || !strings.HasPrefix(back.String(), redirect) {
				t.Fatalf("redirected to %s", back)
			}
			g, err := c.Exchange(context.Background(), p, app, back.Query().Get("code"), consenttest.Verifier, redirect)
			if err != nil {
				t.Fatalf("exchange: %v", err)
			}
			if g.AccessToken == "" || g.ExpiresAt.IsZero() || (p.RefreshTokens && p.Name != connect.LinkedIn && g.RefreshToken == "") {
				t.Errorf("grant: access %t, refresh %t, expires %v", g.AccessToken != "", g.RefreshToken != "", g.ExpiresAt)
			}
			d, err := c.Discover(context.Background(), p, g, tt.keys)
			if err != nil {
				t.Fatalf("discover: %v", err)
			}
			if len(d.Accounts) == 0 {
				t.Errorf("no accounts: %+v", d.Products)
			}
			for _, a := range d.Accounts {
				t.Logf("%s: %s %q", a.Provider, a.ID, a.Name)
			}

			// The code is single-use: a replay is refused with the provider's code.
			_, err = c.Exchange(context.Background(), p, app, back.Query().Get("code"), consenttest.Verifier, redirect)
			if gtmgate.ErrorCode(err) != gtmgate.EUpstream || strings.Contains(err.Error(), secret) {
				t.Errorf("replayed code: %v", err)
			} else {
				t.Logf("replay: %s", gtmgate.AsError(err).Message)
			}
		})
	}
}
