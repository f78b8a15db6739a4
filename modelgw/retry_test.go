package modelgw

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// roundTripFunc is an in-memory transport, so the fake clock of a synctest
// bubble can advance while the client waits.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func answer(status int, header http.Header, body string) *http.Response {
	if header == nil {
		header = http.Header{}
	}
	return &http.Response{StatusCode: status, Header: header, Body: io.NopCloser(strings.NewReader(body))}
}

func TestRetryAfterWaitsOnTheClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		calls := 0
		rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
			calls++
			if calls == 1 {
				return answer(429, http.Header{"Retry-After": {"5"}}, `{"error":{"message":"slow"}}`), nil
			}
			return answer(200, nil, okBody), nil
		})
		c, err := New("http://gw.test/v1", "k", &Options{HTTPClient: &http.Client{Transport: rt}})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if _, err := c.Chat(context.Background(), &ChatRequest{Model: "m"}); err != nil {
			t.Fatalf("Chat: %v", err)
		}
		if waited := time.Since(start); waited != 5*time.Second || calls != 2 {
			t.Errorf("waited %v over %d calls, want 5s over 2", waited, calls)
		}
	})
}

func TestAttemptTimeoutOnTheClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
			<-r.Context().Done()
			return nil, r.Context().Err()
		})
		c, err := New("http://gw.test/v1", "k", &Options{HTTPClient: &http.Client{Transport: rt},
			Timeout: 10 * time.Second, MaxRetries: 1, Backoff: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		_, err = c.Chat(context.Background(), &ChatRequest{Model: "m"})
		if !errors.Is(err, ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want ErrTimeout", err)
		}
		// Two attempts of 10s and one jittered backoff in [0.5s, 1s].
		if d := time.Since(start); d < 20500*time.Millisecond || d > 21*time.Second {
			t.Errorf("gave up after %v, want 20.5s..21s", d)
		}
	})
}

func TestBackoffWaitEndsWithCaller(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rt := roundTripFunc(func(*http.Request) (*http.Response, error) {
			return answer(503, http.Header{"Retry-After": {"20"}}, "down"), nil
		})
		c, err := New("http://gw.test/v1", "k", &Options{HTTPClient: &http.Client{Transport: rt}})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		_, err = c.Chat(ctx, &ChatRequest{Model: "m"})
		if !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "503") {
			t.Errorf("err = %v, want ErrTimeout mentioning the last 503", err)
		}
	})
}

func TestRetryAfterParse(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name   string
		value  string
		want   time.Duration
		wantOK bool
	}{
		{name: "seconds", value: "3", want: 3 * time.Second, wantOK: true},
		{name: "fraction", value: "0.5", want: 500 * time.Millisecond, wantOK: true},
		{name: "http date", value: now.Add(7 * time.Second).Format(http.TimeFormat), want: 7 * time.Second, wantOK: true},
		{name: "past date", value: now.Add(-time.Hour).Format(http.TimeFormat), want: 0, wantOK: true},
		{name: "absent", value: ""},
		{name: "garbage", value: "soon"},
		{name: "negative", value: "-1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, ok := retryAfter(http.Header{"Retry-After": {tt.value}}, now)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("retryAfter(%q) = %v, %v; want %v, %v", tt.value, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}
