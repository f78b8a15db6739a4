package refresh

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// tokenResponse is a successful RFC 6749 §5.1 response.
type tokenResponse struct {
	AccessToken  string    `json:"access_token"`
	TokenType    string    `json:"token_type"`
	ExpiresIn    expiresIn `json:"expires_in"`
	RefreshToken string    `json:"refresh_token"`
}

// expiresIn accepts a number or, as some providers send it, a numeric string.
type expiresIn int64

func (e *expiresIn) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "" || s == "null" {
		return nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("expires_in: %q is not a number", s)
	}
	*e = expiresIn(f)
	return nil
}

// errorResponse is an RFC 6749 §5.2 error response.
type errorResponse struct {
	Error       string `json:"error"`
	Description string `json:"error_description"`
}

// reauthCodes are the OAuth errors only a new grant or new client
// credentials can fix.
var reauthCodes = map[string]bool{"invalid_grant": true, "invalid_client": true, "unauthorized_client": true}

// callEndpoint exchanges o's refresh token for a new access token. It sends
// client_secret_post first; an invalid_client answer is retried once with
// client_secret_basic, which the process then remembers for the account.
func (r *Refresher) callEndpoint(ctx context.Context, a account, o *gtmgate.ProviderOAuth) (*tokenResponse, *failure) {
	_, basic := r.basicAuth.Load(a.key())
	res, f := r.post(ctx, o, basic)
	if f != nil && f.oauthCode == "invalid_client" && !basic && o.ClientSecret != "" {
		if res2, f2 := r.post(ctx, o, true); f2 == nil {
			r.basicAuth.Store(a.key(), true)
			return res2, nil
		}
	}
	return res, f
}

// post sends one refresh request.
func (r *Refresher) post(ctx context.Context, o *gtmgate.ProviderOAuth, basic bool) (*tokenResponse, *failure) {
	ctx, cancel := context.WithTimeout(ctx, r.opts.EndpointTimeout)
	defer cancel()
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {o.RefreshToken}}
	if o.Resource != "" {
		// An MCP server's grant names its server at every token request
		// (RFC 8707; MCP authorization 2025-11-25, "Resource Parameter
		// Implementation"), the refresh as the code exchange did.
		form.Set("resource", o.Resource)
	}
	if !basic {
		form.Set("client_id", o.ClientID)
		if o.ClientSecret != "" {
			form.Set("client_secret", o.ClientSecret)
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.TokenEndpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, &failure{message: "the token endpoint URL is invalid"}
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "gtmgate")
	if basic {
		// RFC 6749 §2.3.1: both parts form-encoded before Basic encoding.
		req.SetBasicAuth(url.QueryEscape(o.ClientID), url.QueryEscape(o.ClientSecret))
	}
	resp, err := r.opts.HTTPClient.Do(req)
	if err != nil {
		if isTimeout(err) {
			return nil, &failure{timeout: true, message: fmt.Sprintf("the token endpoint did not answer within %s", r.opts.EndpointTimeout)}
		}
		return nil, &failure{message: "the token endpoint could not be reached: " + redact([]byte(err.Error()), o)}
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponseBytes+1))
	if err != nil {
		return nil, &failure{timeout: isTimeout(err), status: resp.StatusCode, message: "the token endpoint's response could not be read"}
	}
	if len(body) > MaxResponseBytes {
		return nil, &failure{status: resp.StatusCode, message: fmt.Sprintf("the token endpoint's response exceeds %d bytes", MaxResponseBytes)}
	}
	if resp.StatusCode/100 == 2 {
		return parseToken(resp.StatusCode, body, o)
	}
	return nil, parseFailure(resp.StatusCode, body, o)
}

func parseToken(status int, body []byte, o *gtmgate.ProviderOAuth) (*tokenResponse, *failure) {
	var t tokenResponse
	if err := json.Unmarshal(body, &t); err != nil || t.AccessToken == "" {
		return nil, &failure{status: status, message: fmt.Sprintf("the token endpoint answered HTTP %d without an access_token in a JSON body", status),
			body: upstream.Excerpt(upstream.Redact(body, o.ClientSecret, o.RefreshToken))}
	}
	if t.TokenType == "" {
		t.TokenType = "Bearer"
	}
	return &t, nil
}

func parseFailure(status int, body []byte, o *gtmgate.ProviderOAuth) *failure {
	var e errorResponse
	_ = json.Unmarshal(body, &e) // a non-JSON body leaves e empty
	f := &failure{oauthCode: e.Error, status: status, reauth: reauthCodes[e.Error],
		body: upstream.Excerpt(upstream.Redact(body, o.ClientSecret, o.RefreshToken))}
	// Redact before clipping, so that no part of a secret is kept.
	f.message = fmt.Sprintf("the token endpoint answered HTTP %d", status)
	if e.Error != "" {
		f.message += " " + clip(redact([]byte(e.Error), o), 64)
	}
	if e.Description != "" {
		f.message += ": " + clip(redact([]byte(e.Description), o), 200)
	}
	return f
}

// redact removes o's secrets and anything shaped like a credential.
func redact(b []byte, o *gtmgate.ProviderOAuth) string {
	return upstream.Redact(b, o.ClientSecret, o.RefreshToken).String()
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}

func isTimeout(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
