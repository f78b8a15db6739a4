package schedule

import (
	"testing"

	"github.com/gtmgate/gtmgate/jobs"
	"github.com/gtmgate/gtmgate/jobs/jobstest"
)

// TestJobQueues pins where the schedule tick goes: first on the schedules
// queue, ahead of the runs ticks start there (agent.TestRunQueue pins
// those).
func TestJobQueues(t *testing.T) {
	jobstest.Check(t, []jobstest.Pin{{Name: "the tick", Args: TickArgs{}, Kind: "schedule_tick",
		Queue: jobs.QueueSchedules, Priority: jobs.PriorityFirst}})
}
