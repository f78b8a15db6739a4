// Package ratelimit enforces tenants' request rates: a token bucket per
// tenant and one per credential (golang.org/x/time/rate), checked after
// authentication on the REST, MCP and chat routes. Over the limit a request
// gets RATE_LIMITED (429) with Retry-After; every limited request carries
// RateLimit-Policy and RateLimit headers (draft-ietf-httpapi-ratelimit-headers).
//
// Across replicas (PostgreSQL) each replica enforces rate/N with burst
// ceil(burst/N), N being the replicas seen alive in the last heartbeat
// window. The whole installation therefore never admits more than the
// configured rate plus burst; it can admit less when a tenant's traffic is
// unevenly spread over replicas (down to rate/N when all of it reaches one),
// and while N changes (a replica joining or leaving is counted within one
// heartbeat window).
package ratelimit

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/gtmgate/gtmgate"
)

// Options configures a Limiter. Tenants is required.
type Options struct {
	// Tenants supplies each tenant's RateLimits (a cached store).
	Tenants gtmgate.TenantStore
	// Replicas returns how many replicas share the limits (at least 1).
	Replicas func() int
	Now      func() time.Time
}

// Limiter checks requests against their tenant's limits.
type Limiter struct {
	opts Options

	mu      sync.Mutex
	buckets map[bucketKey]*bucket
}

// bucketKey names a bucket: a tenant's (credential "") or one credential's.
type bucketKey struct{ tenant, credential string }

type bucket struct {
	lim   *rate.Limiter
	rate  float64
	burst int
	used  time.Time
	// policy is this bucket's RateLimit-Policy item, kept with its rate.
	policy string
}

// maxBuckets bounds memory: past it, buckets idle for idleAfter are dropped.
const (
	maxBuckets = 100_000
	idleAfter  = 10 * time.Minute
)

// New returns a Limiter.
func New(opts Options) *Limiter {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Replicas == nil {
		opts.Replicas = func() int { return 1 }
	}
	return &Limiter{opts: opts, buckets: map[bucketKey]*bucket{}}
}

// Validate checks a tenant's limits; errors name the field.
func Validate(l *gtmgate.RateLimits) error {
	if l == nil {
		return nil
	}
	for name, r := range map[string]*gtmgate.RateLimit{"rate_limits.tenant": l.Tenant, "rate_limits.per_token": l.PerToken} {
		if r == nil {
			continue
		}
		if math.IsNaN(r.RequestsPerSecond) || r.RequestsPerSecond < 0 || r.RequestsPerSecond > 1e6 {
			return gtmgate.Errorf(gtmgate.EValidation, "%s.requests_per_second: %v is not a rate from 0 to 1000000", name, r.RequestsPerSecond).
				AtField(name + ".requests_per_second")
		}
		if r.Burst < 0 || r.Burst > 1e6 {
			return gtmgate.Errorf(gtmgate.EValidation, "%s.burst: %d is not from 0 to 1000000", name, r.Burst).AtField(name + ".burst")
		}
		if r.RequestsPerSecond > 0 && r.Burst == 0 {
			r.Burst = max(1, int(math.Ceil(r.RequestsPerSecond)))
		}
	}
	return nil
}

// policy is one limit applied to a request.
type policy struct {
	name  string // "tenant" or "token"
	key   bucketKey
	limit *gtmgate.RateLimit
}

// Admit checks the request of principal p, writing the RateLimit headers.
// It returns RATE_LIMITED when a limit is exhausted; nothing is consumed
// from any bucket then.
func (l *Limiter) Admit(w http.ResponseWriter, r *http.Request, p *gtmgate.Principal) error {
	if p == nil || p.TenantID == "" {
		return nil
	}
	t, err := l.opts.Tenants.GetTenant(r.Context(), p.TenantID)
	if err != nil || t.RateLimits == nil {
		return nil // an unknown tenant is answered by the route itself
	}
	var buf [2]policy
	policies := buf[:0]
	if lim := t.RateLimits.Tenant; lim != nil && lim.RequestsPerSecond > 0 {
		policies = append(policies, policy{"tenant", bucketKey{tenant: t.ID}, lim})
	}
	if lim := t.RateLimits.PerToken; lim != nil && lim.RequestsPerSecond > 0 {
		policies = append(policies, policy{"token", bucketKey{t.ID, p.KeyID}, lim})
	}
	if len(policies) == 0 {
		return nil
	}
	return l.admit(w, policies)
}

// admit takes one token from every policy's bucket, or from none when one
// is short: all buckets are read, then all taken, under l.mu.
func (l *Limiter) admit(w http.ResponseWriter, policies []policy) error {
	now := l.opts.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	var buf [2]*bucket
	buckets, wait, refused := l.take(policies, now, buf[:0])
	l.headers(w, buckets, now)
	if refused == nil {
		return nil
	}
	retry := int(math.Ceil(wait.Seconds()))
	if retry < 1 {
		retry = 1
	}
	return &gtmgate.Error{Code: gtmgate.ERateLimited, RetryAfter: retry,
		Message: fmt.Sprintf("the %s rate limit (%g requests per second, burst %d) is exhausted; retry in %d s",
			refused.name, refused.limit.RequestsPerSecond, refused.limit.Burst, retry)}
}

// take takes one token from every policy's bucket, or from none when one is
// short: all buckets are read, then all taken. It returns the buckets (in
// buckets' space), and when refused the policy that is shortest and how
// long until it allows the call. l.mu is held.
func (l *Limiter) take(policies []policy, now time.Time, buckets []*bucket) ([]*bucket, time.Duration, *policy) {
	n := max(1, l.opts.Replicas())
	var wait time.Duration
	var refused *policy
	for i := range policies {
		b := l.bucket(policies[i], n, now)
		buckets = append(buckets, b)
		if short := 1 - b.lim.TokensAt(now); short > 0 {
			if d := time.Duration(short / b.rate * float64(time.Second)); refused == nil || d > wait {
				wait, refused = d, &policies[i]
			}
		}
	}
	if refused == nil {
		for _, b := range buckets {
			b.lim.AllowN(now, 1)
		}
	}
	return buckets, wait, refused
}

// bucket returns the policy's bucket at this replica's share. l.mu is held.
func (l *Limiter) bucket(p policy, replicas int, now time.Time) *bucket {
	r := p.limit.RequestsPerSecond / float64(replicas)
	burst := max(1, int(math.Ceil(float64(p.limit.Burst)/float64(replicas))))
	b := l.buckets[p.key]
	if b == nil {
		if len(l.buckets) >= maxBuckets {
			l.evict(now)
		}
		b = &bucket{lim: rate.NewLimiter(rate.Limit(r), burst)}
		l.buckets[p.key] = b
	} else if b.rate != r || b.burst != burst {
		b.lim.SetLimitAt(now, rate.Limit(r))
		b.lim.SetBurstAt(now, burst)
	}
	if b.rate != r || b.burst != burst || b.policy == "" {
		b.rate, b.burst = r, burst
		// q is the bucket's size, w the seconds it takes to fill.
		b.policy = fmt.Sprintf("%q;q=%d;w=%d", p.name, burst, max(int(math.Ceil(float64(burst)/r)), 1))
	}
	b.used = now
	return b
}

func (l *Limiter) evict(now time.Time) {
	for k, b := range l.buckets {
		if now.Sub(b.used) > idleAfter {
			delete(l.buckets, k)
		}
	}
	if len(l.buckets) >= maxBuckets {
		clear(l.buckets) // all busy: start over rather than grow without bound
	}
}

// headers writes RateLimit-Policy (each limit as quota q over window w
// seconds, the time the bucket takes to fill) and RateLimit (remaining r
// and seconds t until full) for this replica's share. l.mu is held.
func (l *Limiter) headers(w http.ResponseWriter, buckets []*bucket, now time.Time) {
	var pol, state [128]byte
	p, st := pol[:0], state[:0]
	for i, b := range buckets {
		if i > 0 {
			p, st = append(p, ", "...), append(st, ", "...)
		}
		p = append(p, b.policy...)
		name, _, _ := strings.Cut(b.policy, ";")
		tokens := b.lim.TokensAt(now)
		st = append(append(st, name...), ";r="...)
		st = strconv.AppendInt(st, int64(max(0, math.Floor(tokens))), 10)
		st = append(st, ";t="...)
		st = strconv.AppendInt(st, int64(max(0, math.Ceil((float64(b.burst)-tokens)/b.rate))), 10)
	}
	h := w.Header()
	h["Ratelimit-Policy"] = []string{string(p)}
	h["Ratelimit"] = []string{string(st)}
}

// Replicas counts live replicas from heartbeats, refreshed in the background.
type Replicas struct {
	mu sync.Mutex
	n  int
}

// N returns the last count (1 before the first).
func (r *Replicas) N() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return max(1, r.n)
}

// Set stores a count.
func (r *Replicas) Set(n int) {
	r.mu.Lock()
	r.n = n
	r.mu.Unlock()
}

// Heartbeat is one replica's presence in the shared store.
type Heartbeat struct {
	Store interface {
		Heartbeat(ctx context.Context, r gtmgate.Replica) error
		ListReplicas(ctx context.Context, since time.Time) ([]gtmgate.Replica, error)
		ForgetReplica(ctx context.Context, id string) error
	}
	Self  gtmgate.Replica
	Count *Replicas
	// Every is the heartbeat interval; a replica unseen for 3 intervals is
	// not counted.
	Every  time.Duration
	OnFail func(error)
}

// Beat records this replica and recounts the live ones.
func (h *Heartbeat) Beat(ctx context.Context) error {
	now := time.Now()
	h.Self.SeenAt = now
	if err := h.Store.Heartbeat(ctx, h.Self); err != nil {
		return err
	}
	live, err := h.Store.ListReplicas(ctx, now.Add(-3*h.Every))
	if err != nil {
		return err
	}
	h.Count.Set(len(live))
	return nil
}

// Run beats every interval until ctx ends, then removes this replica.
func (h *Heartbeat) Run(ctx context.Context) {
	t := time.NewTicker(h.Every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
			h.Store.ForgetReplica(fctx, h.Self.ID)
			cancel()
			return
		case <-t.C:
			if err := h.Beat(ctx); err != nil && h.OnFail != nil {
				h.OnFail(err)
			}
		}
	}
}
