package oauth

import (
	"context"
	"errors"
	"fmt"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/secret"
)

// Verify resolves an OAuth access token presented to /mcp; it matches
// gateway.TokenVerifier. It returns gtmgate.ErrNotFound for a token it does
// not know, an UNAUTHORIZED error for a revoked or expired token and for one
// whose audience is not this server's /mcp (a token for another resource,
// or issued under another GATEWAY_URL).
func (s *Server) Verify(ctx context.Context, token string) (*gtmgate.Principal, error) {
	t, err := s.opts.Store.FindOAuthToken(ctx, secret.HashToken(token))
	if err != nil {
		if errors.Is(err, gtmgate.ErrNotFound) {
			return nil, gtmgate.ErrNotFound
		}
		return nil, fmt.Errorf("oauth: verify token: %w", err)
	}
	if t.Kind != gtmgate.OAuthAccessToken {
		return nil, gtmgate.ErrNotFound
	}
	unauthorized := func(msg string) error {
		return gtmgate.Errorf(gtmgate.EUnauthorized, "%s", msg).WithHint("reauthorize the client: " + s.ResourceMetadataURL())
	}
	switch {
	case t.RevokedAt != nil:
		return nil, unauthorized("the access token was revoked")
	case !s.opts.Now().Before(t.ExpiresAt):
		return nil, unauthorized("the access token expired")
	case t.Resource != s.resource:
		return nil, unauthorized("the access token is not for this resource")
	}
	return &gtmgate.Principal{TenantID: t.TenantID, KeyID: gtmgate.OAuthAgentKey(t.FamilyID), Kind: gtmgate.PrincipalOAuth, ClientID: t.ClientID, Scopes: t.Scopes,
		GrantID: t.FamilyID, ConsentedBy: t.ConsentedBy, Toolset: t.Toolset, Person: gtmgate.ConsentingPerson(t.ConsentedBy)}, nil
}
