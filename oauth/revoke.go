package oauth

import (
	"context"
	"errors"
	"net/http"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/secret"
)

// handleRevoke serves POST /oauth/revoke (RFC 7009). Revoking a refresh
// token revokes its whole family (RFC 7009 §2.1 allows it, and a client
// that logs out means all of it); an access token is revoked alone. Unknown
// tokens, and tokens of other clients (left untouched), answer 200 as well,
// so the endpoint reveals nothing about tokens it was not given.
func (s *Server) handleRevoke(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	if err := r.ParseForm(); err != nil {
		writeError(w, oauthErr(http.StatusBadRequest, errInvalidRequest, "the request body must be application/x-www-form-urlencoded"))
		return
	}
	c, perr := s.authenticateClient(r)
	if perr != nil {
		writeError(w, perr)
		return
	}
	raw := r.PostForm.Get("token")
	if raw == "" {
		writeError(w, oauthErr(http.StatusBadRequest, errInvalidRequest, "token is required"))
		return
	}
	ctx := r.Context()
	now := s.opts.Now().UTC()
	t, err := s.opts.Store.FindOAuthToken(ctx, secret.HashToken(raw))
	switch {
	case errors.Is(err, gtmgate.ErrNotFound):
	case err != nil:
		writeError(w, s.serverError("find token", err))
		return
	case t.ClientID != c.ID:
		s.opts.Logger.Warn("oauth: client tried to revoke another client's token", "client_id", c.ID)
	case t.Kind == gtmgate.OAuthRefreshToken:
		_, err = s.opts.Store.RevokeOAuthFamily(ctx, t.FamilyID, now)
	default:
		err = s.opts.Store.RevokeOAuthToken(ctx, t.ID, now)
	}
	if err != nil && !errors.Is(err, gtmgate.ErrNotFound) {
		writeError(w, s.serverError("revoke", err))
		return
	}
	if t != nil && t.ClientID == c.ID {
		// Schedules and runs follow the grant: revoking its refresh token
		// ends them; an access token alone leaves the grant standing, which
		// the listener finds for itself.
		s.revoked(ctx, t.TenantID)
	}
	writeJSON(w, http.StatusOK, struct{}{})
}

// revoked tells the revocation listener that a credential of tenantID was
// revoked. It runs detached from the request: a client that hangs up must
// not leave a revoked grant's schedules running.
func (s *Server) revoked(ctx context.Context, tenantID string) {
	if s.opts.CredentialsRevoked != nil {
		s.opts.CredentialsRevoked(context.WithoutCancel(ctx), tenantID)
	}
}
