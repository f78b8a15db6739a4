// Package mcpoauth finds how to get an OAuth 2.1 grant for an upstream MCP
// server, as the MCP authorization specification (2025-11-25) says: the
// server's protected resource metadata (RFC 9728), named by its 401's
// WWW-Authenticate challenge or at its well-known URL; its authorization
// server's metadata (RFC 8414, or OpenID Connect discovery), which must
// offer PKCE with S256; and, when the operator configured no client,
// dynamic client registration (RFC 7591). The code exchange and refresh
// are golang.org/x/oauth2's, with the resource parameter of RFC 8707.
package mcpoauth

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// maxMetadata bounds a metadata document or a registration answer.
const maxMetadata = 256 << 10

// ResourceMetadata is an MCP server's protected resource metadata (RFC 9728).
type ResourceMetadata struct {
	Resource             string   `json:"resource"`
	AuthorizationServers []string `json:"authorization_servers"`
	ScopesSupported      []string `json:"scopes_supported,omitempty"`
}

// ServerMetadata is an authorization server's metadata (RFC 8414).
type ServerMetadata struct {
	Issuer                        string   `json:"issuer"`
	AuthorizationEndpoint         string   `json:"authorization_endpoint"`
	TokenEndpoint                 string   `json:"token_endpoint"`
	RegistrationEndpoint          string   `json:"registration_endpoint,omitempty"`
	RevocationEndpoint            string   `json:"revocation_endpoint,omitempty"`
	ScopesSupported               []string `json:"scopes_supported,omitempty"`
	CodeChallengeMethodsSupported []string `json:"code_challenge_methods_supported,omitempty"`
	// ClientIDMetadataDocumentSupported says the server accepts a URL as
	// client id (a client ID metadata document).
	ClientIDMetadataDocumentSupported bool `json:"client_id_metadata_document_supported,omitempty"`
}

// Discovery is what Discover found for one MCP server.
type Discovery struct {
	// Resource is the canonical URI of the server, sent as the resource
	// parameter (RFC 8707) at authorization and at the token endpoint.
	Resource string
	// ResourceMetadataURL is where the resource metadata was read.
	ResourceMetadataURL string
	ResourceMetadata    ResourceMetadata
	Server              ServerMetadata
	// Scope is the scope the 401's challenge asked for, if any.
	Scope string
}

// Error is a discovery or registration failure, said for the operator.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

func fail(format string, args ...any) error { return &Error{Msg: fmt.Sprintf(format, args...)} }

// Discover probes serverURL without a credential and follows its metadata
// to its authorization server. client must be egress-checked: every URL
// here comes from the upstream.
func Discover(ctx context.Context, client *http.Client, serverURL string) (*Discovery, error) {
	su, err := url.Parse(serverURL)
	if err != nil || !su.IsAbs() {
		return nil, fail("the server URL %q is not absolute", serverURL)
	}
	d := &Discovery{}
	prmURL, scope, err := probe(ctx, client, serverURL)
	if err != nil {
		return nil, err
	}
	d.Scope = scope
	candidates := []string{prmURL}
	if prmURL == "" {
		candidates = wellKnown(su, "oauth-protected-resource")
	}
	var lastErr error
	for _, c := range candidates {
		if lastErr = getJSON(ctx, client, c, &d.ResourceMetadata); lastErr == nil {
			d.ResourceMetadataURL = c
			break
		}
	}
	if d.ResourceMetadataURL == "" {
		return nil, fail("no protected resource metadata (RFC 9728) found for %s: %v", serverURL, lastErr)
	}
	d.Resource = d.ResourceMetadata.Resource
	if d.Resource == "" {
		d.Resource = serverURL
	}
	if ru, err := url.Parse(d.Resource); err != nil || ru.Scheme != su.Scheme || ru.Host != su.Host {
		return nil, fail("the protected resource metadata names resource %q, not at the server's origin %s://%s", d.Resource, su.Scheme, su.Host)
	}
	if len(d.ResourceMetadata.AuthorizationServers) == 0 {
		return nil, fail("the protected resource metadata at %s names no authorization server", d.ResourceMetadataURL)
	}
	issuer := d.ResourceMetadata.AuthorizationServers[0]
	iu, err := url.Parse(issuer)
	if err != nil || !iu.IsAbs() || iu.RawQuery != "" || iu.Fragment != "" {
		return nil, fail("the authorization server %q is not an issuer URL", issuer)
	}
	lastErr = nil
	found := false
	for _, c := range serverMetadataURLs(iu) {
		var m ServerMetadata
		if lastErr = getJSON(ctx, client, c, &m); lastErr != nil {
			continue
		}
		if strings.TrimSuffix(m.Issuer, "/") != strings.TrimSuffix(issuer, "/") {
			lastErr = fail("the metadata at %s names issuer %q, not %q", c, m.Issuer, issuer)
			continue
		}
		d.Server, found = m, true
		break
	}
	if !found {
		return nil, fail("no authorization server metadata (RFC 8414 or OpenID discovery) found for %s: %v", issuer, lastErr)
	}
	m := d.Server
	switch {
	case m.AuthorizationEndpoint == "" || m.TokenEndpoint == "":
		return nil, fail("the authorization server %s names no authorization or token endpoint", issuer)
	case !slices.Contains(m.CodeChallengeMethodsSupported, "S256"):
		return nil, fail("the authorization server %s does not offer PKCE with S256 (code_challenge_methods_supported), which MCP requires", issuer)
	}
	return d, nil
}

// probe sends an unauthenticated initialize request: a protected server
// answers 401 with the challenge naming its resource metadata.
func probe(ctx context.Context, client *http.Client, serverURL string) (prmURL, scope string, err error) {
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"gtmgate","version":"probe"}}}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, serverURL, strings.NewReader(body))
	if err != nil {
		return "", "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := client.Do(req)
	if err != nil {
		return "", "", fail("the server %s is unreachable: %v", serverURL, err)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxMetadata))
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		return "", "", nil
	}
	for _, h := range resp.Header.Values("WWW-Authenticate") {
		params := ParseChallenge(h)
		if v := params["resource_metadata"]; v != "" {
			ref, err := url.Parse(v)
			if err != nil {
				return "", "", fail("the server's challenge names resource_metadata %q, not a URL", v)
			}
			return req.URL.ResolveReference(ref).String(), params["scope"], nil
		}
		if s := params["scope"]; s != "" {
			scope = s
		}
	}
	return "", scope, nil
}

// ParseChallenge returns the auth-params of a Bearer challenge
// (RFC 6750 3: `Bearer realm="x", resource_metadata="…"`), names lowered;
// nil when the challenge is not Bearer.
func ParseChallenge(h string) map[string]string {
	scheme, rest, _ := strings.Cut(strings.TrimSpace(h), " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return nil
	}
	out := map[string]string{}
	for rest = strings.TrimSpace(rest); rest != ""; {
		name, after, ok := strings.Cut(rest, "=")
		if !ok {
			break
		}
		name = strings.ToLower(strings.TrimSpace(strings.TrimLeft(name, ", ")))
		after = strings.TrimSpace(after)
		var val string
		if strings.HasPrefix(after, `"`) {
			var b strings.Builder
			i := 1
			for ; i < len(after) && after[i] != '"'; i++ {
				if after[i] == '\\' && i+1 < len(after) {
					i++
				}
				b.WriteByte(after[i])
			}
			val, rest = b.String(), after[min(i+1, len(after)):]
		} else {
			val, rest, _ = strings.Cut(after, ",")
			val = strings.TrimSpace(val)
		}
		out[name] = val
		rest = strings.TrimLeft(strings.TrimSpace(rest), ",")
		rest = strings.TrimSpace(rest)
	}
	return out
}

// wellKnown is RFC 9728's (and RFC 8414's) well-known URLs of u: with u's
// path inserted after the well-known segment, then at the root.
func wellKnown(u *url.URL, suffix string) []string {
	base := u.Scheme + "://" + u.Host + "/.well-known/" + suffix
	p := strings.TrimSuffix(u.EscapedPath(), "/")
	if p == "" {
		return []string{base}
	}
	return []string{base + p, base}
}

// serverMetadataURLs are the places of an issuer's metadata, in the order
// the MCP specification tries them.
func serverMetadataURLs(iu *url.URL) []string {
	origin := iu.Scheme + "://" + iu.Host
	p := strings.TrimSuffix(iu.EscapedPath(), "/")
	if p == "" {
		return []string{origin + "/.well-known/oauth-authorization-server", origin + "/.well-known/openid-configuration"}
	}
	return []string{origin + "/.well-known/oauth-authorization-server" + p, origin + "/.well-known/openid-configuration" + p,
		origin + p + "/.well-known/openid-configuration"}
}

// getJSON reads a JSON document of at most maxMetadata bytes.
func getJSON(ctx context.Context, client *http.Client, u string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("GET %s: %w", u, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: HTTP %d", u, resp.StatusCode)
	}
	return decode(resp.Body, u, out)
}

func decode(r io.Reader, u string, out any) error {
	b, err := io.ReadAll(io.LimitReader(r, maxMetadata+1))
	if err != nil {
		return fmt.Errorf("reading %s: %w", u, err)
	}
	if len(b) > maxMetadata {
		return fmt.Errorf("%s: the document is larger than %d bytes", u, maxMetadata)
	}
	if err := json.NewDecoder(bytes.NewReader(b)).Decode(out); err != nil {
		return fmt.Errorf("%s: not a JSON object: %w", u, err)
	}
	return nil
}
