package people

import (
	"net/url"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/egress"
)

// FuzzValidateIdP: whatever the body, validateIdP never quotes the client
// secret in its message, and what it accepts is an https (or loopback
// http) issuer without query or fragment, and lower-case
// bare domains, each once.
func FuzzValidateIdP(f *testing.F) {
	f.Add("https://login.example.com", "client", "s3cret-value", "Example.com example.org")
	f.Add("http://127.0.0.1:8080/idp", "c", "two words", "")
	f.Add("http://idp.example.com/", "", "s", "@example.com")
	f.Add("https://u:p@x/?q#f", "c", "s", "*.example.com a..b")
	f.Fuzz(func(t *testing.T, issuer, clientID, secret, domains string) {
		b := &IdPBody{Issuer: issuer, ClientID: clientID, ClientSecret: secret, AllowedDomains: strings.Fields(domains)}
		p, err := validateIdP(b)
		if err != nil {
			if len(secret) >= 4 && !strings.Contains(issuer+clientID+domains, secret) && strings.Contains(err.Error(), secret) {
				t.Fatalf("message quotes the secret: %v", err)
			}
			return
		}
		u, perr := url.Parse(p.Issuer)
		if perr != nil || u.Host == "" || strings.ContainsAny(p.Issuer, "?#") ||
			!(u.Scheme == "https" || (u.Scheme == "http" && egress.LoopbackHost(u.Hostname()))) {
			t.Fatalf("accepted issuer %q", p.Issuer)
		}
		seen := map[string]bool{}
		for _, d := range p.AllowedDomains {
			if d != strings.ToLower(d) || strings.ContainsAny(d, "@*/: ") || !strings.Contains(d, ".") || seen[d] {
				t.Fatalf("accepted domain %q of %q", d, p.AllowedDomains)
			}
			seen[d] = true
		}
	})
}

// FuzzValidateGrant: an accepted grant is valid, its limits hold no
// spaces (the store separates them with spaces) and appear once.
func FuzzValidateGrant(f *testing.F) {
	f.Add("corp", "group", "ops", "approver", "acme", "ads_mutate ads_mutate", "crm_contacts")
	f.Add("corp", "email", "Ada@Example.com", "viewer", "", "", "")
	f.Add("corp", "subject", " sub ", "admin", "acme", "", "")
	f.Fuzz(func(t *testing.T, idp, kind, match, role, tenant, cats, tools string) {
		b := &GrantBody{IdP: idp, Kind: kind, Match: match, Role: role, TenantID: tenant,
			Categories: strings.Split(cats, ","), Tools: strings.Split(tools, ",")}
		if cats == "" {
			b.Categories = nil
		}
		if tools == "" {
			b.Tools = nil
		}
		g, err := validateGrant(b)
		if err != nil {
			return
		}
		if err := g.Validate(); err != nil {
			t.Fatalf("accepted an invalid grant %+v: %v", g, err)
		}
		for _, list := range [][]string{g.Categories, g.Tools} {
			seen := map[string]bool{}
			for _, v := range list {
				if v == "" || strings.ContainsAny(v, " \t\n") || seen[v] {
					t.Fatalf("accepted limit %q of %q", v, list)
				}
				seen[v] = true
			}
		}
	})
}
