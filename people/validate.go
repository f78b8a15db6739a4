package people

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/egress"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// Limits of a body's fields, far above any IdP's.
const (
	maxDisplayName  = 100
	maxIssuer       = 512
	maxClientID     = 512
	maxClientSecret = 2048
	maxDomains      = 50
	maxDomain       = 253
	maxClaim        = 256
	maxMatch        = 512
	maxToolName     = 128
	maxLimits       = 100
)

// namePattern is an IdP name: it names the IdP in routes, in sign-in
// links and in "sso:<name>" wherever an actor is shown.
var namePattern = regexp.MustCompile(`^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$`)

// domainLabel is one label of a domain name (internationalized names in
// their xn-- form).
var domainLabel = regexp.MustCompile(`^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$`)

// bad is a VALIDATION_ERROR.
func bad(format string, args ...any) *gtmgate.Error {
	return gtmgate.Errorf(gtmgate.EValidation, format, args...)
}

// validName checks an IdP name.
func validName(name string) error {
	if namePattern.MatchString(name) {
		return nil
	}
	return bad("identity provider name %s must be 1 to 40 lowercase letters, digits or '-', starting and ending with a letter or digit",
		jsonapi.Quote(name))
}

// validateIdP checks a body and returns the IdP it configures (without its
// name or times; the secret empty when the body leaves it out). Messages
// never quote the client secret.
func validateIdP(b *IdPBody) (*gtmgate.IdP, error) {
	switch {
	case utf8.RuneCountInString(b.DisplayName) > maxDisplayName || !utf8.ValidString(b.DisplayName) || strings.ContainsFunc(b.DisplayName, unicode.IsControl):
		return nil, bad("display_name must be at most %d characters without control characters", maxDisplayName)
	case b.ClientID == "":
		return nil, bad("client_id is required").WithHint("the client id of the app registered for the gateway at the IdP")
	case len(b.ClientID) > maxClientID || !jsonapi.Printable(b.ClientID):
		return nil, bad("client_id must be at most %d printable characters without spaces", maxClientID)
	case len(b.ClientSecret) > maxClientSecret || !jsonapi.Printable(b.ClientSecret):
		return nil, bad("client_secret must be at most %d printable characters without spaces", maxClientSecret)
	case len(b.GroupsClaim) > maxClaim || !jsonapi.Printable(b.GroupsClaim):
		return nil, bad("groups_claim must be a claim name of at most %d printable characters without spaces", maxClaim)
	}
	if err := validIssuer(b.Issuer); err != nil {
		return nil, err
	}
	domains, err := allowedDomains(b.AllowedDomains)
	if err != nil {
		return nil, err
	}
	claim := b.GroupsClaim
	if claim == "" {
		claim = DefaultGroupsClaim
	}
	return &gtmgate.IdP{DisplayName: b.DisplayName, Issuer: b.Issuer, ClientID: b.ClientID, ClientSecret: b.ClientSecret,
		TenantID: b.TenantID, AllowedDomains: domains, GroupsClaim: claim}, nil
}

// validIssuer accepts an absolute https URL, or http to a loopback host,
// without credentials, query or fragment. A trailing slash is kept as
// given (Auth0's issuers end with one): the ID tokens' "iss" and the
// discovery document's issuer are compared with it byte for byte, so a
// wrong one is refused by discovery.
func validIssuer(issuer string) error {
	if issuer == "" {
		return bad("issuer is required").WithHint("the IdP's issuer URL, as the \"issuer\" of its " + discoveryPath)
	}
	if len(issuer) > maxIssuer {
		return bad("issuer must be at most %d characters", maxIssuer)
	}
	u, err := url.Parse(issuer)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") || !jsonapi.Printable(issuer) {
		return bad("issuer %s is not an absolute https URL", jsonapi.Quote(issuer)).
			WithHint("the IdP's issuer URL, as the \"issuer\" of its " + discoveryPath + ", e.g. https://login.example.com")
	}
	switch {
	case u.Scheme == "http" && !egress.LoopbackHost(u.Hostname()):
		return bad("issuer %s must use https", jsonapi.Quote(issuer)).
			WithHint("plain http is accepted only for a loopback host (127.0.0.1, ::1, localhost), such as a sandbox IdP on this machine")
	case u.User != nil:
		return bad("issuer %s must not hold a user name or password", jsonapi.Quote(issuer))
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(issuer, "#"):
		return bad("issuer %s must not have a query or fragment", jsonapi.Quote(issuer)).
			WithHint("the issuer is the URL its " + discoveryPath + " is served under")
	}
	return nil
}

// allowedDomains checks and lower-cases email domains, each once.
func allowedDomains(in []string) ([]string, error) {
	if len(in) > maxDomains {
		return nil, bad("allowed_domains holds %d domains, at most %d are allowed", len(in), maxDomains)
	}
	out := []string{}
	for i, d := range in {
		d = strings.ToLower(d)
		if !bareDomain(d) {
			return nil, bad("allowed_domains[%d] %s is not a bare domain name", i, jsonapi.Quote(d)).
				WithHint("write the part of the email address after the @, e.g. example.com: no @, scheme, wildcard, port or path")
		}
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out, nil
}

// bareDomain reports whether d is a lower-case domain name of two labels or more.
func bareDomain(d string) bool {
	if len(d) > maxDomain {
		return false
	}
	labels := strings.Split(d, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if !domainLabel.MatchString(l) {
			return false
		}
	}
	return true
}

// validateGrant checks a body and returns the grant it asks for (without
// its id, author or time), an email lower-cased and limits each once.
func validateGrant(b *GrantBody) (*gtmgate.RoleGrant, error) {
	g := &gtmgate.RoleGrant{IdP: b.IdP, Kind: b.Kind, Match: b.Match, Role: b.Role, TenantID: b.TenantID,
		Categories: b.Categories, Tools: b.Tools}
	if err := g.Validate(); err != nil {
		return nil, err
	}
	switch {
	case len(g.Match) > maxMatch || !utf8.ValidString(g.Match) || strings.ContainsFunc(g.Match, unicode.IsControl):
		return nil, bad("match must be at most %d characters without control characters", maxMatch)
	case strings.TrimSpace(g.Match) != g.Match:
		return nil, bad("match %s starts or ends with a space", jsonapi.Quote(g.Match)).
			WithHint("the IdP's value is matched exactly: send it without surrounding spaces")
	case g.Kind == gtmgate.GrantEmail && (strings.Count(g.Match, "@") != 1 || strings.HasPrefix(g.Match, "@") || strings.HasSuffix(g.Match, "@")):
		return nil, bad("match %s is not an email address", jsonapi.Quote(g.Match)).
			WithHint("an email grant matches one verified address; to admit a whole domain, set the IdP's allowed_domains and grant a group")
	case g.Kind == gtmgate.GrantEmail:
		g.Match = strings.ToLower(g.Match)
	}
	var err error
	if g.Categories, err = categories(b.Categories); err != nil {
		return nil, err
	}
	if g.Tools, err = toolNames(b.Tools); err != nil {
		return nil, err
	}
	return g, nil
}

// categories checks approval categories, each once.
func categories(in []string) ([]string, error) {
	if len(in) > maxLimits {
		return nil, bad("categories holds %d entries, at most %d are allowed", len(in), maxLimits)
	}
	var out []string
	for i, c := range in {
		if !slices.Contains(gtmgate.Categories, gtmgate.Category(c)) {
			names := make([]string, len(gtmgate.Categories))
			for j, k := range gtmgate.Categories {
				names[j] = string(k)
			}
			return nil, bad("categories[%d] %s is not an approval category; categories: %s", i, jsonapi.Quote(c), strings.Join(names, ", "))
		}
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out, nil
}

// toolNames checks tool names, each once: the store keeps them separated
// by spaces, so none may hold one.
func toolNames(in []string) ([]string, error) {
	if len(in) > maxLimits {
		return nil, bad("tools holds %d entries, at most %d are allowed", len(in), maxLimits)
	}
	var out []string
	for i, t := range in {
		if t == "" || len(t) > maxToolName || !jsonapi.Printable(t) {
			return nil, bad("tools[%d] %s is not a tool name (at most %d printable characters without spaces, e.g. crm_contacts or slack__post_message)",
				i, jsonapi.Quote(t), maxToolName)
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out, nil
}
