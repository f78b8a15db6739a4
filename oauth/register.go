package oauth

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/secret"
)

// maxRegistrationBytes caps a registration request body.
const maxRegistrationBytes = 64 << 10

// handleRegister serves POST /oauth/register (RFC 7591): it validates the
// client metadata, stores the client and returns its id, and for a
// confidential client a secret shown only this once.
func (s *Server) handleRegister(w http.ResponseWriter, r *http.Request) {
	if !s.limiter.allow(r) {
		w.Header().Set("Retry-After", "60")
		writeError(w, oauthErr(http.StatusTooManyRequests, errTemporarilyUnavailable, "too many registrations from this address; retry in a minute"))
		return
	}
	meta, perr := decodeRegistration(w, r)
	if perr != nil {
		writeError(w, perr)
		return
	}
	if perr := s.checkRegistration(meta); perr != nil {
		writeError(w, perr)
		return
	}
	c := &gtmgate.OAuthClient{
		ID: gtmgate.NewID("mcp_"), Name: meta.ClientName, RedirectURIs: meta.RedirectURIs,
		AuthMethod: meta.TokenEndpointAuthMethod, Scope: meta.Scope, CreatedAt: s.opts.Now().UTC(),
	}
	resp := &oauthex.ClientRegistrationResponse{ClientRegistrationMetadata: *meta, ClientID: c.ID, ClientIDIssuedAt: c.CreatedAt}
	if c.AuthMethod != authNone {
		sec, err := secret.NewToken("mcps_")
		if err != nil {
			writeError(w, oauthErr(http.StatusInternalServerError, errServerError, "could not create a secret"))
			return
		}
		c.SecretHash = secret.HashToken(sec)
		resp.ClientSecret = sec
	}
	if err := s.opts.Store.CreateOAuthClient(r.Context(), c); err != nil {
		s.opts.Logger.Error("oauth: store client", "err", err)
		writeError(w, oauthErr(http.StatusInternalServerError, errServerError, "the registration could not be stored"))
		return
	}
	writeJSON(w, http.StatusCreated, resp)
}

// decodeRegistration reads a size-limited JSON registration request.
func decodeRegistration(w http.ResponseWriter, r *http.Request) (*oauthex.ClientRegistrationMetadata, *protocolError) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRegistrationBytes))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, oauthErr(http.StatusRequestEntityTooLarge, errInvalidClientMetadata, "registration request exceeds 64 KiB")
		}
		return nil, oauthErr(http.StatusBadRequest, errInvalidClientMetadata, "request body could not be read")
	}
	var meta oauthex.ClientRegistrationMetadata
	if err := json.Unmarshal(body, &meta); err != nil {
		return nil, oauthErr(http.StatusBadRequest, errInvalidClientMetadata, "request body is not valid client metadata JSON: "+err.Error())
	}
	return &meta, nil
}

// checkRegistration validates the metadata and fills in defaults: public
// client when no auth method is given (what MCP clients mean), the
// authorization_code and refresh_token grants, the code response type.
func (s *Server) checkRegistration(m *oauthex.ClientRegistrationMetadata) *protocolError {
	bad := func(code, desc string) *protocolError { return oauthErr(http.StatusBadRequest, code, desc) }
	if len(m.RedirectURIs) == 0 {
		return bad(errInvalidRedirectURI, "redirect_uris is required")
	}
	if len(m.RedirectURIs) > 20 {
		return bad(errInvalidRedirectURI, "at most 20 redirect_uris")
	}
	for _, u := range m.RedirectURIs {
		if err := validateRedirectURI(u, s.opts.RedirectSchemes); err != nil {
			return bad(errInvalidRedirectURI, err.Error())
		}
	}
	if m.TokenEndpointAuthMethod == "" {
		m.TokenEndpointAuthMethod = authNone
	}
	if !slices.Contains(authMethods, m.TokenEndpointAuthMethod) {
		return bad(errInvalidClientMetadata, "token_endpoint_auth_method must be one of "+strings.Join(authMethods, ", "))
	}
	if len(m.GrantTypes) == 0 {
		m.GrantTypes = []string{"authorization_code", "refresh_token"}
	}
	for _, g := range m.GrantTypes {
		if g != "authorization_code" && g != "refresh_token" {
			return bad(errInvalidClientMetadata, "unsupported grant type "+g)
		}
	}
	if len(m.ResponseTypes) == 0 {
		m.ResponseTypes = []string{"code"}
	}
	if len(m.ResponseTypes) != 1 || m.ResponseTypes[0] != "code" {
		return bad(errInvalidClientMetadata, `response_types must be ["code"]`)
	}
	if m.Scope != "" {
		scopes, err := parseScope(m.Scope, nil)
		if err != nil {
			return bad(errInvalidClientMetadata, err.Error())
		}
		m.Scope = strings.Join(scopes, " ")
	}
	if len(m.ClientName) > 200 {
		return bad(errInvalidClientMetadata, "client_name is longer than 200 characters")
	}
	return nil
}
