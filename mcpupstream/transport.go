package mcpupstream

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptrace"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	gtmgate "github.com/gtmgate/gtmgate"
)

// attempt records what the HTTP requests of one operation (a tool call, a
// listing, the handshake) did, for the decisions the go-sdk's errors cannot
// support alone: whether the upstream may have received the request (so a
// tool call may not be sent again), and which HTTP status it answered.
//
// The go-sdk builds each POST with the context of the call that sends it, so
// an attempt travels to the RoundTripper in the context.
type attempt struct {
	mu sync.Mutex
	o  outcome
}

// outcome is what an attempt recorded.
type outcome struct {
	// reached is set when a POST may have reached the upstream's MCP
	// handling: its body was written and the answer was not 401, 403, 404
	// (the upstream does not know the session) or a redirect.
	reached bool
	// posts counts the POSTs made.
	posts int
	// status is the last non-2xx status of a POST; auth the last 401/403.
	status, auth int
	// tooLarge is set when a response body exceeded the bound.
	tooLarge bool
}

type attemptKey struct{}

func withAttempt(ctx context.Context, a *attempt) context.Context {
	return context.WithValue(ctx, attemptKey{}, a)
}

func attemptFrom(ctx context.Context) *attempt {
	a, _ := ctx.Value(attemptKey{}).(*attempt)
	return a
}

func (a *attempt) snapshot() outcome {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.o
}

// statusError is what the RoundTripper returns instead of a 401 or 403
// answer to a POST: the go-sdk then reports the request as rejected by the
// transport, which fails that request only, not the whole session.
type statusError struct{ code int }

func (e *statusError) Error() string {
	return fmt.Sprintf("the upstream answered HTTP %d %s", e.code, http.StatusText(e.code))
}

// tokenError is a failure to get a client-credentials access token.
type tokenError struct{ err error }

func (e *tokenError) Error() string { return "getting an access token: " + e.err.Error() }
func (e *tokenError) Unwrap() error { return e.err }

// grantError is a failure to get the access token of an oauth server's
// grant; rejected says the upstream refused the token with a challenge.
// account is whose grant it was ("" when none could be picked); listing
// says a per-person server's listing found no person's grant to use.
type grantError struct {
	err      error
	rejected bool
	account  string
	listing  bool
}

// errNoPerson is why a call to a per-person server has no grant.
var errNoPerson = errors.New("the call acts for no person")

func (e *grantError) Error() string {
	if e.rejected {
		return "the upstream refused the grant's access token (HTTP 401)"
	}
	return "getting the grant's access token: " + e.err.Error()
}
func (e *grantError) Unwrap() error { return e.err }

// configError is an auth configuration gtmgate cannot use; the request is
// not sent.
type configError struct{ msg string }

func (e *configError) Error() string { return e.msg }

// errTooLarge ends the read of a response body over the bound.
var errTooLarge = errors.New("the upstream's response body is too large")

// authTransport authenticates every request to one upstream server as its
// configuration says, records what happened in the request's attempt, and
// bounds JSON response bodies.
type authTransport struct {
	base    http.RoundTripper
	auth    gtmgate.MCPServerAuth
	maxBody int64
	// progress, when set, receives the progress notifications of every
	// event stream as it is read.
	progress func(*mcp.ProgressNotificationParams)

	// client credentials
	cc          *clientcredentials.Config
	tokenClient *http.Client
	tsMu        sync.Mutex
	ts          oauth2.TokenSource
	// oauth: the grants, and whose grant this transport sends
	grants                  GrantSource
	tenant, server, account string

	// lastToken is the access token last sent, so that what the upstream
	// says can be scrubbed of it (see Pool.AccessToken).
	lastToken atomic.Pointer[string]
}

func newAuthTransport(base http.RoundTripper, tokenClient *http.Client, auth gtmgate.MCPServerAuth, maxBody int64) *authTransport {
	t := &authTransport{base: base, auth: auth, maxBody: maxBody, tokenClient: tokenClient}
	if auth.Kind == gtmgate.MCPAuthClientCredentials {
		t.cc = &clientcredentials.Config{
			ClientID:     auth.ClientID,
			ClientSecret: auth.Secret,
			TokenURL:     auth.TokenURL,
			Scopes:       auth.Scopes,
		}
	}
	return t
}

// tokenSource returns the cached, self-refreshing token source, made on
// first use. Its context only carries the egress-checked HTTP client (with
// its own timeout): the source outlives any one request.
func (t *authTransport) tokenSource() oauth2.TokenSource {
	t.tsMu.Lock()
	defer t.tsMu.Unlock()
	if t.ts == nil {
		ctx := context.WithValue(context.Background(), oauth2.HTTPClient, t.tokenClient)
		t.ts = t.cc.TokenSource(ctx)
	}
	return t.ts
}

// token returns the cached access token, or fetches one; a fetch is
// bounded by the token client's timeout and, for this request, by ctx.
func (t *authTransport) token(ctx context.Context) (*oauth2.Token, error) {
	type result struct {
		tok *oauth2.Token
		err error
	}
	ts := t.tokenSource()
	ch := make(chan result, 1)
	go func() {
		tok, err := ts.Token()
		ch <- result{tok, err}
	}()
	select {
	case r := <-ch:
		return r.tok, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// forgetToken drops the cached token, after the upstream rejected it.
func (t *authTransport) forgetToken() {
	t.tsMu.Lock()
	t.ts = nil
	t.tsMu.Unlock()
}

func (t *authTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	return t.roundTrip(req, false)
}

// roundTrip sends req; retried says it is the one retry of an oauth
// request whose token the upstream refused and the refresher renewed.
func (t *authTransport) roundTrip(req *http.Request, retried bool) (*http.Response, error) {
	r := req.Clone(req.Context())
	switch t.auth.Kind {
	case gtmgate.MCPAuthNone, "":
	case gtmgate.MCPAuthBearer:
		r.Header.Set("Authorization", "Bearer "+t.auth.Secret)
	case gtmgate.MCPAuthHeader:
		if t.auth.Header == "" {
			closeBody(req)
			return nil, &configError{"its auth has no header name"}
		}
		r.Header.Set(t.auth.Header, t.auth.Secret)
	case gtmgate.MCPAuthClientCredentials:
		if t.auth.TokenURL == "" {
			closeBody(req)
			return nil, &configError{"its auth has no token_url"}
		}
		tok, err := t.token(req.Context())
		if err != nil {
			closeBody(req)
			return nil, &tokenError{err: err}
		}
		r.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		t.lastToken.Store(&tok.AccessToken)
	case gtmgate.MCPAuthOAuth:
		if t.grants == nil {
			closeBody(req)
			return nil, &configError{"this gateway keeps no OAuth grants for upstream MCP servers"}
		}
		tok, err := t.grants.GrantToken(req.Context(), t.tenant, t.server, t.account, "")
		if err != nil {
			closeBody(req)
			return nil, &grantError{err: err, account: t.account}
		}
		r.Header.Set("Authorization", "Bearer "+tok)
		t.lastToken.Store(&tok)
	default:
		closeBody(req)
		return nil, &configError{fmt.Sprintf("its auth kind %q is not supported", t.auth.Kind)}
	}

	a := attemptFrom(req.Context())
	post := a != nil && req.Method == http.MethodPost
	var written atomic.Bool
	if post {
		r = r.WithContext(httptrace.WithClientTrace(r.Context(), &httptrace.ClientTrace{
			WroteRequest: func(i httptrace.WroteRequestInfo) {
				if i.Err == nil {
					written.Store(true)
				}
			},
		}))
	}
	resp, err := t.base.RoundTrip(r)
	if post {
		a.mu.Lock()
		a.o.posts++
		switch {
		case err != nil:
			// A request not entirely written cannot have been handled.
			a.o.reached = a.o.reached || written.Load()
		case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
			a.o.auth, a.o.status = resp.StatusCode, resp.StatusCode
		case resp.StatusCode == http.StatusNotFound || resp.StatusCode >= 300 && resp.StatusCode < 400:
			// the upstream does not know the session, or redirects (not followed)
			a.o.status = resp.StatusCode
		default:
			a.o.reached = true
			if resp.StatusCode >= 300 {
				a.o.status = resp.StatusCode
			}
		}
		a.mu.Unlock()
	}
	if err != nil {
		return nil, err
	}
	if req.Method == http.MethodPost && (resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden) {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		if t.cc != nil {
			t.forgetToken()
		}
		// An oauth server's 401 with a challenge says the access token no
		// longer holds: the grant is refreshed and the request sent once
		// more; when it cannot be, the grant is marked for
		// re-authorisation, and the call says so.
		if t.auth.Kind == gtmgate.MCPAuthOAuth && resp.StatusCode == http.StatusUnauthorized && resp.Header.Get("WWW-Authenticate") != "" {
			var sent string
			if tok := t.lastToken.Load(); tok != nil {
				sent = *tok
			}
			fresh, err := t.grants.GrantToken(req.Context(), t.tenant, t.server, t.account, sent)
			if err == nil && fresh != sent && !retried && (req.Body == nil || req.GetBody != nil) {
				again := req.Clone(req.Context())
				if req.GetBody != nil {
					if again.Body, err = req.GetBody(); err != nil {
						return nil, err
					}
				}
				return t.roundTrip(again, true)
			}
			if err != nil && gtmgate.ErrorCode(err) != gtmgate.EReauthRequired {
				return nil, &grantError{err: err, account: t.account} // the refresh may work later
			}
			t.grants.GrantRejected(context.WithoutCancel(req.Context()), t.tenant, t.server, t.account, sent)
			return nil, &grantError{err: &statusError{code: resp.StatusCode}, rejected: true, account: t.account}
		}
		return nil, &statusError{code: resp.StatusCode}
	}
	// Bound what is read of a JSON body (the go-sdk reads it whole); an
	// event stream is bounded per event (StreamableClientTransport.MaxEventSize).
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch {
	case ct == "text/event-stream" && t.progress != nil:
		resp.Body = &progressBody{rc: resp.Body, route: t.progress, max: int(t.maxBody), a: a}
	case ct != "text/event-stream" && t.maxBody > 0:
		resp.Body = &limitedBody{rc: resp.Body, left: t.maxBody, a: a}
	}
	throttleUnprompted(req, resp, ct) // see throttle.go
	return resp, nil
}

func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}

// limitedBody fails a read past its bound with errTooLarge.
type limitedBody struct {
	rc   io.ReadCloser
	left int64
	a    *attempt
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// Tell a body that ends right at the bound from a longer one.
		var one [1]byte
		n, err := b.rc.Read(one[:])
		if n == 0 && err != nil {
			return 0, err
		}
		if b.a != nil {
			b.a.mu.Lock()
			b.a.o.tooLarge = true
			b.a.mu.Unlock()
		}
		return 0, errTooLarge
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *limitedBody) Close() error { return b.rc.Close() }
