package oauthsandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// A client ID metadata document (draft-ietf-oauth-client-id-metadata-document;
// MCP authorization 2025-11-25, "Client ID Metadata Documents") is how a
// client with no registration names itself: its client_id is an https URL
// with a path, serving a JSON document whose client_id is that URL and
// whose redirect_uris bound where codes go. The sandbox fetches it at each
// authorization request, bounded in time and size, and never follows a
// redirect. http is accepted only from a loopback host to a sandbox on one
// (the demo, tests).
const (
	metadataFetchTimeout = 5 * time.Second
	// maxClientMetadata bounds a document: a client's metadata is a few
	// hundred bytes.
	maxClientMetadata = 5 << 10
)

// clientDocument is what the sandbox reads of a client ID metadata document.
type clientDocument struct {
	ClientID                string   `json:"client_id"`
	RedirectURIs            []string `json:"redirect_uris"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
	ClientSecret            string   `json:"client_secret"`
}

// isDocumentURL reports whether a client_id names a metadata document
// rather than a client the sandbox registered.
func isDocumentURL(clientID string) bool {
	return strings.HasPrefix(clientID, "https://") || strings.HasPrefix(clientID, "http://")
}

// fetchClient reads and checks the document a client_id names; it returns
// its redirect URIs, or why the client is refused.
func (s *Server) fetchClient(ctx context.Context, clientID string) ([]string, error) {
	u, err := url.Parse(clientID)
	switch {
	case err != nil || u.Host == "" || u.User != nil || u.Fragment != "" || u.Path == "" || u.Path == "/":
		return nil, fmt.Errorf("client_id %q is not a client ID metadata document URL (https, with a path)", clientID)
	case u.Scheme == "https":
	case u.Scheme == "http" && loopback(u.Hostname()) && loopback(hostOf(s.base)):
	default:
		return nil, fmt.Errorf("a client ID metadata document must be served over https")
	}
	ctx, cancel := context.WithTimeout(ctx, metadataFetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, clientID, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := s.opts.MetadataClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetching the client ID metadata document: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("the client ID metadata document answered HTTP %d", resp.StatusCode)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxClientMetadata+1))
	if err != nil {
		return nil, fmt.Errorf("reading the client ID metadata document: %w", err)
	}
	if len(b) > maxClientMetadata {
		return nil, fmt.Errorf("the client ID metadata document is larger than %d bytes", maxClientMetadata)
	}
	var doc clientDocument
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("the client ID metadata document is not a JSON object: %w", err)
	}
	switch {
	case doc.ClientID != clientID:
		return nil, fmt.Errorf("the client ID metadata document names client_id %q, not its own URL", doc.ClientID)
	case doc.ClientSecret != "" || strings.HasPrefix(doc.TokenEndpointAuthMethod, "client_secret"):
		return nil, fmt.Errorf("a client ID metadata document describes a client without a shared secret")
	case len(doc.RedirectURIs) == 0:
		return nil, fmt.Errorf("the client ID metadata document has no redirect_uris")
	}
	s.mu.Lock()
	s.stats.MetadataFetches++
	s.mu.Unlock()
	return doc.RedirectURIs, nil
}

func hostOf(base string) string {
	u, err := url.Parse(base)
	if err != nil {
		return ""
	}
	return u.Hostname()
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
