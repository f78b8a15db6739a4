package schedule

import (
	"fmt"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// MaxLateRuns bounds the late ticks of one schedule that one pass runs: a
// per-minute schedule whose tick job was delayed five minutes runs its five
// ticks, one delayed an hour runs its newest MaxLateRuns and records the
// others as skipped.
const MaxLateRuns = 10

// tickPlan is what one pass does with a schedule's due ticks.
type tickPlan struct {
	// run are the ticks that run, oldest first.
	run []time.Time
	// skipped are the ticks recorded as not run, a group per reason.
	skipped []skippedTicks
}

// skippedTicks are n consecutive due ticks from first that did not run.
type skippedTicks struct {
	first  time.Time
	n      int
	reason string
}

// tickGroup counts ticks of one kind as they are walked.
type tickGroup struct {
	first, last time.Time
	n           int
}

func (g *tickGroup) add(t time.Time) {
	if g.n == 0 {
		g.first = t
	}
	g.last = t
	g.n++
}

// planTicks decides for the due ticks of a schedule from `from` (its
// stored next tick) through now (none after endsAt). A tick older than
// catchUp is skipped. A tick since runningSince (when the longest-running
// live replica started) was missed only because the tick job ran late:
// those run, the newest MaxLateRuns of them. A tick before runningSince was
// missed while no replica was running: only the latest due tick of that
// kind runs, once, and only when no late tick runs.
func planTicks(expr *Expression, from, now time.Time, endsAt *time.Time, catchUp time.Duration, runningSince time.Time) tickPlan {
	var old, down, bound tickGroup
	var late []time.Time
	oldDown := false // the oldest skipped-as-too-old tick fell while no replica ran
	for t, seen := from, 0; seen < maxCatchUp; seen++ {
		switch {
		case now.Sub(t) > catchUp:
			if old.n == 0 {
				oldDown = t.Before(runningSince)
			}
			old.add(t)
		case t.Before(runningSince):
			down.add(t)
		default:
			late = append(late, t)
			if len(late) > MaxLateRuns {
				bound.add(late[0])
				late = late[1:]
			}
		}
		n := expr.Next(t)
		if n.IsZero() || n.After(now) || (endsAt != nil && n.After(*endsAt)) {
			break
		}
		t = n
	}
	var p tickPlan
	if old.n > 0 {
		cause := "the tick job was delayed while a replica was running"
		if oldDown {
			cause = "missed while no replica was running"
		}
		p.skipped = append(p.skipped, skippedTicks{old.first, old.n, fmt.Sprintf(
			"%d tick(s) from %s were more than the catch-up limit of %s late (%s)", old.n, stamp(old.first), catchUp, cause)})
	}
	if len(late) == 0 && down.n > 0 {
		// Back after a time with no replica: the latest missed tick runs once.
		late = []time.Time{down.last}
		down.n--
	}
	if down.n > 0 {
		p.skipped = append(p.skipped, skippedTicks{down.first, down.n, fmt.Sprintf(
			"%d tick(s) from %s were missed while no replica was running; only the latest missed tick runs", down.n, stamp(down.first))})
	}
	if bound.n > 0 {
		p.skipped = append(p.skipped, skippedTicks{bound.first, bound.n, fmt.Sprintf(
			"%d tick(s) from %s were late because the tick job was delayed while a replica was running; only the newest %d late ticks run",
			bound.n, stamp(bound.first), MaxLateRuns)})
	}
	p.run = late
	return p
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// Lateness is how late one tick's run was created after its scheduled time.
type Lateness struct {
	TenantID      string    `json:"tenant_id"`
	JobID         string    `json:"job_id"`
	Tick          time.Time `json:"tick"`
	LateBySeconds float64   `json:"late_by_seconds"`
}

// recentTicks is how many fired ticks a scheduler remembers for health.
const recentTicks = 20

// lateness keeps the tick lateness metric and the latest ticks this
// process fired.
type lateness struct {
	hist   prometheus.Histogram
	mu     sync.Mutex
	recent []Lateness
}

func newLateness(reg prometheus.Registerer) *lateness {
	l := &lateness{hist: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "gtmgate_schedule_tick_lateness_seconds",
		Help:    "How late a schedule tick's run was created after the tick's time (ticks are looked for every 10 s).",
		Buckets: []float64{1, 5, 10, 15, 30, 60, 120, 300, 900, 3600}})}
	if reg != nil {
		reg.MustRegister(l.hist)
	}
	return l
}

func (l *lateness) observe(v Lateness) {
	l.hist.Observe(v.LateBySeconds)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.recent = append(l.recent, v)
	if len(l.recent) > recentTicks {
		l.recent = l.recent[len(l.recent)-recentTicks:]
	}
}

// RecentLateness returns the latest ticks this process fired, oldest first.
func (s *Scheduler) RecentLateness() []Lateness {
	s.late.mu.Lock()
	defer s.late.mu.Unlock()
	return append([]Lateness{}, s.late.recent...)
}
