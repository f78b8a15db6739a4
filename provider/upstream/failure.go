package upstream

import (
	"net/http"
	"time"

	"github.com/gtmgate/gtmgate"
)

// Failure is how the client treats a provider answer that is not a 2xx: the
// code and hint of the error it returns, whether a read is sent again and
// after how long, and whether the token is renewed first. StatusFailure reads
// it from the HTTP status alone; a provider whose status says less than its
// body (a rate limit sent as 403, an expired token sent as 400) corrects it
// with Options.Classify.
type Failure struct {
	// Code is the gtmgate code of the error returned (UPSTREAM_ERROR when empty).
	Code string
	// Hint is the error's hint; empty for none.
	Hint string
	// Retry marks a failure that may pass: a read is sent once more, after
	// RetryAfter (Options.Backoff when it is 0), unless the wait is longer
	// than Options.MaxRetryAfter. Mutations are never sent again.
	Retry bool
	// RetryAfter is how long the provider asked to wait (Retry-After, or its
	// own signal in the body or headers); 0 when it did not say.
	// RATE_LIMITED reports it as retry_after, in whole seconds rounded up.
	RetryAfter time.Duration
	// Refresh marks a refused credential: the client renews the token and
	// sends the request once more, mutations included (the provider did not
	// act on it), as after a 401. If renewal fails its error is returned;
	// with Code REAUTH_REQUIRED the renewal's REAUTH_REQUIRED gets Hint first.
	Refresh bool
}

// Hints the status reading gives; classifiers reuse them.
const (
	// HintTokenRefused is the hint of a credential the provider refused.
	HintTokenRefused = "the tenant's provider token was refused: store a fresh one with PUT /admin/tokens or seed OAuth refresh"
	// HintRateLimited is the hint of a provider rate limit.
	HintRateLimited = "wait and retry; the provider's Retry-After is in retry_after when it sent one"
)

// StatusFailure reads a failure from the status and Retry-After alone: 429 is
// RATE_LIMITED and retried, 5xx retried, 401 refreshes the token, and 401 and
// 403 carry the hint that the token was refused.
func StatusFailure(resp *Response) Failure {
	f := Failure{Code: gtmgate.EUpstream}
	f.RetryAfter, _ = ParseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
	switch {
	case resp.Status == http.StatusTooManyRequests:
		f.Code, f.Retry, f.Hint = gtmgate.ERateLimited, true, HintRateLimited
	case resp.Status == http.StatusUnauthorized:
		f.Refresh, f.Hint = true, HintTokenRefused
	case resp.Status == http.StatusForbidden:
		f.Hint = HintTokenRefused
	case resp.Status >= 500:
		f.Retry = true
	}
	return f
}

// failure reads resp with the status, then the provider's Classify.
func (c *Client) failure(resp *Response) Failure {
	f := StatusFailure(resp)
	if c.opts.Classify != nil {
		f = c.opts.Classify(resp, f)
	}
	if f.Code == "" {
		f.Code = gtmgate.EUpstream
	}
	return f
}

// retryWait returns how long to wait before sending a read again, and false
// when the provider asks for a longer wait than the client holds a call.
func (c *Client) retryWait(f Failure) (time.Duration, bool) {
	if f.RetryAfter <= 0 {
		return c.opts.Backoff, true
	}
	return f.RetryAfter, f.RetryAfter <= c.opts.MaxRetryAfter
}

// seconds is d in whole seconds, rounded up, as retry_after reports it.
func seconds(d time.Duration) int {
	if d <= 0 {
		return 0
	}
	return int((d + time.Second - 1) / time.Second)
}
