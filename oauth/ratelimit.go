package oauth

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// maxTrackedIPs bounds the limiter's memory; past it the table restarts.
const maxTrackedIPs = 10_000

// ipLimiter allows n requests per minute per client IP (a fixed window). It
// is per process: with several replicas the bound is per replica.
type ipLimiter struct {
	n   int
	now func() time.Time

	mu      sync.Mutex
	windows map[string]window
}

type window struct {
	start time.Time
	count int
}

func newIPLimiter(n int, now func() time.Time) *ipLimiter {
	return &ipLimiter{n: n, now: now, windows: map[string]window{}}
}

// allow counts a request from r and reports whether it is within the limit.
func (l *ipLimiter) allow(r *http.Request) bool {
	ip, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		ip = r.RemoteAddr
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.windows[ip]
	if now.Sub(w.start) >= time.Minute {
		w = window{start: now}
	}
	if w.count >= l.n {
		return false
	}
	w.count++
	if len(l.windows) >= maxTrackedIPs {
		clear(l.windows)
	}
	l.windows[ip] = w
	return true
}
