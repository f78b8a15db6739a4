package agent

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/riverqueue/river"

	"github.com/gtmgate/gtmgate"
)

// Fair share. River fetches a queue's jobs by priority, then age, with no
// notion of tenants. Three things keep one tenant from taking a queue:
//
//   - its new runs are queued at a lower priority the more it has queued
//     already (fairPriority), so another tenant's first run is fetched
//     ahead of the backlog;
//   - on each process, a tenant works at most all but one of a queue's
//     workers while another tenant has runs queued: a run job past that
//     snoozes for shareWait, leaving the worker to the others (share);
//   - over all replicas, a tenant has at most runs_in_flight runs running
//     (counted in the store); a queued run past it stays queued, held,
//     and says so.

// shareWait is how long a run job past its tenant's share waits.
const shareWait = time.Second

// inFlightWait is how long a queued run past runs_in_flight waits before
// it looks again.
const inFlightWait = 2 * time.Second

type shareKey struct{ queue, tenant string }

// share counts the run jobs this process works, per queue and tenant.
type share struct {
	mu   sync.Mutex
	held map[shareKey]int
}

// take reserves one of queue's workers for a job of tenant; ok is false
// when the tenant holds all but one of them and another tenant waits.
// release gives the worker back.
func (a *Agents) takeShare(ctx context.Context, queue, tenant string) (release func(), ok bool, err error) {
	s := &a.share
	k := shareKey{queue, tenant}
	most := max(1, a.workers(queue)-1)
	s.mu.Lock()
	full := s.held[k] >= most
	s.mu.Unlock()
	if full {
		others, err := a.opts.Store.ListAgentRuns(ctx, gtmgate.AgentRunFilter{Status: gtmgate.RunQueued, ExceptTenantID: tenant, Limit: 1})
		if err != nil {
			return nil, false, fmt.Errorf("look for other tenants' queued runs: %w", err)
		}
		if len(others) > 0 {
			return nil, false, nil
		}
	}
	s.mu.Lock()
	if s.held == nil {
		s.held = map[shareKey]int{}
	}
	s.held[k]++
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		if s.held[k]--; s.held[k] <= 0 {
			delete(s.held, k)
		}
		s.mu.Unlock()
	}, true, nil
}

// workers is how many jobs of queue this process works at once.
func (a *Agents) workers(queue string) int {
	if a.opts.QueueWorkers == nil {
		return 4
	}
	return max(1, a.opts.QueueWorkers(queue))
}

// holdIfInFlight keeps a queued run queued while its tenant has
// runs_in_flight runs running, saving why (once) on the run; the
// returned error snoozes the job.
func (a *Agents) holdIfInFlight(ctx context.Context, r *gtmgate.AgentRun) error {
	lim, err := a.tenantLimits(ctx, r.TenantID)
	if err != nil {
		return err
	}
	runs, err := a.opts.Store.CountAgentRuns(ctx, r.TenantID)
	if err != nil {
		return err
	}
	if runs.Running < lim.RunsInFlight {
		return nil
	}
	return a.hold(ctx, r, fmt.Sprintf("runs_in_flight: the tenant has %d runs running, its limit; this run starts when one of them ends", runs.Running), inFlightWait)
}

// hold records why a run waits (when that changed) and snoozes its job.
func (a *Agents) hold(ctx context.Context, r *gtmgate.AgentRun, why string, wait time.Duration) error {
	if r.Held != why {
		r.Held = why
		if err := a.opts.Store.SaveAgentRun(ctx, r); err != nil {
			return err
		}
	}
	return river.JobSnooze(wait)
}
