package mcpupstream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	gtmgate "github.com/gtmgate/gtmgate"
)

// fakeClock stands still unless a throttled body pauses: a pause moves it
// on by what was asked, and is recorded, so what a throttle lets through is
// counted against virtual seconds, not measured.
type fakeClock struct {
	now    time.Time
	paused []time.Duration
}

func (c *fakeClock) body(rc io.ReadCloser, rate, burst int) *throttledBody {
	b := newThrottledBody(rc, rate, burst)
	b.now = func() time.Time { return c.now }
	b.pause = func(d time.Duration, _ <-chan struct{}) {
		c.paused = append(c.paused, d)
		c.now = c.now.Add(d)
	}
	b.last = c.now
	return b
}

// A throttled body gives its burst without a pause, then rate bytes a
// (virtual) second.
func TestThrottledBody(t *testing.T) {
	t.Parallel()
	const rate, burst = 2000, 100
	c := &fakeClock{now: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}
	start := c.now
	b := c.body(io.NopCloser(bytes.NewReader(make([]byte, 500))), rate, burst)
	if n, err := io.ReadFull(b, make([]byte, burst)); err != nil || n != burst || len(c.paused) != 0 {
		t.Fatalf("the burst: read %d, %v, %d pauses; want %d bytes at once", n, err, len(c.paused), burst)
	}
	n, err := io.Copy(io.Discard, b)
	if err != nil || n != 400 {
		t.Fatalf("read %d, %v; want the other 400 bytes", n, err)
	}
	// 400 bytes past the burst at 2000 B/s: 200 ms of virtual time.
	if got := c.now.Sub(start); got != 200*time.Millisecond {
		t.Fatalf("500 bytes took %v of the clock, want 200ms (pauses %v)", got, c.paused)
	}
}

// Close ends a pause at once.
func TestThrottledBodyCloseEndsPause(t *testing.T) {
	t.Parallel()
	b := newThrottledBody(io.NopCloser(bytes.NewReader(make([]byte, 10000))), 1, 100)
	read := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, io.LimitReader(b, 300))
		read <- err
	}()
	b.Close()
	select {
	case <-read:
	case <-time.After(waitFor):
		t.Fatal("Close did not end the pause (at 1 B/s the read needs minutes)")
	}
}

// The streams throttled are the unprompted ones: the standalone GET stream
// and a 2026-07-28 subscriptions/listen request's stream; a call's own
// answer never is.
func TestUnpromptedStream(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, method, mcpMethod, ct string
		want                        bool
	}{
		{"standalone GET stream", http.MethodGet, "", "text/event-stream", true},
		{"subscriptions/listen stream", http.MethodPost, "subscriptions/listen", "text/event-stream", true},
		{"tools/call stream", http.MethodPost, "tools/call", "text/event-stream", false},
		{"2025 POST without the header", http.MethodPost, "", "text/event-stream", false},
		{"listen answered in JSON", http.MethodPost, "subscriptions/listen", "application/json", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(tt.method, "http://upstream/mcp", nil)
			if tt.mcpMethod != "" {
				req.Header.Set("Mcp-Method", tt.mcpMethod)
			}
			if got := unpromptedStream(req, tt.ct); got != tt.want {
				t.Errorf("unpromptedStream = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestListenFloodReadAtBoundedRate: a stateless 2026-07-28 upstream that
// floods list_changed on the subscriptions/listen stream (the only stream
// it has) is read at the bounded rate like a standalone stream: the
// client's clock is frozen, so past the burst the first pause never ends,
// and what was read (and handled) by then is all that is read; a call to
// the same upstream meanwhile is answered. Not parallel: it replaces
// streamClock.
func TestListenFloodReadAtBoundedRate(t *testing.T) {
	frozen := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	paused := make(chan time.Duration, 1)
	saved := streamClock
	streamClock.now = func() time.Time { return frozen }
	streamClock.pause = func(d time.Duration, done <-chan struct{}) {
		select {
		case paused <- d:
		default:
		}
		<-done
	}
	t.Cleanup(func() { streamClock = saved })

	const note = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n"
	const floodEvents = 20 * unpromptedStreamBurst / len(note) // 20 bursts' worth
	var written atomic.Int64
	srv := mcp.NewServer(&mcp.Implementation{Name: "listen-flood", Version: "1"}, nil)
	addTool(srv, "echo", echo)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			h.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.Unmarshal(body, &msg)
		if msg.Method != listenMethod {
			r.Body = io.NopCloser(bytes.NewReader(body))
			h.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/subscriptions/acknowledged\","+
			"\"params\":{\"notifications\":{\"toolsListChanged\":true}}}\n\n")
		for range floodEvents {
			if _, err := io.WriteString(w, note); err != nil {
				return
			}
			written.Add(1)
		}
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	t.Cleanup(ts.Close)

	var handled atomic.Int64
	p := newPool(t, Options{ProtocolVersion: LatestProtocolVersion, OnToolsChanged: func(string, string) { handled.Add(1) }})
	s := &gtmgate.MCPServer{TenantID: "t1", Name: "flood", URL: ts.URL, Auth: gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthNone}}
	if tools, err := p.ListTools(ctxTimeout(t), s); err != nil || len(tools) != 1 {
		t.Fatalf("ListTools = %d tools, %v; want 1", len(tools), err)
	}
	var d time.Duration
	select {
	case d = <-paused:
	case <-time.After(waitFor):
		t.Fatalf("the listen stream was read without a bound: %d list_changed handled of %d written", handled.Load(), written.Load())
	}
	// With the clock frozen the bucket never refills: what was read when it
	// first paused is the burst plus what the pause would wait out.
	read := unpromptedStreamBurst + int(d.Seconds()*unpromptedStreamRate+0.5)
	if read > 2*unpromptedStreamBurst {
		t.Fatalf("read %d bytes before the first pause, want at most %d", read, 2*unpromptedStreamBurst)
	}
	// The stream's reader is parked: a call still gets its answer.
	if res, err := p.CallTool(ctxTimeout(t), s, "echo", json.RawMessage(`{"x":1}`), true, nil); err != nil || res.IsError {
		t.Fatalf("a call while the listen stream is paused: %+v, %v", res, err)
	}
	if got, most := handled.Load(), int64(read/len(note)+1); got > most {
		t.Fatalf("%d list_changed handled, want at most the %d read before the pause", got, most)
	}
	t.Logf("%d bytes read before the first pause; %d list_changed handled of %d written", read, handled.Load(), written.Load())
}
