package connectflow_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/connectflow"
)

// TestLinkPageNamesProviderAndOperator: the page a link opens says who
// asks (the configured operator, gtmgate by default) to connect which
// provider, shows the operator's logo only when one is configured (and
// lets the page load it), and says each scope in words with the raw scope
// beside it, an unknown one as itself, all escaped.
func TestLinkPageNamesProviderAndOperator(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, operator, logo string
		wantOperator         string
		wantImg, wantCSP     string
	}{
		{name: "default operator, no logo", wantOperator: "gtmgate"},
		{name: "configured operator, escaped", operator: "Northwind & <Co>", wantOperator: "Northwind &amp; &lt;Co&gt;"},
		{name: "https logo", operator: "Northwind", logo: "https://cdn.northwind.example/logo.svg?v=1&x=<y>",
			wantOperator: "Northwind", wantImg: `<img src="https://cdn.northwind.example/logo.svg?v=1&amp;x=%3cy%3e" alt="Northwind logo">`,
			wantCSP: "img-src https://cdn.northwind.example;"},
		{name: "logo the gateway serves", operator: "Northwind", logo: "/favicon.ico", wantOperator: "Northwind",
			wantImg: `<img src="/favicon.ico" alt="Northwind logo">`, wantCSP: "img-src 'self';"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnvWith(t, func(o *connectflow.Options) { o.OperatorName, o.OperatorLogoURL = tt.operator, tt.logo })
			// An app's extra scope gtmgate does not know is shown as itself.
			if _, err := e.store.PutOAuthApp(context.Background(), &gtmgate.OAuthApp{Provider: "hubspot", ClientID: "cid",
				ClientSecret: clientSecret, ExtraScopes: []string{"<b>odd.scope</b>"}}); err != nil {
				t.Fatal(err)
			}
			w := e.do("GET", "/connect/"+e.link(t), nil)
			body := w.Body.String()
			if w.Code != http.StatusOK {
				t.Fatalf("link page: %d %s", w.Code, body)
			}
			for _, want := range []string{
				"<h1>" + tt.wantOperator + " asks to connect your HubSpot account</h1>",
				"<title>Connect HubSpot · " + tt.wantOperator + "</title>",
				"HubSpot will ask you to let " + tt.wantOperator + ":",
				`<li>Read your HubSpot deals<small class="scope" title="OAuth scope"><code>crm.objects.deals.read</code></small></li>`,
				"<li>See which properties your HubSpot contacts have<small",
				"<li><code>&lt;b&gt;odd.scope&lt;/b&gt;</code></li>",
			} {
				if !strings.Contains(body, want) {
					t.Errorf("page lacks %q:\n%s", want, body)
				}
			}
			if strings.Contains(body, "<Co>") || strings.Contains(body, "<b>odd") {
				t.Errorf("page holds unescaped text:\n%s", body)
			}
			csp := w.Header().Get("Content-Security-Policy")
			if tt.logo == "" {
				if strings.Contains(body, "<img") || strings.Contains(csp, "img-src") {
					t.Errorf("logo shown without one configured: %s\n%s", csp, body)
				}
				return
			}
			if !strings.Contains(body, tt.wantImg) {
				t.Errorf("page lacks %s:\n%s", tt.wantImg, body)
			}
			if !strings.Contains(csp, tt.wantCSP) {
				t.Errorf("CSP %q lacks %q", csp, tt.wantCSP)
			}
		})
	}
}

// TestDonePageNamesOperator: the picker's and the completion's pages name
// the operator and the provider too.
func TestDonePageNamesOperator(t *testing.T) {
	t.Parallel()
	e := newEnvWith(t, func(o *connectflow.Options) { o.OperatorName = "Northwind Agency" })
	state, cookie := e.open(t, e.link(t))
	done := e.do("GET", "/connect/callback?code=the-code-1234567&state="+state, cookie)
	body := done.Body.String()
	for _, want := range []string{"<h1>Your HubSpot account is connected</h1>", "Northwind Agency can now use", "HubSpot portal 24681357"} {
		if !strings.Contains(body, want) {
			t.Errorf("done page lacks %q:\n%s", want, body)
		}
	}
	if refused := e.do("GET", "/connect/"+strings.Repeat("x", 30), nil); !strings.Contains(refused.Body.String(), "Ask Northwind Agency for a new connect link") {
		t.Errorf("refusal: %s", refused.Body)
	}
}
