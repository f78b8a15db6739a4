package oauth

import (
	"net/http"
	"sync"
	"time"

	"github.com/gtmgate/gtmgate/clientip"
)

// maxTrackedIPs bounds the limiter's memory; past it the table restarts.
const maxTrackedIPs = 10_000

// ipLimiter allows n requests per minute per client IP (a fixed window). It
// is per process: with several replicas the bound is per replica.
type ipLimiter struct {
	n       int
	now     func() time.Time
	clients *clientip.Resolver

	mu      sync.Mutex
	windows map[string]window
}

type window struct {
	start time.Time
	count int
}

func newIPLimiter(n int, now func() time.Time, clients *clientip.Resolver) *ipLimiter {
	return &ipLimiter{n: n, now: now, clients: clients, windows: map[string]window{}}
}

// allow counts a request from r and reports whether it is within the limit.
func (l *ipLimiter) allow(r *http.Request) bool {
	ip := l.clients.Addr(r)
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
