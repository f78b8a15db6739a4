package oauth

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/secret"
)

// maxFormBytes caps token and revocation request bodies.
const maxFormBytes = 16 << 10

// handleToken serves POST /oauth/token: the authorization_code and
// refresh_token grants. Responses are never cached.
func (s *Server) handleToken(w http.ResponseWriter, r *http.Request) {
	if err := s.opts.TokenGuard.Check(r); err != nil {
		w.Header().Set("Retry-After", strconv.Itoa(gtmgate.AsError(err).RetryAfter))
		writeError(w, oauthErr(http.StatusTooManyRequests, errTemporarilyUnavailable, "too many failed token requests from this address; retry later"))
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	if err := r.ParseForm(); err != nil {
		writeError(w, oauthErr(http.StatusBadRequest, errInvalidRequest, "the request body must be application/x-www-form-urlencoded"))
		return
	}
	c, perr := s.authenticateClient(r)
	if perr != nil {
		s.opts.TokenGuard.Fail(r)
		writeError(w, perr)
		return
	}
	var resp *tokenResponse
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		resp, perr = s.exchangeCode(r, c)
	case "refresh_token":
		resp, perr = s.refresh(r, c)
	case "":
		perr = oauthErr(http.StatusBadRequest, errInvalidRequest, "grant_type is required")
	default:
		perr = oauthErr(http.StatusBadRequest, errUnsupportedGrantType, "supported grant types: authorization_code, refresh_token")
	}
	if perr != nil {
		if perr.Code == errInvalidGrant || perr.Code == errInvalidClient {
			s.opts.TokenGuard.Fail(r)
		}
		writeError(w, perr)
		return
	}
	writeJSON(w, http.StatusOK, resp)
}

// exchangeCode redeems an authorization code: single use (a replay revokes
// what the code issued), unexpired, for this client and redirect URI, with
// the PKCE verifier of its challenge and, when given, the same resource.
func (s *Server) exchangeCode(r *http.Request, c *gtmgate.OAuthClient) (*tokenResponse, *protocolError) {
	f := r.PostForm
	raw := f.Get("code")
	if raw == "" {
		return nil, oauthErr(http.StatusBadRequest, errInvalidRequest, "code is required")
	}
	now := s.opts.Now().UTC()
	code, err := s.opts.Store.ConsumeOAuthCode(r.Context(), secret.HashToken(raw), now)
	switch {
	case errors.Is(err, gtmgate.ErrNotFound):
		return nil, invalidGrant("unknown authorization code")
	case errors.Is(err, gtmgate.ErrConflict):
		s.opts.Logger.Warn("oauth: authorization code replayed; its tokens are revoked", "client_id", c.ID)
		if code != nil {
			s.revoked(r.Context(), code.TenantID)
		}
		return nil, invalidGrant("authorization code already used")
	case err != nil:
		return nil, s.serverError("consume code", err)
	}
	switch {
	case code.ClientID != c.ID:
		return nil, invalidGrant("authorization code was issued to another client")
	case !now.Before(code.ExpiresAt):
		return nil, invalidGrant("authorization code expired")
	case f.Get("redirect_uri") != code.RedirectURI:
		return nil, invalidGrant("redirect_uri does not match the authorization request")
	case !verifyPKCE(code.CodeChallenge, f.Get("code_verifier")):
		return nil, invalidGrant("code_verifier does not match the code_challenge")
	}
	if res := f.Get("resource"); res != "" {
		if aud, ok := s.canonicalResource(res); !ok || aud != code.Resource {
			return nil, oauthErr(http.StatusBadRequest, errInvalidTarget, "resource differs from the authorization request")
		}
	}
	return s.issue(r.Context(), grant{
		familyID: code.FamilyID, tenantID: code.TenantID, clientID: c.ID, scopes: code.Scopes, resource: code.Resource,
		consentedBy: code.ConsentedBy, toolset: code.Toolset,
	}, "")
}

// refresh rotates a refresh token: the old one is spent, a reused one
// revokes its whole family. The client may narrow the scopes.
func (s *Server) refresh(r *http.Request, c *gtmgate.OAuthClient) (*tokenResponse, *protocolError) {
	f := r.PostForm
	raw := f.Get("refresh_token")
	if raw == "" {
		return nil, oauthErr(http.StatusBadRequest, errInvalidRequest, "refresh_token is required")
	}
	hash := secret.HashToken(raw)
	old, err := s.opts.Store.FindOAuthToken(r.Context(), hash)
	if errors.Is(err, gtmgate.ErrNotFound) || (err == nil && old.Kind != gtmgate.OAuthRefreshToken) {
		return nil, invalidGrant("unknown refresh token")
	}
	if err != nil {
		return nil, s.serverError("find refresh token", err)
	}
	if old.ClientID != c.ID {
		return nil, invalidGrant("refresh token was issued to another client")
	}
	if !s.opts.Now().Before(old.ExpiresAt) && old.UsedAt == nil && old.RevokedAt == nil {
		return nil, invalidGrant("refresh token expired")
	}
	scopes := old.Scopes
	if p := f.Get("scope"); p != "" {
		narrowed, err := parseScope(p, nil)
		if err != nil || !subset(narrowed, old.Scopes) {
			return nil, oauthErr(http.StatusBadRequest, errInvalidScope, "scope must be a subset of the original grant")
		}
		scopes = narrowed
	}
	if res := f.Get("resource"); res != "" {
		if aud, ok := s.canonicalResource(res); !ok || aud != old.Resource {
			return nil, oauthErr(http.StatusBadRequest, errInvalidTarget, "resource differs from the original grant")
		}
	}
	// The refresh token keeps the original grant's scopes (RFC 6749 §6).
	return s.issue(r.Context(), grant{
		familyID: old.FamilyID, tenantID: old.TenantID, clientID: c.ID, scopes: scopes, refreshScopes: old.Scopes,
		resource: old.Resource, consentedBy: old.ConsentedBy, toolset: old.Toolset,
	}, hash)
}

func invalidGrant(desc string) *protocolError {
	return oauthErr(http.StatusBadRequest, errInvalidGrant, desc)
}

func (s *Server) serverError(op string, err error) *protocolError {
	s.opts.Logger.Error("oauth: "+op, "err", err)
	return oauthErr(http.StatusInternalServerError, errServerError, "internal error")
}

// scopeString joins scopes for a response.
func scopeString(scopes []string) string { return strings.Join(scopes, " ") }
