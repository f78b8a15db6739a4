package mcpupstream

import (
	"io"
	"net/http"
	"sync"
	"time"
)

// An upstream's unprompted event streams carry only what the server says
// unasked: list_changed and the like, a few a day from a well-behaved
// server. There are two: the standalone GET stream, and, on the 2026-07-28
// protocol, the response stream of the client's subscriptions/listen
// request (a stateless server has no standalone stream and sends
// list_changed there). A hostile server can write them as fast as the
// connection takes them, and the go-sdk queues and handles every one (a
// goroutine each, an unbounded queue), costing CPU every tenant shares.
// Reading them at a bounded rate pushes the flood back to the upstream
// through TCP instead: past the burst, gtmgate reads unpromptedStreamRate
// bytes a second (a list_changed event is about 90 bytes, so some 350 a
// second, each coalesced by the catalogue anyway). Answers to calls never
// come on these streams (a listen request's own result comes only when the
// subscription ends), so nothing waits behind them.
const (
	unpromptedStreamRate  = 32 << 10 // bytes per second
	unpromptedStreamBurst = 64 << 10 // bytes
)

// listenMethod is the 2026-07-28 request whose response stream delivers
// notifications; the go-sdk names every request's method in the standard
// Mcp-Method header on that protocol (its streamable_headers.go).
const listenMethod = "subscriptions/listen"

// unpromptedStream reports whether the answer to req, of contentType, is
// one of the event streams that carry only what the server says unprompted.
func unpromptedStream(req *http.Request, contentType string) bool {
	if contentType != "text/event-stream" {
		return false
	}
	return req.Method == http.MethodGet || req.Method == http.MethodPost && req.Header.Get("Mcp-Method") == listenMethod
}

// throttleUnprompted bounds the rate at which resp's body is read when it is
// an unprompted stream.
func throttleUnprompted(req *http.Request, resp *http.Response, contentType string) {
	if unpromptedStream(req, contentType) {
		resp.Body = newThrottledBody(resp.Body, unpromptedStreamRate, unpromptedStreamBurst)
	}
}

// streamClock is the throttle's clock: now, and pause, which waits d or
// until done closes. Tests replace it (never in parallel) to count what is
// read without depending on time.
var streamClock = struct {
	now   func() time.Time
	pause func(d time.Duration, done <-chan struct{})
}{now: time.Now, pause: pauseOrDone}

func pauseOrDone(d time.Duration, done <-chan struct{}) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-done:
	}
}

// throttledBody reads rc through a token bucket of rate bytes a second
// holding at most burst.
type throttledBody struct {
	rc     io.ReadCloser
	rate   float64
	burst  float64
	tokens float64
	last   time.Time
	now    func() time.Time
	pause  func(time.Duration, <-chan struct{})

	done      chan struct{}
	closeOnce sync.Once
}

func newThrottledBody(rc io.ReadCloser, rate, burst int) *throttledBody {
	now, pause := streamClock.now, streamClock.pause
	return &throttledBody{rc: rc, rate: float64(rate), burst: float64(burst), tokens: float64(burst),
		last: now(), now: now, pause: pause, done: make(chan struct{})}
}

func (b *throttledBody) Read(p []byte) (int, error) {
	if len(p) > int(b.burst) {
		p = p[:int(b.burst)]
	}
	n, err := b.rc.Read(p)
	now := b.now()
	b.tokens = min(b.burst, b.tokens+b.rate*now.Sub(b.last).Seconds()) - float64(n)
	b.last = now
	if b.tokens < 0 {
		b.pause(time.Duration(-b.tokens/b.rate*float64(time.Second)), b.done)
	}
	return n, err
}

func (b *throttledBody) Close() error {
	b.closeOnce.Do(func() { close(b.done) })
	return b.rc.Close()
}
