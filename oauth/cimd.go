package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gtmgate/gtmgate"
)

// maxMetadataBytes caps a client ID metadata document.
const maxMetadataBytes = 64 << 10

// maxCachedDocuments bounds the metadata cache.
const maxCachedDocuments = 1024

// clientDocument is the part of a client ID metadata document the server uses.
type clientDocument struct {
	ClientID                string   `json:"client_id"`
	ClientName              string   `json:"client_name"`
	RedirectURIs            []string `json:"redirect_uris"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
	Scope                   string   `json:"scope"`
}

// metadataFetcher fetches client ID metadata documents through an SSRF-guarded
// client and caches them.
type metadataFetcher struct {
	client *http.Client
	opts   ClientMetadataOptions
	now    func() time.Time

	mu    sync.Mutex
	cache map[string]cachedClient
}

type cachedClient struct {
	client  *gtmgate.OAuthClient
	expires time.Time
}

func newMetadataFetcher(opts ClientMetadataOptions, now func() time.Time) *metadataFetcher {
	tr := &http.Transport{
		Proxy:                 nil, // a proxy would dial for us, past the guard
		DialContext:           guardedDial(opts.Timeout, opts.AllowLoopback),
		TLSClientConfig:       opts.TLSConfig,
		TLSHandshakeTimeout:   opts.Timeout,
		ResponseHeaderTimeout: opts.Timeout,
		MaxIdleConns:          16,
		IdleConnTimeout:       30 * time.Second,
	}
	return &metadataFetcher{
		client: &http.Client{
			Transport: tr,
			Timeout:   opts.Timeout,
			CheckRedirect: func(*http.Request, []*http.Request) error {
				return errors.New("redirects are not followed")
			},
		},
		opts: opts, now: now, cache: map[string]cachedClient{},
	}
}

// isMetadataClientID reports whether a client_id is a metadata document URL.
func isMetadataClientID(id string) bool { return strings.HasPrefix(id, "https://") }

// validateMetadataURL checks a client_id URL: https, a host, a path other
// than "/", no fragment, credentials or dot segments.
func validateMetadataURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil || u.Fragment != "" {
		return fmt.Errorf("client_id %q is not a valid https URL", raw)
	}
	if u.Path == "" || u.Path == "/" {
		return fmt.Errorf("client_id %q must have a path", raw)
	}
	for _, seg := range strings.Split(u.Path, "/") {
		if seg == "." || seg == ".." {
			return fmt.Errorf("client_id %q has dot segments", raw)
		}
	}
	return nil
}

// get returns the client a metadata document describes, from the cache or
// fetched.
func (f *metadataFetcher) get(ctx context.Context, clientID string) (*gtmgate.OAuthClient, error) {
	now := f.now()
	f.mu.Lock()
	c, ok := f.cache[clientID]
	f.mu.Unlock()
	if ok && now.Before(c.expires) {
		return c.client, nil
	}
	client, err := f.fetch(ctx, clientID)
	if err != nil {
		return nil, fmt.Errorf("client metadata %s: %w", clientID, err)
	}
	f.mu.Lock()
	if len(f.cache) >= maxCachedDocuments {
		clear(f.cache)
	}
	f.cache[clientID] = cachedClient{client: client, expires: now.Add(f.opts.CacheTTL)}
	f.mu.Unlock()
	return client, nil
}

func (f *metadataFetcher) fetch(ctx context.Context, clientID string) (*gtmgate.OAuthClient, error) {
	if err := validateMetadataURL(clientID); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, f.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, clientID, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("status %d", resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxMetadataBytes+1))
	if err != nil {
		return nil, err
	}
	if len(body) > maxMetadataBytes {
		return nil, fmt.Errorf("document exceeds %d bytes", maxMetadataBytes)
	}
	var doc clientDocument
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	return documentClient(clientID, &doc)
}

// documentClient checks a document and turns it into a public client.
func documentClient(clientID string, doc *clientDocument) (*gtmgate.OAuthClient, error) {
	if doc.ClientID != clientID {
		return nil, fmt.Errorf("document client_id %q differs from its URL", doc.ClientID)
	}
	if len(doc.RedirectURIs) == 0 {
		return nil, errors.New("document has no redirect_uris")
	}
	if m := doc.TokenEndpointAuthMethod; m != "" && m != authNone {
		return nil, fmt.Errorf("token_endpoint_auth_method %q is not supported for metadata documents; use none", m)
	}
	name := doc.ClientName
	if name == "" {
		name = clientID
	}
	return &gtmgate.OAuthClient{ID: clientID, Name: name, RedirectURIs: doc.RedirectURIs, AuthMethod: authNone, Scope: doc.Scope}, nil
}
