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
	tenantID, consentedBy, toolset, err := s.consentingTenant(r)
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
		Resource: req.resource, CreatedAt: now, ExpiresAt: now.Add(s.opts.CodeTTL), ConsentedBy: consentedBy,
		Toolset: toolset,
	})
	if err != nil {
		s.failAuthorize(w, r, req, err)
		return
	}
	s.redirect(w, r, req, url.Values{"code": {code}})
}

// consentingTenant returns the tenant the person consents for, who they
// are, and the toolset the grant is limited to: a signed-in person choosing
// one of their tenants (the grant then names them), else the tenant a
// pasted credential proves. A tenant token's toolset binds the grant, so an
// agent cannot widen itself by consenting with its own token; otherwise
// the form's optional toolset applies. A refusal the person can fix is a
// *pageError.
func (s *Server) consentingTenant(r *http.Request) (tenantID, consentedBy, toolset string, err error) {
	tenantID = r.PostForm.Get("tenant")
	if tenantID == "" || s.opts.People == nil {
		tenantID, toolset, err = s.proveTenant(r, strings.TrimSpace(r.PostForm.Get("credential")))
		if err == nil && toolset == "" {
			toolset, err = s.chosenToolset(r, tenantID)
		}
		return tenantID, "", toolset, err
	}
	// The actor is read from this request's session, as the console reads
	// it: a session that ended since the page was shown consents to nothing.
	a := s.opts.People.SignedIn(r)
	if a == nil {
		return "", "", "", &pageError{"Your sign-in has ended. Sign in again, or use a tenant token or connect code."}
	}
	if !a.Allows(gtmgate.AccessWrite, tenantID) {
		return "", "", "", &pageError{a.Name + " may not connect applications to tenant " + tenantID +
			": it takes a member or owner role in the tenant, or an operator admin's."}
	}
	t, err := s.opts.Store.GetTenant(r.Context(), tenantID)
	if errors.Is(err, gtmgate.ErrNotFound) {
		return "", "", "", &pageError{"There is no tenant " + tenantID + "."}
	}
	if err != nil {
		return "", "", "", err
	}
	if t.Status != gtmgate.TenantActive {
		return "", "", "", &pageError{"The tenant " + t.ID + " is not active."}
	}
	if toolset, err = s.chosenToolset(r, tenantID); err != nil {
		return "", "", "", err
	}
	return tenantID, a.AuditKey(), toolset, nil
}

// chosenToolset is the toolset the consent form names ("" none), which
// must be one of the tenant's.
func (s *Server) chosenToolset(r *http.Request, tenantID string) (string, error) {
	name := strings.TrimSpace(r.PostForm.Get("toolset"))
	if name == "" {
		return "", nil
	}
	t, err := s.opts.Store.GetTenant(r.Context(), tenantID)
	if err != nil {
		return "", err
	}
	if _, ok := t.Toolsets[name]; !ok {
		return "", &pageError{"The tenant " + tenantID + " has no toolset " + name + "."}
	}
	return name, nil
}

// proveTenant returns the tenant of the credential the person entered: a
// connect code (consumed) or a tenant bearer token. A wrong credential or an
// inactive tenant is a *pageError.
func (s *Server) proveTenant(r *http.Request, credential string) (tenantID, toolset string, err error) {
	if credential == "" {
		return "", "", &pageError{"Enter a tenant token or a connect code."}
	}
	ctx := r.Context()
	hash := secret.HashToken(credential)
	cc, err := s.opts.Store.ConsumeConnectCode(ctx, hash, s.opts.Now().UTC())
	switch {
	case err == nil:
		tenantID = cc.TenantID
	case !errors.Is(err, gtmgate.ErrNotFound):
		return "", "", err
	default:
		t, err := s.opts.Store.FindTenantToken(ctx, hash)
		if errors.Is(err, gtmgate.ErrNotFound) {
			return "", "", &pageError{"That tenant token or connect code is not valid (connect codes work once and expire)."}
		}
		if err != nil {
			return "", "", err
		}
		tenantID, toolset = t.TenantID, t.Toolset
	}
	t, err := s.opts.Store.GetTenant(ctx, tenantID)
	if err != nil {
		return "", "", err
	}
	if t.Status != gtmgate.TenantActive {
		return "", "", &pageError{"The tenant " + t.ID + " is not active."}
	}
	return tenantID, toolset, nil
}
