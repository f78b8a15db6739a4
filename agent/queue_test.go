package agent

import (
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jobs"
)

// TestRunQueue: runs a schedule started go on the schedules queue behind
// its tick; any other run on the agents queue.
func TestRunQueue(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		run      gtmgate.AgentRun
		queue    string
		priority int
	}{
		{"run_agent", gtmgate.AgentRun{Trigger: gtmgate.TriggerCall}, jobs.QueueAgents, jobs.PriorityFirst},
		{"a schedule's tick", gtmgate.AgentRun{Trigger: gtmgate.TriggerSchedule, ScheduleID: "daily"}, jobs.QueueSchedules, jobs.PrioritySecond},
		{"a schedule run now", gtmgate.AgentRun{Trigger: gtmgate.TriggerManual, ScheduleID: "daily"}, jobs.QueueSchedules, jobs.PrioritySecond},
	} {
		if q, p := RunQueue(&tc.run); q != tc.queue || p != tc.priority {
			t.Errorf("%s: queue %s priority %d, want %s %d", tc.name, q, p, tc.queue, tc.priority)
		}
	}
}
