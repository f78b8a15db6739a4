package chat

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
)

// streamEvents is what the fake upstream streams, as OpenAI does: with
// include_usage every chunk ends in "usage":null and a usage-only chunk
// comes last before [DONE].
func streamEvents(includeUsage bool) []string {
	tail := "}"
	if includeUsage {
		tail = `,"usage":null}`
	}
	evs := []string{
		`data: {"id":"s1","object":"chat.completion.chunk","model":"small","choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"},"finish_reason":null}],"x_extra":1` + tail + "\n\n",
		`data: {"id":"s1","object":"chat.completion.chunk","model":"small","choices":[{"index":0,"delta":{"content":"lo"},"finish_reason":"stop"}]` + tail + "\n\n",
	}
	if includeUsage {
		evs = append(evs, `data: {"id":"s1","object":"chat.completion.chunk","model":"small","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}`+"\n\n")
	}
	return append(evs, "data: [DONE]\n\n")
}

// streamUpstream streams streamEvents, honouring include_usage. After the
// first event it calls pause (when not nil), which may block.
func streamUpstream(pause func(r *http.Request)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			StreamOptions struct {
				IncludeUsage bool `json:"include_usage"`
			} `json:"stream_options"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		f := w.(http.Flusher)
		for i, ev := range streamEvents(req.StreamOptions.IncludeUsage) {
			io.WriteString(w, ev)
			f.Flush()
			if i == 0 && pause != nil {
				pause(r)
			}
		}
	}
}

func TestStreamUsage(t *testing.T) {
	t.Parallel()
	noUsage := strings.Join(streamEvents(false), "")
	tests := []struct {
		name             string
		body             string
		wantUpstreamBody string // "" means the client's bytes
		wantClient       string
	}{
		{name: "client asks for usage",
			body:       `{"model":"small","stream":true,"stream_options":{"include_usage":true},"messages":[],"x":1}`,
			wantClient: strings.Join(streamEvents(true), "")},
		{name: "client does not ask",
			body:             `{"model":"small","stream":true,"messages":[],"x":{"y":"<z>"}}`,
			wantUpstreamBody: `{"model":"small","stream":true,"messages":[],"x":{"y":"<z>"},"stream_options":{"include_usage":true}}`,
			wantClient:       noUsage},
		{name: "client says false",
			body:             `{"model":"small","stream":true,"stream_options":{"include_usage":false,"other":"<v>"},"messages":[]}`,
			wantUpstreamBody: `{"messages":[],"model":"small","stream":true,"stream_options":{"include_usage":true,"other":"<v>"}}`,
			wantClient:       noUsage},
		{name: "null stream_options",
			body:             `{"model":"small","stream":true,"stream_options":null}`,
			wantUpstreamBody: `{"model":"small","stream":true,"stream_options":{"include_usage":true}}`,
			wantClient:       noUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, streamUpstream(nil), nil)
			resp := e.post(t, context.Background(), tt.body, nil)
			defer resp.Body.Close()
			if got := readString(t, resp.Body); got != tt.wantClient {
				t.Errorf("client stream =\n%s\nwant\n%s", got, tt.wantClient)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
				t.Errorf("Content-Type = %q", ct)
			}
			want := tt.wantUpstreamBody
			if want == "" {
				want = tt.body
			}
			if up := e.nextUpstream(t); string(up.body) != want {
				t.Errorf("upstream body = %s, want %s", up.body, want)
			}
			rec := e.recorder.next(t)
			if rec.audit.Outcome != gtmgate.OutcomeOK || rec.usage == nil || rec.usage.PromptTokens != 5 || rec.usage.CompletionTokens != 2 {
				t.Errorf("recorded %+v %+v", rec.audit, rec.usage)
			}
		})
	}
}

// readEvent reads one SSE event (through its blank line) from br.
func readEvent(br *bufio.Reader) (string, error) {
	var ev strings.Builder
	for {
		line, err := br.ReadString('\n')
		ev.WriteString(line)
		if err != nil {
			return ev.String(), err
		}
		if line == "\n" {
			return ev.String(), nil
		}
	}
}

// await fails the test if ch yields nothing; the bound only turns a hang into a failure.
func await[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("gave up waiting for %s", what)
		var zero T
		return zero
	}
}

func TestStreamFirstChunkArrivesBeforeUpstreamFinishes(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	e := newEnv(t, streamUpstream(func(*http.Request) { <-release }), nil)
	resp := e.post(t, context.Background(), `{"model":"small","stream":true,"stream_options":{"include_usage":true}}`, nil)
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	first := make(chan string, 1)
	go func() { ev, _ := readEvent(br); first <- ev }()
	// The upstream is still paused: only a pass-through that flushes per event delivers this.
	if got := await(t, first, "the first event"); got != streamEvents(true)[0] {
		t.Errorf("first event = %q", got)
	}
	close(release)
	rest := readString(t, br)
	if want := strings.Join(streamEvents(true)[1:], ""); rest != want {
		t.Errorf("rest = %q, want %q", rest, want)
	}
}

func TestStreamClientCancelReachesUpstream(t *testing.T) {
	t.Parallel()
	upstreamDone := make(chan struct{})
	e := newEnv(t, streamUpstream(func(r *http.Request) {
		<-r.Context().Done()
		close(upstreamDone)
	}), nil)
	ctx, cancel := context.WithCancel(context.Background())
	resp := e.post(t, ctx, `{"model":"small","stream":true}`, nil)
	defer resp.Body.Close()
	if _, err := readEvent(bufio.NewReader(resp.Body)); err != nil {
		t.Fatalf("first event: %v", err)
	}
	cancel()
	await(t, upstreamDone, "the upstream to see its request cancelled")
	rec := e.recorder.next(t)
	if rec.audit.ErrorCode != gtmgate.EClientClosed || rec.audit.Outcome != gtmgate.OutcomeError {
		t.Errorf("audit = %+v", rec.audit)
	}
}

func TestStreamUpstreamFailureEndsWithErrorEvent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		pause    func(w http.ResponseWriter, r *http.Request)
		opts     func(*Options)
		wantCode string
	}{
		{name: "connection drops", wantCode: gtmgate.EUpstream,
			pause: func(w http.ResponseWriter, r *http.Request) {
				conn, _, err := http.NewResponseController(w).Hijack()
				if err == nil {
					conn.Close()
				}
				panic(http.ErrAbortHandler) // stop the fake from writing on
			}},
		{name: "upstream goes silent", wantCode: gtmgate.EUpstreamTimeout,
			opts:  func(o *Options) { o.StreamIdleTimeout = 50 * time.Millisecond },
			pause: func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, func(w http.ResponseWriter, r *http.Request) {
				streamUpstream(func(r *http.Request) { tt.pause(w, r) })(w, r)
			}, tt.opts)
			resp := e.post(t, context.Background(), `{"model":"small","stream":true}`, nil)
			defer resp.Body.Close()
			got := readString(t, resp.Body) // returns: the stream ends, it does not hang
			first := streamEvents(false)[0]
			if !strings.HasPrefix(got, first) {
				t.Fatalf("stream = %q, want the first event first", got)
			}
			var ev struct {
				Error struct{ Message, Type, Code string } `json:"error"`
			}
			last := strings.TrimPrefix(strings.TrimSuffix(got[len(first):], "\n\n"), "data: ")
			if err := json.Unmarshal([]byte(last), &ev); err != nil || ev.Error.Type != "upstream_error" || ev.Error.Code != tt.wantCode || ev.Error.Message == "" {
				t.Errorf("final event = %q, want an upstream_error with code %s", got[len(first):], tt.wantCode)
			}
			rec := e.recorder.next(t)
			if rec.audit.ErrorCode != tt.wantCode || rec.audit.Status != 200 || rec.usage == nil || rec.usage.OK {
				t.Errorf("recorded %+v %+v", rec.audit, rec.usage)
			}
		})
	}
}

func ExampleHandler_Routes() {
	h, err := New(Options{UpstreamURL: "http://127.0.0.1:9000/v1", APIKey: "gateway-key",
		Tenants: &fakeTenants{}, Recorder: newFakeRecorder()})
	if err != nil {
		panic(err)
	}
	mux := http.NewServeMux()
	h.Routes(mux, nil) // pass the auth middleware in place of nil
	fmt.Println("mounted")
	// Output: mounted
}
