package upstream

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gtmgate/gtmgate"
)

// bodyClassifier reads the test's provider: a body naming "slow-down" is a
// rate limit with a 10ms signal (retry_after 1), "token-expired" a refused credential (as Meta
// sends it, HTTP 400), "forbidden-scope" a credential refusal, not a limit.
func bodyClassifier(resp *Response, f Failure) Failure {
	switch body := string(resp.Body); {
	case strings.Contains(body, "slow-down"):
		f.Code, f.Retry, f.RetryAfter, f.Hint = gtmgate.ERateLimited, true, 10*time.Millisecond, "wait"
	case strings.Contains(body, "token-expired"):
		f.Code, f.Refresh, f.Hint = gtmgate.EReauthRequired, true, "re-connect the account"
	}
	return f
}

// unrenewable is a token the gateway cannot renew, as toolrun's without OAuth refresh.
type unrenewable struct{}

func (unrenewable) Token(context.Context) (string, error) { return "stale-token-123", nil }
func (unrenewable) Refresh(context.Context, string) (string, error) {
	return "", gtmgate.Errorf(gtmgate.EReauthRequired, "no OAuth refresh is configured").WithHint("store a fresh token")
}

func TestClassify(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		statuses  []int
		body      string
		mutating  bool
		token     gtmgate.TokenSource
		wantCode  string
		wantHint  string
		wantAfter int
		wantCalls int32
	}{
		{name: "403 rate limit retried", statuses: []int{403, 200}, body: `{"error":"slow-down"}`, wantCalls: 2},
		{name: "403 rate limit twice", statuses: []int{403}, body: `{"error":"slow-down"}`, wantCode: gtmgate.ERateLimited,
			wantHint: "wait", wantAfter: 1, wantCalls: 2},
		{name: "403 rate limit not retried for a mutation", statuses: []int{403, 200}, body: `{"error":"slow-down"}`, mutating: true,
			wantCode: gtmgate.ERateLimited, wantHint: "wait", wantAfter: 1, wantCalls: 1},
		{name: "403 without a classified reason keeps the token hint", statuses: []int{403}, body: `{"error":"forbidden-scope"}`,
			wantCode: gtmgate.EUpstream, wantHint: HintTokenRefused, wantCalls: 1},
		{name: "400 credential refusal refreshes", statuses: []int{400, 200}, body: `{"error":"token-expired"}`,
			token: &refreshingToken{fresh: "fresh"}, wantCalls: 2},
		{name: "400 credential refusal refreshes a mutation too", statuses: []int{400, 200}, body: `{"error":"token-expired"}`,
			mutating: true, token: &refreshingToken{fresh: "fresh"}, wantCalls: 2},
		{name: "400 credential refused after refresh", statuses: []int{400}, body: `{"error":"token-expired"}`,
			token: &refreshingToken{fresh: "fresh"}, wantCode: gtmgate.EReauthRequired, wantHint: "re-connect the account", wantCalls: 2},
		{name: "400 credential not renewable gets the provider's hint first", statuses: []int{400}, body: `{"error":"token-expired"}`,
			token: unrenewable{}, wantCode: gtmgate.EReauthRequired, wantHint: "re-connect the account; or store a fresh token", wantCalls: 1},
		{name: "401 not renewable keeps the renewal's hint", statuses: []int{401}, body: `{"error":"unknown"}`,
			token: unrenewable{}, wantCode: gtmgate.EReauthRequired, wantHint: "store a fresh token", wantCalls: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, calls := scripted(t, tt.statuses, nil, tt.body)
			c := MustNew(Options{Provider: "test", BaseURL: srv.URL, Backoff: time.Millisecond, Classify: bodyClassifier})
			req := &Request{Method: "GET", Path: "/x", Mutating: tt.mutating}
			if tt.token != nil {
				req.Token = tt.token
			}
			err := c.Do(context.Background(), req, nil)
			if got := gtmgate.ErrorCode(err); got != tt.wantCode {
				t.Fatalf("code %q, want %q (%v)", got, tt.wantCode, err)
			}
			if calls.Load() != tt.wantCalls {
				t.Errorf("%d calls, want %d", calls.Load(), tt.wantCalls)
			}
			if err == nil {
				return
			}
			e := gtmgate.AsError(err)
			if e.Hint != tt.wantHint {
				t.Errorf("hint %q, want %q", e.Hint, tt.wantHint)
			}
			if e.RetryAfter != tt.wantAfter {
				t.Errorf("retry_after %d, want %d", e.RetryAfter, tt.wantAfter)
			}
			if d, ok := e.Detail.(gtmgate.UpstreamDetail); !ok || d.Status != tt.statuses[min(int(calls.Load()), len(tt.statuses))-1] {
				t.Errorf("detail %+v", e.Detail)
			}
		})
	}
}

// roundTripper answers in memory, so the retry's wait runs on synctest's clock.
type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestRetryWaitsForTheProvidersSignal: a read is sent again after the wait
// the provider asked for, or after Backoff when it asked for none; a wait
// longer than MaxRetryAfter is not held but reported as retry_after.
func TestRetryWaitsForTheProvidersSignal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		status     int
		header     http.Header
		signal     time.Duration // what the provider's Classify reads from the body
		wantCalls  int
		wantWait   time.Duration
		wantCode   string
		wantSecond int
	}{
		{name: "Retry-After on 429", status: 429, header: http.Header{"Retry-After": {"2"}}, wantCalls: 2, wantWait: 2 * time.Second, wantCode: gtmgate.ERateLimited, wantSecond: 2},
		{name: "Retry-After on 503", status: 503, header: http.Header{"Retry-After": {"1"}}, wantCalls: 2, wantWait: time.Second, wantCode: gtmgate.EUpstream},
		{name: "no signal waits the back-off", status: 429, wantCalls: 2, wantWait: 100 * time.Millisecond, wantCode: gtmgate.ERateLimited},
		{name: "provider's own signal", status: 403, signal: 1500 * time.Millisecond, wantCalls: 2, wantWait: 1500 * time.Millisecond, wantCode: gtmgate.ERateLimited, wantSecond: 2},
		{name: "signal past MaxRetryAfter is not waited", status: 403, signal: 30 * time.Second, wantCalls: 1, wantCode: gtmgate.ERateLimited, wantSecond: 30},
		{name: "Retry-After past MaxRetryAfter is not waited", status: 429, header: http.Header{"Retry-After": {"60"}}, wantCalls: 1, wantCode: gtmgate.ERateLimited, wantSecond: 60},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				var sent []time.Time
				rt := roundTripper(func(r *http.Request) (*http.Response, error) {
					sent = append(sent, time.Now())
					return &http.Response{StatusCode: tt.status, Header: tt.header.Clone(), Body: io.NopCloser(bytes.NewReader([]byte(`{"message":"limited"}`))), Request: r}, nil
				})
				classify := func(resp *Response, f Failure) Failure {
					if tt.signal > 0 {
						f.Code, f.Retry, f.RetryAfter = gtmgate.ERateLimited, true, tt.signal
					}
					return f
				}
				c := MustNew(Options{Provider: "test", BaseURL: "http://provider.test", HTTPClient: &http.Client{Transport: rt}, Classify: classify})
				err := c.Do(context.Background(), &Request{Method: "GET", Path: "/x"}, nil)
				if len(sent) != tt.wantCalls {
					t.Fatalf("%d requests, want %d", len(sent), tt.wantCalls)
				}
				if tt.wantCalls == 2 {
					if got := sent[1].Sub(sent[0]); got != tt.wantWait {
						t.Errorf("waited %s, want %s", got, tt.wantWait)
					}
				}
				var e *gtmgate.Error
				if !errors.As(err, &e) || e.Code != tt.wantCode {
					t.Fatalf("error %v, want %s", err, tt.wantCode)
				}
				if e.RetryAfter != tt.wantSecond {
					t.Errorf("retry_after %d, want %d", e.RetryAfter, tt.wantSecond)
				}
			})
		})
	}
}
