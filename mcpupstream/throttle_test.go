package mcpupstream

import (
	"bytes"
	"io"
	"testing"
	"time"
)

// A throttled body gives its burst at once, then rate bytes a second, and
// Close ends a wait at once.
func TestThrottledBody(t *testing.T) {
	const rate, burst = 2000, 100
	b := newThrottledBody(io.NopCloser(bytes.NewReader(make([]byte, 500))), rate, burst)
	start := time.Now()
	n, err := io.Copy(io.Discard, b)
	took := time.Since(start)
	if err != nil || n != 500 {
		t.Fatalf("read %d, %v", n, err)
	}
	// 400 bytes past the burst at 2000 B/s: at least 200 ms.
	if took < 190*time.Millisecond || took > 2*time.Second {
		t.Fatalf("500 bytes took %v, want about 200ms", took)
	}

	b = newThrottledBody(io.NopCloser(bytes.NewReader(make([]byte, 10000))), 10, 100)
	go func() {
		time.Sleep(50 * time.Millisecond)
		b.Close()
	}()
	start = time.Now()
	io.Copy(io.Discard, io.LimitReader(b, 300))
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("Close did not end the wait: %v", took)
	}
}
