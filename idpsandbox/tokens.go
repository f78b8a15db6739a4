package idpsandbox

import (
	"context"
	"errors"
	"slices"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
)

// The store's access tokens, and the claims it answers with in ID tokens,
// userinfo and introspection.

// accessToken is what an opaque access token stands for.
type accessToken struct {
	subject  string
	clientID string
	scopes   []string
	expires  time.Time
}

// CreateAccessToken stores what a new opaque access token stands for.
func (s *store) CreateAccessToken(_ context.Context, req op.TokenRequest) (string, time.Time, error) {
	var clientID string
	if r, ok := req.(interface{ GetClientID() string }); ok {
		clientID = r.GetClientID()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t := accessToken{
		subject:  req.GetSubject(),
		clientID: clientID,
		scopes:   slices.Clone(req.GetScopes()),
		expires:  s.now().Add(accessTokenLifetime),
	}
	id := randomID()
	s.tokens[id] = t
	return id, t.expires, nil
}

// errNoRefreshTokens answers the refresh token calls: clients are not
// registered for the refresh_token grant, so zitadel does not make them.
var errNoRefreshTokens = errors.New("idpsandbox: refresh tokens are not supported")

// CreateAccessAndRefreshTokens is not supported.
func (s *store) CreateAccessAndRefreshTokens(context.Context, op.TokenRequest, string) (string, string, time.Time, error) {
	return "", "", time.Time{}, errNoRefreshTokens
}

// TokenRequestByRefreshToken is not supported.
func (s *store) TokenRequestByRefreshToken(context.Context, string) (op.RefreshTokenRequest, error) {
	return nil, errNoRefreshTokens
}

// GetRefreshTokenInfo knows no refresh tokens.
func (s *store) GetRefreshTokenInfo(context.Context, string, string) (string, string, error) {
	return "", "", op.ErrInvalidRefreshToken
}

// TerminateSession drops the access tokens of the person for the client
// (end_session).
func (s *store) TerminateSession(_ context.Context, subject, clientID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, t := range s.tokens {
		if t.subject == subject && t.clientID == clientID {
			delete(s.tokens, id)
		}
	}
	return nil
}

// RevokeToken drops an access token of the client; an unknown token is
// already as good as revoked.
func (s *store) RevokeToken(_ context.Context, tokenID, _, clientID string) *oidc.Error {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tokens[tokenID]
	if !ok {
		return nil
	}
	if t.clientID != clientID {
		return oidc.ErrInvalidClient().WithDescription("token was not issued for this client")
	}
	delete(s.tokens, tokenID)
	return nil
}

// SetUserinfoFromScopes is deprecated in op.Storage; SetUserinfoFromRequest
// does the work.
func (s *store) SetUserinfoFromScopes(context.Context, *oidc.UserInfo, string, string, []string) error {
	return nil
}

// SetUserinfoFromRequest fills the ID token's claims.
func (s *store) SetUserinfoFromRequest(_ context.Context, info *oidc.UserInfo, req op.IDTokenRequest, scopes []string) error {
	return s.setUserinfo(info, req.GetSubject(), scopes)
}

// SetUserinfoFromToken answers the userinfo endpoint.
func (s *store) SetUserinfoFromToken(_ context.Context, info *oidc.UserInfo, tokenID, subject, _ string) error {
	t, err := s.liveToken(tokenID)
	if err != nil {
		return err
	}
	if t.subject != subject {
		return errors.New("idpsandbox: token is invalid")
	}
	return s.setUserinfo(info, t.subject, t.scopes)
}

// SetIntrospectionFromToken answers the introspection endpoint for the
// client the token was issued to.
func (s *store) SetIntrospectionFromToken(_ context.Context, resp *oidc.IntrospectionResponse, tokenID, subject, clientID string) error {
	t, err := s.liveToken(tokenID)
	if err != nil {
		return err
	}
	if t.subject != subject || t.clientID != clientID {
		return errors.New("idpsandbox: token is not valid for this client")
	}
	info := new(oidc.UserInfo)
	if err := s.setUserinfo(info, t.subject, t.scopes); err != nil {
		return err
	}
	resp.SetUserInfo(info)
	resp.Scope = t.scopes
	resp.ClientID = t.clientID
	resp.Expiration = oidc.FromTime(t.expires)
	return nil
}

// GetPrivateClaimsFromScopes is for JWT access tokens, which the sandbox
// does not issue.
func (s *store) GetPrivateClaimsFromScopes(context.Context, string, string, []string) (map[string]any, error) {
	return nil, nil
}

// GetKeyByIDAndClientID: the sandbox has no private_key_jwt clients nor
// JWT profile grants.
func (s *store) GetKeyByIDAndClientID(context.Context, string, string) (*jose.JSONWebKey, error) {
	return nil, errors.New("idpsandbox: JWT client keys are not supported")
}

// ValidateJWTProfileScopes: the JWT profile grant is not supported.
func (s *store) ValidateJWTProfileScopes(context.Context, string, []string) ([]string, error) {
	return nil, errors.New("idpsandbox: the JWT profile grant is not supported")
}

// Health is always fine for memory.
func (s *store) Health(context.Context) error {
	return nil
}

func (s *store) liveToken(id string) (accessToken, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tokens[id]
	if !ok || !s.now().Before(t.expires) {
		return accessToken{}, errors.New("idpsandbox: token is invalid or expired")
	}
	return t, nil
}

// setUserinfo sets the claims of the person with the subject that the
// scopes ask for, and the groups claim always (it is a sandbox).
func (s *store) setUserinfo(info *oidc.UserInfo, subject string, scopes []string) error {
	s.mu.Lock()
	person, ok := s.people[subject]
	s.mu.Unlock()
	if !ok {
		return ErrUnknownSubject
	}
	info.Subject = person.Subject
	if slices.Contains(scopes, oidc.ScopeEmail) {
		info.Email = person.Email
		info.EmailVerified = oidc.Bool(person.EmailVerified)
	}
	if slices.Contains(scopes, oidc.ScopeProfile) {
		info.Name = person.Name
		info.PreferredUsername = person.Email
	}
	groups := slices.Clone(person.Groups)
	if groups == nil {
		groups = []string{} // an empty list, not null
	}
	info.AppendClaims(s.groupsClaim, groups)
	return nil
}
