package oauth

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/secret"
)

// handleDecision handles the consent form: CSRF check, then the request is
// validated again from the form's hidden fields, then deny or approve.
func (s *Server) handleDecision(w http.ResponseWriter, r *http.Request, decision string) {
	if !s.checkCSRF(r) {
		s.renderError(w, http.StatusForbidden, "This form expired or was not sent from the gateway's page. Go back to the application and start again.")
		return
	}
	req, err := s.parseAuthRequest(r.Context(), r.PostForm)
	if err != nil {
		s.failAuthorize(w, r, req, err)
		return
	}
	switch decision {
	case "deny":
		s.redirect(w, r, req, url.Values{"error": {errAccessDenied}, "error_description": {"the person denied access"}})
	case "approve":
		s.approve(w, r, req)
	default:
		s.renderError(w, http.StatusBadRequest, "Unknown decision.")
	}
}

// approve proves the tenant with the entered credential and sends the client
// an authorization code bound to everything the token request must repeat.
func (s *Server) approve(w http.ResponseWriter, r *http.Request, req *authRequest) {
	if err := s.opts.CredentialGuard.Check(r); err != nil {
		w.Header().Set("Retry-After", strconv.Itoa(gtmgate.AsError(err).RetryAfter))
		s.renderConsent(w, r, req, http.StatusTooManyRequests, "Too many wrong credentials from this address. Wait a minute, then try again.")
		return
	}
	tenantID, err := s.proveTenant(r, strings.TrimSpace(r.PostForm.Get("credential")))
	if err != nil {
		var pe *pageError
		if errors.As(err, &pe) {
			s.opts.CredentialGuard.Fail(r)
			s.renderConsent(w, r, req, http.StatusUnauthorized, pe.message)
			return
		}
		s.failAuthorize(w, r, req, err)
		return
	}
	code, err := secret.NewToken("gtmac_")
	if err != nil {
		s.failAuthorize(w, r, req, err)
		return
	}
	now := s.opts.Now().UTC()
	err = s.opts.Store.CreateOAuthCode(r.Context(), &gtmgate.OAuthCode{
		Hash: secret.HashToken(code), FamilyID: gtmgate.NewID("fam_"), ClientID: req.client.ID,
		RedirectURI: req.redirectURI, CodeChallenge: req.challenge, Scopes: req.scopes, TenantID: tenantID,
		Resource: req.resource, CreatedAt: now, ExpiresAt: now.Add(s.opts.CodeTTL),
	})
	if err != nil {
		s.failAuthorize(w, r, req, err)
		return
	}
	s.redirect(w, r, req, url.Values{"code": {code}})
}

// proveTenant returns the tenant of the credential the person entered: a
// connect code (consumed) or a tenant bearer token. A wrong credential or an
// inactive tenant is a *pageError.
func (s *Server) proveTenant(r *http.Request, credential string) (string, error) {
	if credential == "" {
		return "", &pageError{"Enter a tenant token or a connect code."}
	}
	ctx := r.Context()
	hash := secret.HashToken(credential)
	tenantID := ""
	cc, err := s.opts.Store.ConsumeConnectCode(ctx, hash, s.opts.Now().UTC())
	switch {
	case err == nil:
		tenantID = cc.TenantID
	case !errors.Is(err, gtmgate.ErrNotFound):
		return "", err
	default:
		t, err := s.opts.Store.FindTenantToken(ctx, hash)
		if errors.Is(err, gtmgate.ErrNotFound) {
			return "", &pageError{"That tenant token or connect code is not valid (connect codes work once and expire)."}
		}
		if err != nil {
			return "", err
		}
		tenantID = t.TenantID
	}
	t, err := s.opts.Store.GetTenant(ctx, tenantID)
	if err != nil {
		return "", err
	}
	if t.Status != gtmgate.TenantActive {
		return "", &pageError{"The tenant " + t.ID + " is not active."}
	}
	return tenantID, nil
}
