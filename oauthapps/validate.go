package oauthapps

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gtmgate/gtmgate"
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
	case len(b.ClientID) > maxClientID || !printable(b.ClientID):
		return nil, bad("client_id must be at most %d printable characters without spaces", maxClientID)
	case len(b.ClientSecret) > maxClientSecret || !printable(b.ClientSecret):
		return nil, bad("client_secret must be at most %d printable characters without spaces", maxClientSecret)
	case len(b.ExtraScopes) > maxScopes:
		return nil, bad("extra_scopes holds %d scopes, at most %d are allowed", len(b.ExtraScopes), maxScopes)
	}
	var scopes []string
	for i, s := range b.ExtraScopes {
		if s == "" || len(s) > maxScope || !scopeToken(s) {
			return nil, bad("extra_scopes[%d] %s is not an OAuth scope (RFC 6749 3.3: printable, no spaces, quotes or backslashes)", i, quote(s))
		}
		if !slices.Contains(scopes, s) {
			scopes = append(scopes, s)
		}
	}
	return scopes, nil
}

// printable reports whether s is visible ASCII only.
func printable(s string) bool {
	for _, c := range []byte(s) {
		if c <= ' ' || c > '~' {
			return false
		}
	}
	return true
}

// scopeToken reports whether s is an RFC 6749 scope-token.
func scopeToken(s string) bool {
	return printable(s) && !strings.ContainsAny(s, `"\`)
}

// quote quotes a scope for a message, shortened when long.
func quote(s string) string {
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	return fmt.Sprintf("%q", s)
}
