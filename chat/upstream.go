package chat

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"

	"github.com/gtmgate/gtmgate"
)

// Cancellation causes that tell a time-out of ours from a client going away.
var (
	errUpstreamTimeout = errors.New("chat: upstream time-out")
	errIdleTimeout     = errors.New("chat: upstream stream idle time-out")
)

// upstreamProvider names the model gateway in error details.
const upstreamProvider = "model_gateway"

// newUpstreamRequest builds the request to the model gateway: the client's
// headers minus credentials and hop-by-hop headers, the operator's key, and
// the gateway's request id.
func (h *Handler) newUpstreamRequest(ctx context.Context, method, url string, body []byte, in *http.Request) (*http.Request, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return nil, fmt.Errorf("chat: build upstream request: %w", err)
	}
	for k, vs := range in.Header {
		if forwardRequestHeader(k) {
			req.Header[k] = vs
		}
	}
	if h.auth != "" {
		req.Header["Authorization"] = []string{h.auth}
	}
	if body != nil && req.Header.Get("Content-Type") == "" {
		req.Header["Content-Type"] = []string{"application/json"}
	}
	if id := gtmgate.RequestIDFromContext(ctx); id != "" {
		req.Header["X-Request-Id"] = []string{id}
	}
	return req, nil
}

// droppedRequestHeaders never reach the upstream (canonical names).
var droppedRequestHeaders = map[string]bool{
	"Connection": true, "Keep-Alive": true, "Proxy-Connection": true, "Te": true,
	"Trailer": true, "Transfer-Encoding": true, "Upgrade": true, "Host": true,
	"Content-Length": true, "Accept-Encoding": true, "Cookie": true,
	"Forwarded": true, "X-Forwarded-For": true, "X-Forwarded-Host": true,
	"X-Forwarded-Proto": true, "X-Real-Ip": true, "X-Request-Id": true,
	"Openai-Organization": true, "Openai-Project": true,
}

// credentialWords mark a header as a credential wherever they appear in its
// name (Authorization, X-Api-Key, X-Admin-Key, X-Goog-Api-Key, …).
var credentialWords = []string{"auth", "key", "token", "secret", "cookie", "session", "password", "signature"}

// forwardRequestHeader reports whether a client header may go upstream.
// Credentials are stripped by name so a new SDK header cannot leak a token.
func forwardRequestHeader(name string) bool {
	if droppedRequestHeaders[name] {
		return false
	}
	if name == "Idempotency-Key" {
		return true
	}
	for _, w := range credentialWords {
		if containsFold(name, w) {
			return false
		}
	}
	return true
}

// containsFold reports whether s contains the lower-case ASCII word, ignoring case.
func containsFold(s, word string) bool {
	for i := 0; i+len(word) <= len(s); i++ {
		j := 0
		for ; j < len(word); j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != word[j] {
				break
			}
		}
		if j == len(word) {
			return true
		}
	}
	return false
}

// droppedResponseHeaders are not copied back to the client.
var droppedResponseHeaders = map[string]bool{
	"Connection": true, "Keep-Alive": true, "Proxy-Connection": true, "Te": true,
	"Trailer": true, "Transfer-Encoding": true, "Upgrade": true,
	"Content-Length": true, "Set-Cookie": true,
}

// copyResponseHeaders copies the upstream's end-to-end headers (content type,
// rate-limit and processing headers, Retry-After) to dst.
func copyResponseHeaders(dst, src http.Header) {
	for k, vs := range src {
		if !droppedResponseHeaders[k] {
			dst[k] = vs
		}
	}
}

// upstreamError turns a failed upstream exchange into the gateway's error:
// UPSTREAM_TIMEOUT for our time-outs, UPSTREAM_ERROR otherwise, or
// errClientClosed when the client went away first.
func upstreamError(ctx, clientCtx context.Context, err error) *gtmgate.Error {
	if clientCtx.Err() != nil {
		return errClientClosed(err)
	}
	detail := gtmgate.UpstreamDetail{Provider: upstreamProvider}
	var ne net.Error
	cause := context.Cause(ctx)
	if errors.Is(cause, errUpstreamTimeout) || errors.Is(cause, errIdleTimeout) || (errors.As(err, &ne) && ne.Timeout()) {
		e := gtmgate.Errorf(gtmgate.EUpstreamTimeout, "the model gateway did not answer in time")
		e.Hint, e.Detail, e.Err = "retry later, or ask for fewer tokens", detail, err
		return e
	}
	e := gtmgate.Errorf(gtmgate.EUpstream, "the model gateway could not be reached")
	e.Hint, e.Detail, e.Err = "retry later", detail, err
	return e
}
