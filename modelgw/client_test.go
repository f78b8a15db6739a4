package modelgw

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// reply is one canned upstream answer.
type reply struct {
	status int
	header map[string]string
	body   string
}

// fakeGateway answers with replies in order (the last one repeats) and keeps
// what it received.
type fakeGateway struct {
	mu      sync.Mutex
	replies []reply
	bodies  [][]byte
	auth    []string
}

func (f *fakeGateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.bodies = append(f.bodies, body)
	f.auth = append(f.auth, r.Header.Get("Authorization"))
	rep := f.replies[min(len(f.bodies), len(f.replies))-1]
	f.mu.Unlock()
	for k, v := range rep.header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(rep.status)
	io.WriteString(w, rep.body)
}

func (f *fakeGateway) calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.bodies)
}

// newTestClient starts fake on httptest and returns a client whose waits are
// recorded instead of slept.
func newTestClient(t *testing.T, h http.Handler, opts *Options) (*Client, *[]time.Duration) {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c, err := New(srv.URL+"/v1", "gw-key", opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	var waits []time.Duration
	c.sleep = func(ctx context.Context, d time.Duration) error {
		waits = append(waits, d)
		return ctx.Err()
	}
	return c, &waits
}

const okBody = `{"id":"c1","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":7,"completion_tokens":2,"total_tokens":9}}`

func TestChatTypedResponse(t *testing.T) {
	t.Parallel()
	fake := &fakeGateway{replies: []reply{{status: 200, body: okBody}}}
	c, _ := newTestClient(t, fake, nil)
	temp := 0.2
	resp, err := c.Chat(context.Background(), &ChatRequest{
		Model: "m", Temperature: &temp, MaxTokens: 50,
		Messages:       []Message{{Role: RoleUser, Content: "hello"}},
		ResponseFormat: json.RawMessage(`{"type":"json_object"}`),
	})
	if err != nil {
		t.Fatalf("Chat: %v", err)
	}
	if got := resp.Choices[0].Message.Content; got != "hi" {
		t.Errorf("content = %q, want hi", got)
	}
	if resp.Usage == nil || resp.Usage.PromptTokens != 7 || resp.Usage.CompletionTokens != 2 {
		t.Errorf("usage = %+v, want 7/2", resp.Usage)
	}
	if fake.auth[0] != "Bearer gw-key" {
		t.Errorf("Authorization = %q, want the gateway key", fake.auth[0])
	}
	var sent map[string]any
	if err := json.Unmarshal(fake.bodies[0], &sent); err != nil {
		t.Fatalf("sent body: %v", err)
	}
	if rf, _ := sent["response_format"].(map[string]any); rf["type"] != "json_object" {
		t.Errorf("response_format = %v, want passthrough", sent["response_format"])
	}
	if sent["temperature"] != 0.2 || sent["max_tokens"] != 50.0 {
		t.Errorf("temperature/max_tokens = %v/%v", sent["temperature"], sent["max_tokens"])
	}
}

func TestChatRetries(t *testing.T) {
	t.Parallel()
	rateLimited := reply{status: 429, header: map[string]string{"Retry-After": "3"},
		body: `{"error":{"message":"slow down","type":"rate_limit_error","param":null,"code":"rate_limit_exceeded"}}`}
	serverErr := reply{status: 500, body: `{"error":{"message":"boom","type":"server_error","code":null}}`}
	badReq := reply{status: 400, body: `{"error":{"message":"bad model","type":"invalid_request_error","param":"model","code":"model_not_found"}}`}
	ok := reply{status: 200, body: okBody}
	tests := []struct {
		name       string
		replies    []reply
		opts       *Options
		wantCalls  int
		wantStatus int // 0: success
		checkWaits func(t *testing.T, waits []time.Duration)
	}{
		{name: "429 honours Retry-After", replies: []reply{rateLimited, ok}, wantCalls: 2,
			checkWaits: exactWaits(3 * time.Second)},
		{name: "500 backs off then succeeds", replies: []reply{serverErr, ok}, wantCalls: 2,
			checkWaits: func(t *testing.T, w []time.Duration) {
				if len(w) != 1 || w[0] < 100*time.Millisecond || w[0] > 200*time.Millisecond {
					t.Errorf("waits = %v, want one in [100ms, 200ms]", w)
				}
			}},
		{name: "backoff grows", replies: []reply{serverErr}, opts: &Options{Backoff: time.Second, MaxRetries: 3},
			wantCalls: 4, wantStatus: 500, checkWaits: func(t *testing.T, w []time.Duration) {
				for i, lo := range []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second} {
					if w[i] < lo || w[i] > 2*lo {
						t.Errorf("wait %d = %v, want in [%v, %v]", i, w[i], lo, 2*lo)
					}
				}
			}},
		{name: "400 is not retried", replies: []reply{badReq, ok}, wantCalls: 1, wantStatus: 400,
			checkWaits: exactWaits()},
		{name: "500 exhausts retries", replies: []reply{serverErr}, wantCalls: 3, wantStatus: 500},
		{name: "retries disabled", replies: []reply{serverErr, ok}, opts: &Options{MaxRetries: -1},
			wantCalls: 1, wantStatus: 500},
		{name: "Retry-After beyond limit gives up", replies: []reply{rateLimited, ok},
			opts: &Options{MaxRetryAfter: time.Second}, wantCalls: 1, wantStatus: 429},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake := &fakeGateway{replies: tt.replies}
			c, waits := newTestClient(t, fake, tt.opts)
			_, err := c.Chat(context.Background(), &ChatRequest{Model: "m", Messages: []Message{{Role: RoleUser, Content: "x"}}})
			if got := fake.calls(); got != tt.wantCalls {
				t.Errorf("upstream calls = %d, want %d", got, tt.wantCalls)
			}
			var apiErr *APIError
			switch {
			case tt.wantStatus == 0 && err != nil:
				t.Fatalf("Chat: %v", err)
			case tt.wantStatus != 0 && !errors.As(err, &apiErr):
				t.Fatalf("err = %v, want *APIError", err)
			case tt.wantStatus != 0 && apiErr.Status != tt.wantStatus:
				t.Errorf("status = %d, want %d", apiErr.Status, tt.wantStatus)
			}
			if tt.checkWaits != nil {
				tt.checkWaits(t, *waits)
			}
		})
	}
}

func exactWaits(want ...time.Duration) func(t *testing.T, got []time.Duration) {
	return func(t *testing.T, got []time.Duration) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("waits = %v, want %v", got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("waits = %v, want %v", got, want)
			}
		}
	}
}

func TestChatAPIErrorParsed(t *testing.T) {
	t.Parallel()
	fake := &fakeGateway{replies: []reply{{status: 400,
		body: `{"error":{"message":"bad model","type":"invalid_request_error","param":"model","code":"model_not_found"}}`}}}
	c, _ := newTestClient(t, fake, nil)
	_, err := c.Chat(context.Background(), &ChatRequest{Model: "m"})
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("err = %v, want *APIError", err)
	}
	want := APIError{Status: 400, Type: "invalid_request_error", Code: "model_not_found", Param: "model", Message: "bad model"}
	if *apiErr != want {
		t.Errorf("APIError = %+v, want %+v", *apiErr, want)
	}
}

func TestChatNetworkErrorRetried(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens any more: connection refused
	c, err := New(url, "k", nil)
	if err != nil {
		t.Fatal(err)
	}
	var waits int
	c.sleep = func(context.Context, time.Duration) error { waits++; return nil }
	_, err = c.Chat(context.Background(), &ChatRequest{Model: "m"})
	var apiErr *APIError
	if err == nil || errors.As(err, &apiErr) {
		t.Fatalf("err = %v, want a network error", err)
	}
	if waits != 2 {
		t.Errorf("retries = %d, want 2", waits)
	}
}
