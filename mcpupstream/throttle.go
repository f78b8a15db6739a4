package mcpupstream

import (
	"io"
	"sync"
	"time"
)

// An upstream's standalone event stream (the GET one) carries only what
// the server says unprompted: list_changed and the like, a few a day from a
// well-behaved server. A hostile one can write them as fast as the
// connection takes them, and the go-sdk queues and handles every one
// (a goroutine each, an unbounded queue), costing CPU every tenant shares.
// Reading that stream at a bounded rate pushes the flood back to the
// upstream through TCP instead: past the burst, gtmgate reads
// standaloneStreamRate bytes a second (a list_changed event is about 90
// bytes, so some 350 a second, each coalesced by the catalogue anyway).
// Answers to calls never come on this stream, so nothing waits behind it.
const (
	standaloneStreamRate  = 32 << 10 // bytes per second
	standaloneStreamBurst = 64 << 10 // bytes
)

// throttledBody reads rc through a token bucket of rate bytes a second
// holding at most burst.
type throttledBody struct {
	rc     io.ReadCloser
	rate   float64
	burst  float64
	tokens float64
	last   time.Time

	done      chan struct{}
	closeOnce sync.Once
}

func newThrottledBody(rc io.ReadCloser, rate, burst int) *throttledBody {
	return &throttledBody{rc: rc, rate: float64(rate), burst: float64(burst), tokens: float64(burst),
		last: time.Now(), done: make(chan struct{})}
}

func (b *throttledBody) Read(p []byte) (int, error) {
	if len(p) > int(b.burst) {
		p = p[:int(b.burst)]
	}
	n, err := b.rc.Read(p)
	now := time.Now()
	b.tokens = min(b.burst, b.tokens+b.rate*now.Sub(b.last).Seconds()) - float64(n)
	b.last = now
	if b.tokens < 0 {
		t := time.NewTimer(time.Duration(-b.tokens / b.rate * float64(time.Second)))
		defer t.Stop()
		select {
		case <-t.C:
		case <-b.done:
		}
	}
	return n, err
}

func (b *throttledBody) Close() error {
	b.closeOnce.Do(func() { close(b.done) })
	return b.rc.Close()
}
