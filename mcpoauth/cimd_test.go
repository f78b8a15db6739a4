package mcpoauth

import (
	"strings"
	"testing"
)

// The metadata document is offered only to a server that accepts one and
// can fetch it: https, or loopback to loopback when allowed.
func TestMetadataDocumentClient(t *testing.T) {
	t.Parallel()
	server := func(supported bool, as string) *Discovery {
		return &Discovery{Server: ServerMetadata{ClientIDMetadataDocumentSupported: supported, AuthorizationEndpoint: as + "/authorize"}}
	}
	tests := []struct {
		name, gateway, as string
		supported, loop   bool
		want              bool
		whyNot            string
	}{
		{"https gateway", "https://gw.example", "https://as.example", true, false, true, ""},
		{"not supported", "https://gw.example", "https://as.example", false, false, false, ""},
		{"http gateway", "http://gw.example", "https://as.example", true, true, false, "is not https"},
		{"loopback pair allowed", "http://127.0.0.1:8080", "http://127.0.0.1:9000", true, true, true, ""},
		{"loopback pair not allowed", "http://127.0.0.1:8080", "http://127.0.0.1:9000", true, false, false, "is not https"},
		{"loopback gateway, remote server", "http://127.0.0.1:8080", "https://as.example", true, true, false, "is not https"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, why := MetadataDocumentClient(server(tt.supported, tt.as), ClientMetadataURL(tt.gateway), tt.loop)
			if (c != nil) != tt.want || !strings.Contains(why, tt.whyNot) {
				t.Fatalf("client %+v, why %q; want a client %v, why containing %q", c, why, tt.want, tt.whyNot)
			}
			if c != nil && c.ID != tt.gateway+ClientMetadataPath {
				t.Errorf("client_id %q", c.ID)
			}
		})
	}
	doc := NewClientMetadata("https://gw.example/", "https://gw.example/connect/callback", "Acme (gtmgate)")
	if doc.ClientID != "https://gw.example/connect/mcp-client.json" || doc.TokenEndpointAuthMethod != "none" || doc.RedirectURIs[0] != "https://gw.example/connect/callback" {
		t.Errorf("document %+v", doc)
	}
}
