package oauth

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/secret"
)

// tokenResponse is the successful token response (RFC 6749 §5.1).
type tokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	RefreshToken string `json:"refresh_token,omitempty"`
	Scope        string `json:"scope"`
}

// grant is what a new token pair is bound to.
type grant struct {
	familyID, tenantID, clientID string
	scopes                       []string
	refreshScopes                []string // defaults to scopes
	resource                     string
	consentedBy                  string // the consenting person's actor key, "" for none
	toolset                      string // the tenant toolset the grant is limited to, "" for none
}

// issue mints an access token and a refresh token for g. With rotate set
// (the hash of the refresh token being exchanged) the old token is spent in
// the same transaction; a reused one revokes the family instead.
func (s *Server) issue(ctx context.Context, g grant, rotate string) (*tokenResponse, *protocolError) {
	access, err1 := secret.NewToken("gtmat_")
	refresh, err2 := secret.NewToken("gtmrt_")
	if err := errors.Join(err1, err2); err != nil {
		return nil, s.serverError("new token", err)
	}
	if g.refreshScopes == nil {
		g.refreshScopes = g.scopes
	}
	now := s.opts.Now().UTC()
	tok := func(value, kind string, scopes []string, ttl time.Duration) *gtmgate.OAuthToken {
		return &gtmgate.OAuthToken{
			ID: gtmgate.NewID("oat_"), Hash: secret.HashToken(value), Kind: kind, FamilyID: g.familyID,
			TenantID: g.tenantID, ClientID: g.clientID, Scopes: scopes, Resource: g.resource,
			CreatedAt: now, ExpiresAt: now.Add(ttl), ConsentedBy: g.consentedBy, Toolset: g.toolset,
		}
	}
	next := []*gtmgate.OAuthToken{
		tok(access, gtmgate.OAuthAccessToken, g.scopes, s.opts.AccessTokenTTL),
		tok(refresh, gtmgate.OAuthRefreshToken, g.refreshScopes, s.opts.RefreshTokenTTL),
	}
	var err error
	if rotate != "" {
		err = s.opts.Store.RotateRefreshToken(ctx, rotate, now, next...)
	} else {
		err = s.opts.Store.CreateOAuthTokens(ctx, next...)
	}
	switch {
	case errors.Is(err, gtmgate.ErrConflict) && rotate != "":
		s.opts.Logger.Warn("oauth: refresh token reused; its family is revoked", "client_id", g.clientID, "tenant_id", g.tenantID)
		s.revoked(ctx, g.tenantID)
		return nil, invalidGrant("refresh token already used; every token of this grant is revoked")
	case errors.Is(err, gtmgate.ErrNotFound) && rotate != "":
		return nil, invalidGrant("unknown refresh token")
	case errors.Is(err, gtmgate.ErrNotFound):
		return nil, oauthErr(http.StatusBadRequest, errInvalidGrant, "the tenant no longer exists")
	case err != nil:
		return nil, s.serverError("store tokens", err)
	}
	return &tokenResponse{AccessToken: access, TokenType: "Bearer", ExpiresIn: int64(s.opts.AccessTokenTTL.Seconds()), RefreshToken: refresh, Scope: scopeString(g.scopes)}, nil
}
