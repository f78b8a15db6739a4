package quality

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/riverqueue/river"

	"github.com/gtmgate/gtmgate"
)

// Reasons a sample is not graded (gtmgate_grader_dropped_total's label).
const (
	// DropBacklog: grading jobs waiting reached GRADER_MAX_WAITING.
	DropBacklog = "backlog"
	// DropBacklogDegraded: a degraded path's sample past the bound and its
	// margin (DegradedMargin).
	DropBacklogDegraded = "backlog_degraded"
	// DropQueueFull: the in-process hand-off to the inserter was full.
	DropQueueFull = "queue_full"
	// DropRetryFull: the insert failed and the retry buffer was full.
	DropRetryFull = "retry_buffer_full"
	// DropShutdown: still waiting when the process stopped.
	DropShutdown = "shutdown"
)

// DegradedMargin is how far past the bound on waiting grading jobs a
// degraded path's samples are still queued: up to a quarter more.
const DegradedMargin = 0.25

// backlog bounds the grading jobs waiting. waiting is the engine's count,
// refreshed every few seconds; added counts the jobs this process queued
// since, so a burst is bounded before the next refresh.
type backlog struct {
	max     int64
	waiting atomic.Int64
	added   atomic.Int64
}

// admit takes a place for one sample, or says why it is shed.
func (b *backlog) admit(degraded bool) (reason string) {
	if b.max <= 0 {
		return ""
	}
	n := b.waiting.Load() + b.added.Load()
	switch {
	case n < b.max:
	case degraded && float64(n) < float64(b.max)*(1+DegradedMargin):
	case degraded:
		return DropBacklogDegraded
	default:
		return DropBacklog
	}
	b.added.Add(1)
	return ""
}

// release gives back a place taken for a sample that was then dropped.
func (b *backlog) release() {
	if b.max > 0 {
		b.added.Add(-1)
	}
}

// refreshed sets the engine's count, which now includes what was added.
func (b *backlog) refreshed(n int64) {
	b.waiting.Store(n)
	b.added.Store(0)
}

// isDegraded reports whether a sample was drawn on a degraded path.
func isDegraded(s gtmgate.Sample) bool { return slices.Contains(s.Reasons, "degraded_path") }

// retryBuffer holds grading jobs whose insert failed (a store outage), to
// be inserted again; degraded paths' jobs go first and are kept first.
type retryBuffer struct {
	mu       sync.Mutex
	max      int
	degraded []river.InsertManyParams
	rest     []river.InsertManyParams
}

// add keeps jobs for a retry and returns how many were dropped because the
// buffer was full: a degraded path's job displaces the oldest other job.
func (b *retryBuffer) add(params []river.InsertManyParams) (dropped int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range params {
		deg := p.InsertOpts != nil && p.InsertOpts.Priority == priorityDegraded
		switch {
		case len(b.degraded)+len(b.rest) < b.max:
		case deg && len(b.rest) > 0:
			b.rest = b.rest[1:]
			dropped++
		default:
			dropped++
			continue
		}
		if deg {
			b.degraded = append(b.degraded, p)
		} else {
			b.rest = append(b.rest, p)
		}
	}
	return dropped
}

// take removes up to n jobs, degraded paths' first.
func (b *retryBuffer) take(n int) []river.InsertManyParams {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []river.InsertManyParams
	for _, q := range []*[]river.InsertManyParams{&b.degraded, &b.rest} {
		k := min(n-len(out), len(*q))
		out = append(out, (*q)[:k]...)
		*q = (*q)[k:]
	}
	return out
}

// len is how many jobs wait for a retry.
func (b *retryBuffer) len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.degraded) + len(b.rest)
}

// retryBackoff is the wait before retry attempt n (1, 2, 4 … seconds,
// at most 30).
func retryBackoff(n int) time.Duration {
	if n < 1 {
		n = 1
	}
	return min(time.Second<<min(n-1, 5), 30*time.Second)
}
