package mcpservers

import (
	"fmt"
	"net/netip"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/egress"
	"github.com/gtmgate/gtmgate/jsonapi"
	"golang.org/x/net/http/httpguts"
)

// Limits of a body's fields.
const (
	maxURL       = 2048
	maxSecret    = 4096
	maxClientID  = 512
	maxScopes    = 50
	maxScope     = 512
	maxToolName  = 128
	maxToolNames = 1000
	maxHeader    = 128
)

// namePattern is a server name: it prefixes its tools' names as
// "name__tool", so it can never hold "_".
var namePattern = regexp.MustCompile(`^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$`)

// validName checks a server name.
func validName(name string) error {
	if namePattern.MatchString(name) {
		return nil
	}
	return gtmgate.Errorf(gtmgate.EValidation, "server name %s must be 1 to 32 lowercase letters, digits or '-', starting and ending "+
		"with a letter or digit: it prefixes the server's tools as NAME__tool, so it cannot hold '_'", jsonapi.Quote(name))
}

// reservedHeaders are headers the MCP client itself sets: a header
// credential cannot replace them.
var reservedHeaders = []string{"accept", "connection", "content-length", "content-type", "host", "last-event-id",
	"mcp-protocol-version", "mcp-session-id", "te", "trailer", "transfer-encoding", "upgrade"}

// bad is a VALIDATION_ERROR.
func bad(format string, args ...any) *gtmgate.Error {
	return gtmgate.Errorf(gtmgate.EValidation, format, args...)
}

// validate checks a body and returns the server it configures (without its
// tenant, name or times). The secret is returned in Auth.Secret, empty when
// the body leaves it out. Messages never quote a secret.
func (a *API) validate(b *Body) (*gtmgate.MCPServer, error) {
	s := &gtmgate.MCPServer{URL: strings.TrimSpace(b.URL)}
	if err := a.validURL("url", s.URL); err != nil {
		return nil, err
	}
	auth, err := a.validAuth(&b.Auth)
	if err != nil {
		return nil, err
	}
	s.Auth = auth
	if s.Tools, err = toolNames(b.Tools); err != nil {
		return nil, err
	}
	if s.Overrides, err = overrides(b.Overrides); err != nil {
		return nil, err
	}
	s.AutoAcceptChanges = b.AutoAcceptChanges
	return s, nil
}

// validURL checks an absolute http(s) URL gtmgate sends a credential to:
// https, except to a loopback host or an IP literal in the operator's
// allowed ranges; no user info, no fragment.
func (a *API) validURL(field, raw string) error {
	if raw == "" {
		return bad("%s is required: the server's streamable-HTTP endpoint, https://…", field)
	}
	if len(raw) > maxURL {
		return bad("%s is longer than %d characters", field, maxURL)
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Host == "" || u.Opaque != "" {
		return bad("%s must be an absolute http or https URL", field)
	}
	if u.Scheme != "https" && u.Scheme != "http" {
		return bad("%s must be an http or https URL, not %s", field, u.Scheme)
	}
	if u.User != nil {
		return bad("%s must not hold a user name or password: configure auth instead", field)
	}
	if u.Fragment != "" || strings.Contains(raw, "#") {
		return bad("%s must not have a fragment (#…)", field)
	}
	host := u.Hostname()
	if host == "" {
		return bad("%s has no host", field)
	}
	ip, ipErr := netip.ParseAddr(host)
	isIP := ipErr == nil
	allowed := isIP && egress.Classify(ip) != "" && egress.Policy{Allow: a.opts.AllowedRanges}.Check(host, ip) == nil
	if u.Scheme == "http" && !egress.LoopbackHost(host) && !allowed {
		return bad("%s must use https: plain http is accepted only for a loopback host or an IP address in the ranges the operator allows", field)
	}
	if isIP && !allowed && !egress.LoopbackHost(host) && egress.Classify(ip) != "" {
		return bad("%s's host %s is a %s address the operator has not allowed; only public addresses, loopback and the operator's allowed ranges can be reached",
			field, host, egress.Classify(ip))
	}
	return nil
}

// validAuth checks the auth member; kind-specific members are required,
// others refused, so a body cannot silently carry a secret that is dropped.
func (a *API) validAuth(b *AuthBody) (gtmgate.MCPServerAuth, error) {
	var out gtmgate.MCPServerAuth
	var err error
	kind := b.Kind
	if kind == "" {
		kind = gtmgate.MCPAuthNone
	}
	out.Kind = kind
	set := map[string]bool{"token": b.Token != "", "header": b.Header != "", "value": b.Value != "",
		"token_url": b.TokenURL != "", "client_id": b.ClientID != "", "client_secret": b.ClientSecret != "", "scopes": len(b.Scopes) > 0,
		"grant": b.Grant != "", "client_registration": b.ClientRegistration != ""}
	var takes []string
	switch kind {
	case gtmgate.MCPAuthNone:
	case gtmgate.MCPAuthBearer:
		takes = []string{"token"}
		out.Secret = b.Token
	case gtmgate.MCPAuthHeader:
		takes = []string{"header", "value"}
		out.Header, out.Secret = strings.TrimSpace(b.Header), b.Value
	case gtmgate.MCPAuthClientCredentials:
		takes = []string{"token_url", "client_id", "client_secret", "scopes"}
		out.TokenURL, out.ClientID, out.Secret = strings.TrimSpace(b.TokenURL), strings.TrimSpace(b.ClientID), b.ClientSecret
	case gtmgate.MCPAuthOAuth:
		takes = []string{"client_id", "client_secret", "scopes", "grant", "client_registration"}
		out.ClientID, out.Secret = strings.TrimSpace(b.ClientID), b.ClientSecret
		switch out.Grant = strings.TrimSpace(b.Grant); out.Grant {
		case "", gtmgate.MCPGrantPerTenant:
			out.Grant = gtmgate.MCPGrantPerTenant
		case gtmgate.MCPGrantPerPerson:
		default:
			return out, bad("auth.grant %s is not one of tenant, person", jsonapi.Quote(b.Grant)).
				WithHint("tenant: one grant, the tenant's, serves every call; person: each call uses the grant of the person its caller acts for")
		}
		if out.ClientRegistration, err = clientRegistration(b.ClientRegistration); err != nil {
			return out, err
		}
	default:
		return out, bad("auth.kind %s is not one of none, bearer, header, client_credentials, oauth", jsonapi.Quote(kind))
	}
	for _, m := range []string{"token", "header", "value", "token_url", "client_id", "client_secret", "scopes", "grant", "client_registration"} {
		if set[m] && !slices.Contains(takes, m) {
			return out, bad("auth.%s does not belong to auth kind %s (it takes %s)", m, kind, orNothing(takes))
		}
	}
	if len(out.Secret) > maxSecret {
		return out, bad("auth.%s is longer than %d bytes", secretField(kind), maxSecret)
	}
	if out.Secret != "" && (hasControl(out.Secret) || strings.TrimSpace(out.Secret) == "") {
		return out, bad("auth.%s must not hold control characters (it is sent in a header) nor be blank", secretField(kind))
	}
	switch kind {
	case gtmgate.MCPAuthHeader:
		name := out.Header
		switch {
		case name == "":
			return out, bad("auth.header is required for auth kind header: the header's name, e.g. X-Api-Key")
		case len(name) > maxHeader || !httpguts.ValidHeaderFieldName(name):
			return out, bad("auth.header %s is not an HTTP header name", jsonapi.Quote(name))
		case slices.Contains(reservedHeaders, strings.ToLower(name)):
			return out, bad("auth.header %s is set by the MCP client itself and cannot carry a credential", jsonapi.Quote(name))
		}
	case gtmgate.MCPAuthOAuth:
		if out.Secret != "" && out.ClientID == "" {
			return out, bad("auth.client_secret needs auth.client_id: it is the secret of that static client").
				WithHint("leave both out to let gtmgate register a client at the server's authorization server")
		}
		if out.ClientID != "" && (len(out.ClientID) > maxClientID || !jsonapi.Printable(out.ClientID)) {
			return out, bad("auth.client_id must be at most %d printable characters without spaces", maxClientID)
		}
		if out.ClientID != "" && out.ClientRegistration != gtmgate.MCPClientRegistrationAuto {
			return out, bad("auth.client_registration %s needs no auth.client_id: a static client is used as it is, never registered", out.ClientRegistration).
				WithHint("leave out client_registration (auto) with a static client, or leave out client_id to let gtmgate get a client")
		}
		if out.Scopes, err = scopes(b.Scopes); err != nil {
			return out, err
		}
	case gtmgate.MCPAuthClientCredentials:
		if out.TokenURL == "" {
			return out, bad("auth.token_url is required for auth kind client_credentials: the authorization server's token endpoint")
		}
		if err := a.validURL("auth.token_url", out.TokenURL); err != nil {
			return out, err
		}
		switch {
		case out.ClientID == "":
			return out, bad("auth.client_id is required for auth kind client_credentials")
		case len(out.ClientID) > maxClientID || !jsonapi.Printable(out.ClientID):
			return out, bad("auth.client_id must be at most %d printable characters without spaces", maxClientID)
		}
		if out.Scopes, err = scopes(b.Scopes); err != nil {
			return out, err
		}
	}
	return out, nil
}

// clientRegistration checks how an oauth server without a static client
// gets one; "" is auto.
func clientRegistration(in string) (string, error) {
	switch v := strings.TrimSpace(in); v {
	case "":
		return gtmgate.MCPClientRegistrationAuto, nil
	case gtmgate.MCPClientRegistrationAuto, gtmgate.MCPClientRegistrationMetadataDocument, gtmgate.MCPClientRegistrationDynamic:
		return v, nil
	}
	return "", bad("auth.client_registration %s is not one of auto, metadata_document, dynamic", jsonapi.Quote(in)).
		WithHint("auto: gtmgate's client ID metadata document when the authorization server takes it, else dynamic registration; " +
			"metadata_document: only the document; dynamic: only dynamic registration (RFC 7591), for a server that cannot fetch gtmgate's public URL")
}

// scopes checks OAuth scopes and drops duplicates.
func scopes(in []string) ([]string, error) {
	if len(in) > maxScopes {
		return nil, bad("auth.scopes holds %d scopes, at most %d are allowed", len(in), maxScopes)
	}
	var out []string
	for i, sc := range in {
		if sc == "" || len(sc) > maxScope || !jsonapi.Printable(sc) || strings.ContainsAny(sc, `"\`) {
			return nil, bad("auth.scopes[%d] %s is not an OAuth scope (RFC 6749 3.3: printable, no spaces, quotes or backslashes)", i, jsonapi.Quote(sc))
		}
		if !slices.Contains(out, sc) {
			out = append(out, sc)
		}
	}
	return out, nil
}

// secretField names the body member holding the secret of an auth kind.
func secretField(kind string) string {
	return map[string]string{gtmgate.MCPAuthBearer: "token", gtmgate.MCPAuthHeader: "value",
		gtmgate.MCPAuthClientCredentials: "client_secret", gtmgate.MCPAuthOAuth: "client_secret"}[kind]
}

// toolNames checks the allow-list and drops duplicates.
func toolNames(names []string) ([]string, error) {
	if len(names) > maxToolNames {
		return nil, bad("tools holds %d names, at most %d are allowed", len(names), maxToolNames)
	}
	var out []string
	for i, n := range names {
		if err := toolName(fmt.Sprintf("tools[%d]", i), n); err != nil {
			return nil, err
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out, nil
}

func toolName(field, n string) error {
	if n == "" || len(n) > maxToolName || hasControl(n) {
		return bad("%s %s must be an upstream tool's name: 1 to %d characters, no control characters", field, jsonapi.Quote(n), maxToolName)
	}
	return nil
}

// overrides checks each override: a known tool name, a category of the
// rubric, and no destructive tool that does not mutate.
func overrides(in map[string]gtmgate.MCPToolOverride) (map[string]gtmgate.MCPToolOverride, error) {
	if len(in) == 0 {
		return nil, nil
	}
	if len(in) > maxToolNames {
		return nil, bad("overrides holds %d tools, at most %d are allowed", len(in), maxToolNames)
	}
	for name, o := range in {
		field := "overrides[" + jsonapi.Quote(name) + "]"
		if err := toolName("overrides key", name); err != nil {
			return nil, err
		}
		if o.Category != "" && !slices.Contains(gtmgate.Categories, o.Category) {
			names := make([]string, len(gtmgate.Categories))
			for i, c := range gtmgate.Categories {
				names[i] = string(c)
			}
			return nil, bad("%s.category %s is not one of %s", field, jsonapi.Quote(string(o.Category)), strings.Join(names, ", "))
		}
		if o.Mutating != nil && !*o.Mutating && o.Destructive != nil && *o.Destructive {
			return nil, bad("%s: a tool that does not mutate (mutating false) cannot be destructive", field)
		}
	}
	return in, nil
}

// hasControl reports whether s holds an ASCII or Unicode control character.
func hasControl(s string) bool {
	for _, r := range s {
		if r < ' ' || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return true
		}
	}
	return false
}

func orNothing(l []string) string {
	if len(l) == 0 {
		return "nothing else"
	}
	return strings.Join(l, ", ")
}
