// Package googleapitest holds the checks every Google adapter's tests run
// against its sandbox: a refused token, a read retried after a 5xx, a
// mutation not retried, a provider 400 surfacing Google's message, and
// Google's usage limits sent as 403.
package googleapitest

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/googleapi"
	"github.com/gtmgate/gtmgate/provider/providertest"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// Faulter is the fault hook a Google sandbox exposes.
type Faulter interface {
	FailNext(status, n int)
	Requests() int
}

// refusedToken is a TokenSource whose token and refreshed token are both
// refused, so the upstream client refreshes once and then reports the 401.
type refusedToken struct{ stale, fresh string }

func (r refusedToken) Token(context.Context) (string, error) { return r.stale, nil }

func (r refusedToken) Refresh(context.Context, string) (string, error) { return r.fresh, nil }

// UpstreamError asserts err is UPSTREAM_ERROR with the given provider status
// and returns it.
func UpstreamError(t testing.TB, err error, status int) *gtmgate.Error {
	t.Helper()
	var e *gtmgate.Error
	if !errors.As(err, &e) || e.Code != gtmgate.EUpstream {
		t.Fatalf("error = %v, want %s", err, gtmgate.EUpstream)
	}
	d, ok := e.Detail.(gtmgate.UpstreamDetail)
	if !ok || d.Status != status {
		t.Fatalf("error_detail = %#v, want status %d", e.Detail, status)
	}
	return e
}

// CheckBadToken runs input with refused tokens: a static token ends in
// REAUTH_REQUIRED; a token that refreshes into another refused one ends in
// UPSTREAM_ERROR with status 401, Google's message, and neither token in the
// message or excerpt.
func CheckBadToken(t *testing.T, tool gtmgate.Tool, account gtmgate.Account, input string) {
	t.Helper()
	_, err := providertest.Run(t, tool, account, "stale-token-0123456789", input)
	if code := gtmgate.ErrorCode(err); code != gtmgate.EReauthRequired {
		t.Errorf("static refused token: code = %s (%v), want %s", code, err, gtmgate.EReauthRequired)
	}
	ts := refusedToken{stale: "stale-token-0123456789", fresh: "fresh-token-9876543210"}
	_, err = providertest.RunWith(t, tool, account, ts, input)
	e := UpstreamError(t, err, 401)
	d := e.Detail.(gtmgate.UpstreamDetail)
	for _, tok := range []string{ts.stale, ts.fresh} {
		if strings.Contains(d.Body, tok) || strings.Contains(e.Message, tok) {
			t.Errorf("token %q leaked into the error: %q / %q", tok, e.Message, d.Body)
		}
	}
	if !strings.Contains(e.Message, "invalid authentication credentials") || !strings.Contains(d.Body, "UNAUTHENTICATED") {
		t.Errorf("error lacks Google's message: %q body %q", e.Message, d.Body)
	}
}

// CheckReadRetried fails the next attempt with a 500 and expects the read to
// succeed on the retry, two requests in all. It returns the result.
func CheckReadRetried(t *testing.T, f Faulter, tool gtmgate.Tool, account gtmgate.Account, token, input string) any {
	t.Helper()
	before := f.Requests()
	f.FailNext(500, 1)
	res, err := providertest.Run(t, tool, account, token, input)
	if err != nil {
		t.Fatalf("read after one 500: %v", err)
	}
	if n := f.Requests() - before; n != 2 {
		t.Errorf("requests = %d, want 2 (one failure, one retry)", n)
	}
	return res
}

// CheckNotRetried fails the next attempt with a 500 and expects the mutation
// to fail with UPSTREAM_ERROR after exactly one request.
func CheckNotRetried(t *testing.T, f Faulter, tool gtmgate.Tool, account gtmgate.Account, token, input string) {
	t.Helper()
	before := f.Requests()
	f.FailNext(500, 1)
	_, err := providertest.Run(t, tool, account, token, input)
	UpstreamError(t, err, 500)
	if n := f.Requests() - before; n != 1 {
		t.Errorf("requests = %d, want 1: a mutation must not be retried", n)
	}
}

// CheckBadRequest expects input to fail with UPSTREAM_ERROR 400 whose message
// carries Google's message (wantMessage is a substring of it).
func CheckBadRequest(t *testing.T, tool gtmgate.Tool, account gtmgate.Account, token, input, wantMessage string) {
	t.Helper()
	_, err := providertest.Run(t, tool, account, token, input)
	e := UpstreamError(t, err, 400)
	if !strings.Contains(e.Message, wantMessage) {
		t.Errorf("message = %q, want it to contain %q", e.Message, wantMessage)
	}
}

// Code returns the error code of err ("" for nil), for table tests.
func Code(err error) string { return gtmgate.ErrorCode(err) }

// Get walks a decoded JSON value by keys (strings for objects, ints for arrays).
func Get(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			s, _ := v.([]any)
			if k < 0 || k >= len(s) {
				return nil
			}
			v = s[k]
		}
	}
	return v
}

// UsageFaulter is a Google sandbox that can answer with Google's
// usage-limit errors.
type UsageFaulter interface {
	Faulter
	FailNextWith(f googleapi.Fault, n int)
}

// CheckUsageLimits runs a read (input) against Google's usage limits sent as
// HTTP 403: a rate limit is retried once and passes; met twice it is
// RATE_LIMITED whose hint says to wait, not to re-authorise; a daily quota is
// RATE_LIMITED at once (a retry within the call cannot pass it); and a 403
// for a missing scope stays the credential refusal it is.
func CheckUsageLimits(t *testing.T, f UsageFaulter, tool gtmgate.Tool, account gtmgate.Account, token, input string) {
	t.Helper()
	tests := []struct {
		name     string
		fault    googleapi.Fault
		times    int
		code     string
		hint     string
		requests int
	}{
		{"per-user rate limit passes on the retry", googleapi.FaultUserRateLimit, 1, "", "", 2},
		{"per-project rate limit met twice", googleapi.FaultRateLimit, 2, gtmgate.ERateLimited, googleapi.HintRateLimit, 2},
		{"daily quota is not retried", googleapi.FaultDailyLimit, 1, gtmgate.ERateLimited, googleapi.HintQuota, 1},
		{"missing scope is a refused token", googleapi.FaultInsufficientPermissions, 1, gtmgate.EUpstream, upstream.HintTokenRefused, 1},
	}
	for _, tc := range tests {
		before := f.Requests()
		f.FailNextWith(tc.fault, tc.times)
		_, err := providertest.Run(t, tool, account, token, input)
		if n := f.Requests() - before; n != tc.requests {
			t.Errorf("%s: requests = %d, want %d", tc.name, n, tc.requests)
		}
		if tc.code == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		var e *gtmgate.Error
		if !errors.As(err, &e) || e.Code != tc.code {
			t.Errorf("%s: error = %v, want %s", tc.name, err, tc.code)
			continue
		}
		d, _ := e.Detail.(gtmgate.UpstreamDetail)
		if d.Status != tc.fault.Status || !strings.Contains(d.Body, tc.fault.Reason) {
			t.Errorf("%s: error_detail = %#v, want Google's %d %s", tc.name, e.Detail, tc.fault.Status, tc.fault.Reason)
		}
		if e.Hint != tc.hint {
			t.Errorf("%s: hint = %q, want %q", tc.name, e.Hint, tc.hint)
		}
		if tc.code == gtmgate.ERateLimited && !strings.Contains(e.Message, tc.fault.Message) {
			t.Errorf("%s: message = %q, want Google's %q", tc.name, e.Message, tc.fault.Message)
		}
	}
}
