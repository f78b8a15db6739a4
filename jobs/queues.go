package jobs

import (
	"fmt"
	"maps"
	"slices"

	"github.com/riverqueue/river"
)

// The queues: one line of work each, with its own workers, so a backlog in
// one (a grading burst) never delays another (a schedule tick). River
// fetches a queue's jobs by priority, then by time.
const (
	// QueueGrading holds grade_trace jobs: degraded paths at PriorityFirst,
	// mutating categories and production tenants at PrioritySecond, the
	// rest at PriorityThird.
	QueueGrading = "grading"
	// QueueAgents holds agent runs started by run_agent, the admin API or
	// anything else that is not a schedule.
	QueueAgents = "agents"
	// QueueSchedules holds the schedule tick at PriorityFirst and the runs
	// schedules start (scheduled calls and agent tasks) at PrioritySecond,
	// so a tick is never queued behind scheduled runs.
	QueueSchedules = "schedules"
	// QueueWebhooks holds webhook deliveries.
	QueueWebhooks = "webhooks"
	// QueueMaintenance holds the periodic sweeps: agent and approval
	// sweeps, retention, the daily brief and the health snapshot.
	QueueMaintenance = "maintenance"
	// QueueLegacy is River's default queue, where versions before the
	// queues were split put every job. It keeps a worker so jobs such a
	// version queued are still worked; nothing new is put on it.
	QueueLegacy = river.QueueDefault
)

// River priorities, 1 first.
const (
	PriorityFirst  = 1
	PrioritySecond = 2
	PriorityThird  = 3
)

// Queues lists the queues in the order health and metrics show them.
var Queues = []string{QueueSchedules, QueueAgents, QueueWebhooks, QueueGrading, QueueMaintenance, QueueLegacy}

// DefaultWorkers is the workers per queue of one process when its setting
// is unset: sized for a small (2-core) machine, since every job but
// maintenance spends most of its time waiting on a model or a provider.
var DefaultWorkers = map[string]int{
	QueueGrading:     4,
	QueueAgents:      4,
	QueueSchedules:   4,
	QueueWebhooks:    2,
	QueueMaintenance: 2,
	QueueLegacy:      1,
}

// queueConfig is River's queue configuration for workers per queue: every
// queue of Queues is worked, with DefaultWorkers where workers has no
// positive count, and any other queue named in workers too.
func queueConfig(workers map[string]int) (map[string]river.QueueConfig, error) {
	out := make(map[string]river.QueueConfig, len(Queues))
	for _, q := range Queues {
		out[q] = river.QueueConfig{MaxWorkers: DefaultWorkers[q]}
	}
	for _, q := range slices.Sorted(maps.Keys(workers)) {
		n := workers[q]
		if n < 0 || n > 10_000 {
			return nil, fmt.Errorf("jobs: queue %s: %d workers is outside 1..10000", q, n)
		}
		if n > 0 {
			out[q] = river.QueueConfig{MaxWorkers: n}
		}
	}
	return out, nil
}
