package oauth

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/gtmgate/gtmgate"
)

// authRequest is a validated authorization request.
type authRequest struct {
	client      *gtmgate.OAuthClient
	redirectURI string
	state       string
	challenge   string
	scopes      []string
	resource    string // canonical audience
	rawResource string
}

// pageError is an authorization error that must not be sent to the redirect
// URI (the client or the redirect URI is not trusted): it is shown instead.
type pageError struct{ message string }

func (e *pageError) Error() string { return e.message }

// parseAuthRequest validates the parameters of an authorization request (in
// the query of a GET, in the form of a POST). Errors found before the
// redirect URI is trusted are *pageError; later ones are *protocolError to
// be sent to the client's redirect URI.
func (s *Server) parseAuthRequest(ctx context.Context, form url.Values) (*authRequest, error) {
	clientID := form.Get("client_id")
	c, err := s.client(ctx, clientID)
	if errors.Is(err, errUnknownClient) {
		return nil, &pageError{"This application is not registered with the gateway (unknown client_id)."}
	}
	if err != nil {
		s.opts.Logger.Warn("oauth: resolve client", "client_id", clientID, "err", err)
		return nil, &pageError{"The application's client metadata could not be fetched or is invalid."}
	}
	req := &authRequest{client: c, redirectURI: form.Get("redirect_uri"), state: form.Get("state"), rawResource: form.Get("resource")}
	if req.redirectURI == "" && len(c.RedirectURIs) == 1 {
		req.redirectURI = c.RedirectURIs[0]
	}
	if !allowsRedirect(c, req.redirectURI) {
		return nil, &pageError{"The redirect_uri does not match any the application registered."}
	}
	bad := func(code, desc string) (*authRequest, error) {
		return req, oauthErr(http.StatusBadRequest, code, desc)
	}
	if form.Get("response_type") != "code" {
		return bad(errUnsupportedResponseType, "response_type must be code")
	}
	req.challenge = form.Get("code_challenge")
	method := form.Get("code_challenge_method")
	switch {
	case req.challenge == "":
		return bad(errInvalidRequest, "code_challenge is required (PKCE with S256)")
	case method != "S256":
		return bad(errInvalidRequest, "code_challenge_method must be S256; plain is not supported")
	case !challengePattern.MatchString(req.challenge):
		return bad(errInvalidRequest, "code_challenge is not a base64url SHA-256")
	}
	allowed := Scopes()
	if c.Scope != "" {
		allowed = strings.Fields(c.Scope)
	}
	if req.scopes, err = parseScope(form.Get("scope"), allowed); err != nil {
		return bad(errInvalidScope, err.Error())
	}
	if !subset(req.scopes, allowed) {
		return bad(errInvalidScope, "scope exceeds what the client registered")
	}
	var ok bool
	if req.resource, ok = s.canonicalResource(req.rawResource); !ok {
		return bad(errInvalidTarget, "resource must be "+s.resource)
	}
	return req, nil
}

// handleAuthorize serves the authorization endpoint: a GET (or a POST
// without a decision) shows the consent page; a POST with a decision is the
// person's answer.
func (s *Server) handleAuthorize(w http.ResponseWriter, r *http.Request) {
	setPageHeaders(w)
	r.Body = http.MaxBytesReader(w, r.Body, maxRegistrationBytes)
	if err := r.ParseForm(); err != nil {
		s.renderError(w, http.StatusBadRequest, "The request could not be read.")
		return
	}
	decision := r.PostForm.Get("decision")
	if r.Method == http.MethodPost && decision != "" {
		s.handleDecision(w, r, decision)
		return
	}
	req, err := s.parseAuthRequest(r.Context(), r.Form)
	if err != nil {
		s.failAuthorize(w, r, req, err)
		return
	}
	s.renderConsent(w, r, req, http.StatusOK, "")
}

// failAuthorize shows a page error or redirects a protocol error to the client.
func (s *Server) failAuthorize(w http.ResponseWriter, r *http.Request, req *authRequest, err error) {
	var pe *pageError
	if errors.As(err, &pe) {
		s.renderError(w, http.StatusBadRequest, pe.message)
		return
	}
	var oe *protocolError
	if errors.As(err, &oe) && req != nil {
		s.redirect(w, r, req, url.Values{"error": {oe.Code}, "error_description": {oe.Description}})
		return
	}
	s.opts.Logger.Error("oauth: authorize", "err", err)
	s.renderError(w, http.StatusInternalServerError, "Something went wrong on the gateway. Try again later.")
}

// redirect sends the browser back to the client with params, state and iss
// (RFC 9207) added to the redirect URI's own query.
func (s *Server) redirect(w http.ResponseWriter, r *http.Request, req *authRequest, params url.Values) {
	u, err := url.Parse(req.redirectURI)
	if err != nil {
		s.renderError(w, http.StatusBadRequest, "The redirect_uri is invalid.")
		return
	}
	q := u.Query()
	for k, vs := range params {
		q[k] = vs
	}
	if req.state != "" {
		q.Set("state", req.state)
	}
	q.Set("iss", s.issuer)
	u.RawQuery = q.Encode()
	http.Redirect(w, r, u.String(), http.StatusSeeOther)
}
