package googleapi

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// TokenInfoProvider is the provider key of the client that reads Google
// access tokens' scopes (GTMGATE_UPSTREAM_GOOGLE_OAUTH overrides its base).
const TokenInfoProvider = "google_oauth"

// TokenInfoBaseURL is the root of Google's OAuth 2.0 token information
// endpoint, GET /tokeninfo?access_token=…
// (developers.google.com/identity/protocols/oauth2, "Token information").
const TokenInfoBaseURL = "https://oauth2.googleapis.com"

// tokenInfo is the part of tokeninfo's answer gtmgate reads: scope is the
// granted scopes separated by spaces.
type tokenInfo struct {
	Scope string `json:"scope"`
}

// GrantedScopes returns the OAuth scopes Google granted the account's access
// token, read from tokeninfo with c, a client for TokenInfoProvider. Every
// Google provider's token is read the same way. The token travels in the
// query, the only place tokeninfo takes it; errors redact it. A stale token
// is not refreshed here: tokeninfo answers 400 invalid_token for it, which
// comes back as the upstream error.
func GrantedScopes(ctx context.Context, c *upstream.Client, ts gtmgate.TokenSource) ([]string, error) {
	token, err := ts.Token(ctx)
	if err != nil {
		return nil, err
	}
	req := &upstream.Request{Method: http.MethodGet, Path: "/tokeninfo", Query: url.Values{"access_token": {token}},
		Secrets: []string{token, url.QueryEscape(token)}}
	var info tokenInfo
	if err := c.Do(ctx, req, &info); err != nil {
		return nil, fmt.Errorf("google oauth: tokeninfo: %w", err)
	}
	return strings.Fields(info.Scope), nil
}
