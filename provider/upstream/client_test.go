package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
)

// scripted answers each request with the next status of its script.
func scripted(t *testing.T, statuses []int, header http.Header, body string) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		status := statuses[len(statuses)-1]
		if i < len(statuses) {
			status = statuses[i]
		}
		for k, v := range header {
			w.Header()[k] = v
		}
		w.WriteHeader(status)
		w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

type refreshingToken struct {
	fresh     string
	refreshes atomic.Int32
	fail      bool
}

func (r *refreshingToken) Token(context.Context) (string, error) { return "stale-token-123", nil }
func (r *refreshingToken) Refresh(context.Context, string) (string, error) {
	r.refreshes.Add(1)
	if r.fail {
		return "", gtmgate.Errorf(gtmgate.EReauthRequired, "cannot refresh")
	}
	return r.fresh, nil
}

func TestDo(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		statuses  []int
		header    http.Header
		body      string
		mutating  bool
		token     *refreshingToken
		wantCode  string
		wantCalls int32
	}{
		{name: "ok", statuses: []int{200}, body: `{"a":1}`, wantCalls: 1},
		{name: "read retried after 500", statuses: []int{500, 200}, body: `{}`, wantCalls: 2},
		{name: "read retried once only", statuses: []int{503}, body: `{"message":"down"}`, wantCode: gtmgate.EUpstream, wantCalls: 2},
		{name: "mutation never retried", statuses: []int{500, 200}, mutating: true, wantCode: gtmgate.EUpstream, wantCalls: 1},
		{name: "429 short retry-after retried", statuses: []int{429, 200}, header: http.Header{"Retry-After": {"0"}}, wantCalls: 2},
		{name: "429 long retry-after is rate limited", statuses: []int{429}, header: http.Header{"Retry-After": {"60"}}, wantCode: gtmgate.ERateLimited, wantCalls: 1},
		{name: "400 is upstream error", statuses: []int{400}, body: `{"error":{"message":"bad field"}}`, wantCode: gtmgate.EUpstream, wantCalls: 1},
		{name: "401 refreshes once then succeeds", statuses: []int{401, 200}, token: &refreshingToken{fresh: "fresh"}, wantCalls: 2},
		{name: "401 twice after refresh", statuses: []int{401}, token: &refreshingToken{fresh: "fresh"}, wantCode: gtmgate.EUpstream, wantCalls: 2},
		{name: "401 refresh impossible keeps detail", statuses: []int{401}, token: &refreshingToken{fail: true}, wantCode: gtmgate.EReauthRequired, wantCalls: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, calls := scripted(t, tt.statuses, tt.header, tt.body)
			c := MustNew(Options{Provider: "test", BaseURL: srv.URL, Backoff: time.Millisecond})
			req := &Request{Method: "GET", Path: "/x", Mutating: tt.mutating}
			if tt.token != nil {
				req.Token = tt.token
			}
			var out map[string]any
			err := c.Do(context.Background(), req, &out)
			if got := gtmgate.ErrorCode(err); got != tt.wantCode {
				t.Fatalf("code %q, want %q (%v)", got, tt.wantCode, err)
			}
			if calls.Load() != tt.wantCalls {
				t.Fatalf("%d calls, want %d", calls.Load(), tt.wantCalls)
			}
			if err != nil {
				var e *gtmgate.Error
				errors.As(err, &e)
				d, ok := e.Detail.(gtmgate.UpstreamDetail)
				if !ok || d.Provider != "test" || d.Status == 0 {
					t.Fatalf("detail %+v", e.Detail)
				}
				if strings.Contains(e.Error(), "stale-token-123") || strings.Contains(d.Body, "stale-token-123") {
					t.Fatal("token leaked")
				}
			}
		})
	}
}

func TestTimeout(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer srv.Close()
	c := MustNew(Options{Provider: "slow", BaseURL: srv.URL, Timeout: 20 * time.Millisecond})
	err := c.Do(context.Background(), &Request{Method: "GET", Path: "/", Mutating: true}, nil)
	if gtmgate.ErrorCode(err) != gtmgate.EUpstreamTimeout {
		t.Fatalf("got %v", err)
	}
}

func TestRedact(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, secret, leak string }{
		{`{"access_token":"abc123456789","x":1}`, "", "abc123456789"},
		{`Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload`, "", "eyJhbGciOiJIUzI1NiJ9"},
		{`https://x/cb?code=1&client_secret=s3cr3tvalue&y=2`, "", "s3cr3tvalue"},
		{`your token my-provider-token is wrong`, "my-provider-token", "my-provider-token"},
	}
	for _, tt := range tests {
		if got := Redact([]byte(tt.in), tt.secret).String(); strings.Contains(got, tt.leak) {
			t.Errorf("Redact(%q) = %q still holds %q", tt.in, got, tt.leak)
		}
	}
	long := strings.Repeat("é", 600)
	if ex := Excerpt(Redacted(long)); len(ex) > ExcerptBytes+len("…") || !strings.HasSuffix(ex, "…") {
		t.Fatalf("excerpt of %d bytes", len(ex))
	}
}

func TestParseRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"3", 3 * time.Second, true},
		{"", 0, false},
		{"-1", 0, false},
		{"soon", 0, false},
		{"Thu, 01 Jan 2026 00:00:10 GMT", 10 * time.Second, true},
		{"Wed, 31 Dec 2025 00:00:00 GMT", 0, true},
	}
	for _, tt := range tests {
		got, ok := ParseRetryAfter(tt.in, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseRetryAfter(%q) = %v %v, want %v %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func FuzzRedactAndMessage(f *testing.F) {
	for _, s := range []string{`{"error":{"message":"m"}}`, `{"message":"x","access_token":"y"}`, "Bearer abcdefghijkl", `{"error":"invalid_grant","error_description":"d"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := Redact([]byte(s), "topsecretvalue")
		if strings.Contains(string(r), "topsecretvalue") {
			t.Fatal("secret survived redaction")
		}
		Excerpt(r)
		ProviderMessage([]byte(s))
		ParseRetryAfter(s, time.Now())
	})
}

// TestDoKeepsNoBorrowedBytes: Do reads each body into a pooled buffer; what
// it decodes must not alias that buffer, which the next call overwrites.
func TestDoKeepsNoBorrowedBytes(t *testing.T) {
	t.Parallel()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// No Content-Length: chunked, as most providers answer.
		w.(http.Flusher).Flush()
		fmt.Fprintf(w, `{"name":"answer-%d","raw":{"n":%d},"list":["x%d"]}`, n.Add(1), n.Load(), n.Load())
	}))
	t.Cleanup(srv.Close)
	c := MustNew(Options{Provider: "test", BaseURL: srv.URL})
	type answer struct {
		Name string          `json:"name"`
		Raw  json.RawMessage `json:"raw"`
		List []string        `json:"list"`
	}
	var kept []answer
	for range 20 {
		var a answer
		if err := c.Do(context.Background(), &Request{Method: "GET", Path: "/x"}, &a); err != nil {
			t.Fatal(err)
		}
		kept = append(kept, a)
	}
	for i, a := range kept {
		want := answer{Name: fmt.Sprintf("answer-%d", i+1), Raw: json.RawMessage(fmt.Sprintf(`{"n":%d}`, i+1)), List: []string{fmt.Sprintf("x%d", i+1)}}
		if a.Name != want.Name || string(a.Raw) != string(want.Raw) || a.List[0] != want.List[0] {
			t.Fatalf("answer %d changed after later calls: %+v, want %+v", i, a, want)
		}
	}
}
