package oauth

import (
	"net/http"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/secret"
	"golang.org/x/oauth2"
)

// TestGrantKeepsTheTokensToolset: an agent whose tenant token is limited to
// a toolset cannot widen itself by consenting to an OAuth client with that
// token: the grant, and every token it is refreshed into, carries the
// toolset. A connect code or an unlimited token may name one of the
// tenant's toolsets on the form; an unknown one is refused on the page.
func TestGrantKeepsTheTokensToolset(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	tenant, err := e.store.GetTenant(ctx, "acme")
	if err != nil {
		t.Fatal(err)
	}
	tenant.Toolsets = map[string]*gtmgate.Toolset{"sdr": {Allow: []string{"crm_*"}}, "ops": {Allow: []string{"*"}}}
	if _, err := e.store.PutTenant(ctx, tenant); err != nil {
		t.Fatal(err)
	}
	narrow := "tenant-token-of-the-sdr-agent-0123456789"
	if err := e.store.CreateTenantToken(ctx, &gtmgate.TenantToken{ID: "tok_sdr", TenantID: "acme", Hash: secret.HashToken(narrow),
		Prefix: secret.TokenPrefix(narrow), Toolset: "sdr"}); err != nil {
		t.Fatal(err)
	}
	conf := e.publicClient(t)
	grant := func(credential, toolset string) (*oauth2.Token, string) {
		t.Helper()
		verifier := oauth2.GenerateVerifier()
		b := browser(t)
		resp, form := consentForm(t, b, conf.AuthCodeURL("st", oauth2.S256ChallengeOption(verifier),
			oauth2.SetAuthURLParam("resource", e.srv.Resource())))
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("consent page: %d", resp.StatusCode)
		}
		form.Set("credential", credential)
		form.Set("toolset", toolset)
		form.Set("decision", "approve")
		answer := e.submit(t, b, form)
		if answer.StatusCode != http.StatusSeeOther {
			return nil, answer.Status
		}
		tok, err := conf.Exchange(ctx, redirectQuery(t, answer).Get("code"), oauth2.VerifierOption(verifier))
		if err != nil {
			t.Fatalf("exchange: %v", err)
		}
		return tok, ""
	}

	// The narrow agent's token binds the grant, whatever the form says.
	tok, _ := grant(narrow, "ops")
	if p := whoami(t, conf.Client(ctx, tok), e.base+"/mcp"); p.Toolset != "sdr" || p.Credential().Toolset != "sdr" {
		t.Fatalf("grant consented with the sdr token: principal toolset %q, want sdr", p.Toolset)
	}
	expired := *tok
	expired.Expiry = time.Now().Add(-time.Minute)
	next, err := conf.TokenSource(ctx, &expired).Token()
	if err != nil {
		t.Fatalf("refresh: %v", err)
	}
	if p := whoami(t, conf.Client(ctx, next), e.base+"/mcp"); p.Toolset != "sdr" {
		t.Fatalf("after refresh: principal toolset %q, want sdr", p.Toolset)
	}

	// An unlimited token may narrow the grant to one of the tenant's toolsets.
	tok, _ = grant(e.tokens["acme"], "ops")
	if p := whoami(t, conf.Client(ctx, tok), e.base+"/mcp"); p.Toolset != "ops" {
		t.Errorf("grant with the form's toolset: principal toolset %q, want ops", p.Toolset)
	}
	tok, _ = grant(e.tokens["acme"], "")
	if p := whoami(t, conf.Client(ctx, tok), e.base+"/mcp"); p.Toolset != "" {
		t.Errorf("grant without a toolset: principal toolset %q", p.Toolset)
	}
	if tok, status := grant(e.tokens["acme"], "nope"); tok != nil || status == "" {
		t.Errorf("an unknown toolset on the form was accepted")
	}
}
