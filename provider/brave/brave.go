// Package brave adapts the Brave Search API (web and news search) to the
// gateway's web_search and news_search tools, and provides a sandbox of it.
package brave

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// Provider is the provider key of Brave Search accounts and tokens.
const Provider = "brave"

// DefaultBaseURL is the root of the real Brave Search API.
const DefaultBaseURL = "https://api.search.brave.com"

// Options returns the upstream client options for Brave at baseURL: the
// tenant's token travels in X-Subscription-Token, not Authorization, and a
// 429 waits for Brave's X-RateLimit-Reset (classify).
func Options(baseURL string) upstream.Options {
	return upstream.Options{
		Provider:  Provider,
		BaseURL:   baseURL,
		Timeout:   10 * time.Second,
		Authorize: upstream.HeaderAuth("X-Subscription-Token"),
		Header:    http.Header{"Cache-Control": {"no-cache"}},
		Classify:  classify,
	}
}

// Tools returns web_search and news_search calling Brave through c.
func Tools(c *upstream.Client) []gtmgate.Tool {
	return []gtmgate.Tool{webSearchTool(c), newsSearchTool(c)}
}

// braveError is Brave's error body: {"type":"ErrorResponse","error":{…}}.
type braveError struct {
	Type  string `json:"type"`
	Error struct {
		ID     string         `json:"id"`
		Status int            `json:"status"`
		Code   string         `json:"code"`
		Detail string         `json:"detail"`
		Meta   map[string]any `json:"meta,omitempty"`
	} `json:"error"`
	Time int64 `json:"time"`
}

// withBraveDetail adds Brave's error detail to an upstream error's message:
// Brave puts its human message in error.detail, which the generic extractor
// does not read. The excerpt it parses is already redacted.
func withBraveDetail(err error) error {
	var e *gtmgate.Error
	if !errors.As(err, &e) {
		return err
	}
	d, ok := e.Detail.(gtmgate.UpstreamDetail)
	if !ok || d.Body == "" || strings.Contains(e.Message, "): ") {
		return err
	}
	var be braveError
	if json.Unmarshal([]byte(d.Body), &be) != nil || be.Error.Detail == "" {
		return err
	}
	if e.Code == gtmgate.EUpstream {
		e.Message = fmt.Sprintf("%s: %s", e.Message, be.Error.Detail)
	}
	return e
}

// search calls one Brave search endpoint (its path after /res/{version})
// and decodes the JSON answer into out.
func search(ctx context.Context, c *upstream.Client, call *gtmgate.Call, path string, p *searchParams, out any) error {
	path = "/res/" + c.APIVersion() + path
	err := c.Do(ctx, &upstream.Request{Method: http.MethodGet, Path: path, Query: p.query(), Token: call.Token}, out)
	if err != nil {
		return withBraveDetail(fmt.Errorf("brave: %s: %w", path, err))
	}
	return nil
}
