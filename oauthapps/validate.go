package oauthapps

import (
	"slices"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// Limits of a body's fields, far above any provider's.
const (
	maxClientID     = 512
	maxClientSecret = 2048
	maxScopes       = 50
	maxScope        = 512
)

func validProvider(p string) error {
	if slices.Contains(Providers, p) {
		return nil
	}
	return gtmgate.Errorf(gtmgate.EValidation, "provider %q has no connect flow; it must be one of %s", p, strings.Join(Providers, ", ")).
		WithHint("one google app serves every Google tool (Ads, GA4, Search Console, Gmail, Calendar, BigQuery, Sheets)")
}

// validate checks a body and returns its extra scopes without duplicates.
// Messages never quote the client secret.
func validate(b *Body) ([]string, error) {
	bad := func(format string, args ...any) error { return gtmgate.Errorf(gtmgate.EValidation, format, args...) }
	switch {
	case b.ClientID == "":
		return nil, bad("client_id is required")
	case len(b.ClientID) > maxClientID || !jsonapi.Printable(b.ClientID):
		return nil, bad("client_id must be at most %d printable characters without spaces", maxClientID)
	case len(b.ClientSecret) > maxClientSecret || !jsonapi.Printable(b.ClientSecret):
		return nil, bad("client_secret must be at most %d printable characters without spaces", maxClientSecret)
	case len(b.ExtraScopes) > maxScopes:
		return nil, bad("extra_scopes holds %d scopes, at most %d are allowed", len(b.ExtraScopes), maxScopes)
	}
	var scopes []string
	for i, s := range b.ExtraScopes {
		if s == "" || len(s) > maxScope || !scopeToken(s) {
			return nil, bad("extra_scopes[%d] %s is not an OAuth scope (RFC 6749 3.3: printable, no spaces, quotes or backslashes)", i, jsonapi.Quote(s))
		}
		if !slices.Contains(scopes, s) {
			scopes = append(scopes, s)
		}
	}
	return scopes, nil
}

// scopeToken reports whether s is an RFC 6749 scope-token.
func scopeToken(s string) bool {
	return jsonapi.Printable(s) && !strings.ContainsAny(s, `"\`)
}
