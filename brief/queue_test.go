package brief

import (
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/jobs"
	"github.com/gtmgate/gtmgate/jobs/jobstest"
)

// TestJobQueues pins where the daily brief goes: the maintenance queue.
func TestJobQueues(t *testing.T) {
	jobstest.Check(t, []jobstest.Pin{{Name: "the daily brief", Args: jobArgs{Tick: time.Now()}, Kind: "daily_brief",
		Queue: jobs.QueueMaintenance, Priority: jobs.PriorityFirst}})
}
