package mcpoauth

import (
	"net/url"
	"strings"

	"github.com/gtmgate/gtmgate/egress"
)

// A client ID metadata document (CIMD) lets gtmgate be a client of an
// authorization server it never registered at: its client_id is the https
// URL of a JSON document describing it, which the server fetches. The MCP
// authorization specification (2025-11-25, "Client Registration") puts it
// second, after a pre-registered client and before dynamic registration,
// for servers whose metadata says client_id_metadata_document_supported;
// the document follows draft-ietf-oauth-client-id-metadata-document (its
// client_id is its own URL, exactly; the URL is https with a path; a
// public client, token_endpoint_auth_method none).
// https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization

// ClientMetadataPath is where the gateway serves its client ID metadata
// document, beside the connect callback it names.
const ClientMetadataPath = "/connect/mcp-client.json"

// ClientMetadata is a client ID metadata document.
type ClientMetadata struct {
	ClientID                string   `json:"client_id"`
	ClientName              string   `json:"client_name"`
	ClientURI               string   `json:"client_uri,omitempty"`
	RedirectURIs            []string `json:"redirect_uris"`
	GrantTypes              []string `json:"grant_types"`
	ResponseTypes           []string `json:"response_types"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
}

// ClientMetadataURL is the document's URL, and so the client_id, of the
// gateway at gatewayURL.
func ClientMetadataURL(gatewayURL string) string {
	return strings.TrimSuffix(gatewayURL, "/") + ClientMetadataPath
}

// NewClientMetadata is the gateway's document: a public client using the
// connect callback redirectURI for the authorization-code grant and its
// refresh.
func NewClientMetadata(gatewayURL, redirectURI, clientName string) ClientMetadata {
	return ClientMetadata{ClientID: ClientMetadataURL(gatewayURL), ClientName: clientName,
		ClientURI: strings.TrimSuffix(gatewayURL, "/") + "/", RedirectURIs: []string{redirectURI},
		GrantTypes: []string{"authorization_code", "refresh_token"}, ResponseTypes: []string{"code"},
		TokenEndpointAuthMethod: "none"}
}

// MetadataDocumentClient is the client named by the document at
// documentURL when d's authorization server accepts client ID metadata
// documents and can fetch this one: documentURL is https, or, when
// allowLoopback (the demo, tests), http with both it and the authorization
// server on loopback hosts. Otherwise nil and why not, for the error that
// names what the server supports.
func MetadataDocumentClient(d *Discovery, documentURL string, allowLoopback bool) (*Client, string) {
	if !d.Server.ClientIDMetadataDocumentSupported {
		return nil, ""
	}
	u, err := url.Parse(documentURL)
	if err != nil || u.Host == "" {
		return nil, "gtmgate's public URL is not an absolute URL"
	}
	if u.Scheme == "https" {
		return &Client{ID: documentURL}, ""
	}
	as, _ := url.Parse(d.Server.AuthorizationEndpoint)
	if allowLoopback && u.Scheme == "http" && egress.LoopbackHost(u.Hostname()) && as != nil && egress.LoopbackHost(as.Hostname()) {
		return &Client{ID: documentURL}, ""
	}
	return nil, "it accepts a client ID metadata document, but gtmgate's public URL " + strings.TrimSuffix(documentURL, ClientMetadataPath) +
		" is not https, so it could not fetch gtmgate's"
}
