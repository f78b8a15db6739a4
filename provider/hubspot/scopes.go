package hubspot

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/apispec"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// Spec returns the facts of HubSpot's CRM API the tools call (apispec.json,
// the file the sandbox enforces), each operation with the OAuth scopes that
// admit it. It is the sandbox's own parse, shared: callers must not change it.
func Spec() *apispec.Spec { return crmSpec() }

// accessTokenPath is HubSpot's OAuth v1 access token information endpoint
// (developers.hubspot.com/docs/api-reference/legacy/authentication/oauth-tokens/v1/get-oauth-token-metadata).
// It takes the token in the path and no credential, so it needs none of the
// app's client credentials that the dated introspection endpoint
// (/oauth/2026-03/token/introspect) requires. HubSpot marks v1 deprecated.
const accessTokenPath = "/oauth/v1/access-tokens/"

// accessTokenInfo is the part of the endpoint's answer gtmgate reads.
type accessTokenInfo struct {
	Scopes []string `json:"scopes"`
}

// GrantedScopes returns the OAuth scopes HubSpot granted the account's
// access token, read with c, the adapter's client. The token travels in the
// path, as the endpoint takes it; errors redact it. A stale token is not
// refreshed here: HubSpot's refusal comes back as the upstream error.
func GrantedScopes(ctx context.Context, c *upstream.Client, ts gtmgate.TokenSource) ([]string, error) {
	token, err := ts.Token(ctx)
	if err != nil {
		return nil, err
	}
	escaped := url.PathEscape(token)
	req := &upstream.Request{Method: http.MethodGet, Path: accessTokenPath + escaped, Secrets: []string{token, escaped}}
	var info accessTokenInfo
	if err := c.Do(ctx, req, &info); err != nil {
		return nil, fmt.Errorf("hubspot: access token information: %w", err)
	}
	return info.Scopes, nil
}
