package oauth

import (
	"encoding/json"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// serverMetadata is the authorization server metadata (RFC 8414). It is not
// oauthex.AuthServerMeta because that type always emits jwks_uri, which an
// opaque-token server without signing keys must leave out.
type serverMetadata struct {
	Issuer                            string   `json:"issuer"`
	AuthorizationEndpoint             string   `json:"authorization_endpoint"`
	TokenEndpoint                     string   `json:"token_endpoint"`
	RegistrationEndpoint              string   `json:"registration_endpoint"`
	RevocationEndpoint                string   `json:"revocation_endpoint"`
	ScopesSupported                   []string `json:"scopes_supported"`
	ResponseTypesSupported            []string `json:"response_types_supported"`
	ResponseModesSupported            []string `json:"response_modes_supported"`
	GrantTypesSupported               []string `json:"grant_types_supported"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported"`
	RevocationEndpointAuthMethods     []string `json:"revocation_endpoint_auth_methods_supported"`
	CodeChallengeMethodsSupported     []string `json:"code_challenge_methods_supported"`
	ClientIDMetadataDocumentSupported bool     `json:"client_id_metadata_document_supported"`
	AuthorizationResponseIssSupported bool     `json:"authorization_response_iss_parameter_supported"`
	ServiceDocumentation              string   `json:"service_documentation,omitempty"`
}

// authMethods are the token endpoint client authentication methods.
var authMethods = []string{authNone, authBasic, authPost}

const (
	authNone  = "none"
	authBasic = "client_secret_basic"
	authPost  = "client_secret_post"
)

func (s *Server) serverMetadata() *serverMetadata {
	return &serverMetadata{
		Issuer:                            s.issuer,
		AuthorizationEndpoint:             s.issuer + "/oauth/authorize",
		TokenEndpoint:                     s.issuer + "/oauth/token",
		RegistrationEndpoint:              s.issuer + "/oauth/register",
		RevocationEndpoint:                s.issuer + "/oauth/revoke",
		ScopesSupported:                   Scopes(),
		ResponseTypesSupported:            []string{"code"},
		ResponseModesSupported:            []string{"query"},
		GrantTypesSupported:               []string{"authorization_code", "refresh_token"},
		TokenEndpointAuthMethodsSupported: authMethods,
		RevocationEndpointAuthMethods:     authMethods,
		CodeChallengeMethodsSupported:     []string{"S256"},
		ClientIDMetadataDocumentSupported: true,
		AuthorizationResponseIssSupported: true,
	}
}

// handleServerMetadata serves /.well-known/oauth-authorization-server and
// /.well-known/openid-configuration (MCP clients try both).
func (s *Server) handleServerMetadata(w http.ResponseWriter, r *http.Request) {
	writeMetadata(w, s.serverMetadata())
}

// handleResourceMetadata serves the protected resource metadata of /mcp
// (RFC 9728) at the root and the path-suffixed well-known URL.
func (s *Server) handleResourceMetadata(w http.ResponseWriter, r *http.Request) {
	writeMetadata(w, &oauthex.ProtectedResourceMetadata{
		Resource:               s.resource,
		AuthorizationServers:   []string{s.issuer},
		ScopesSupported:        Scopes(),
		BearerMethodsSupported: []string{"header"},
		ResourceName:           "gtmgate MCP tool gateway",
	})
}

func writeMetadata(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	w.Write(b)
}
