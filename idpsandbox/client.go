package idpsandbox

import (
	"net/url"
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
)

// idTokenLifetime is how long an ID token is valid.
const idTokenLifetime = time.Hour

// opClient is a Client as zitadel's op.Client: a confidential web client
// of the code flow, with opaque access tokens and no refresh tokens.
type opClient struct {
	Client
	loginURL string
}

var _ op.Client = (*opClient)(nil)

func (c *opClient) GetID() string                    { return c.ID }
func (c *opClient) RedirectURIs() []string           { return c.Client.RedirectURIs }
func (c *opClient) PostLogoutRedirectURIs() []string { return c.Client.PostLogoutRedirectURIs }
func (c *opClient) ApplicationType() op.ApplicationType {
	return op.ApplicationTypeWeb
}

// AuthMethod is client_secret_basic; zitadel also accepts
// client_secret_post from it because the provider enables AuthMethodPost.
func (c *opClient) AuthMethod() oidc.AuthMethod { return oidc.AuthMethodBasic }

func (c *opClient) ResponseTypes() []oidc.ResponseType {
	return []oidc.ResponseType{oidc.ResponseTypeCode}
}

func (c *opClient) GrantTypes() []oidc.GrantType {
	return []oidc.GrantType{oidc.GrantTypeCode}
}

// LoginURL is the sandbox's sign-in page for the request.
func (c *opClient) LoginURL(requestID string) string {
	return c.loginURL + "?authRequestID=" + url.QueryEscape(requestID)
}

func (c *opClient) AccessTokenType() op.AccessTokenType { return op.AccessTokenTypeBearer }
func (c *opClient) IDTokenLifetime() time.Duration      { return idTokenLifetime }

// DevMode stays off: http redirect URIs are allowed anyway for a
// confidential web client of the code flow.
func (c *opClient) DevMode() bool { return false }

func (c *opClient) RestrictAdditionalIdTokenScopes() func([]string) []string {
	return func(scopes []string) []string { return scopes }
}

func (c *opClient) RestrictAdditionalAccessTokenScopes() func([]string) []string {
	return func(scopes []string) []string { return scopes }
}

// IsScopeAllowed admits the groups scope beside the standard ones.
func (c *opClient) IsScopeAllowed(scope string) bool { return scope == groupsScope }

// IDTokenUserinfoClaimsAssertion puts the email and profile claims into the
// ID token even though an access token is issued too, so a relying party
// need not call userinfo.
func (c *opClient) IDTokenUserinfoClaimsAssertion() bool { return true }

func (c *opClient) ClockSkew() time.Duration { return 0 }
