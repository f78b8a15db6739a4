package app

import (
	"testing"

	"github.com/gtmgate/gtmgate/jobs"
	"github.com/gtmgate/gtmgate/jobs/jobstest"
)

// TestJobQueues pins where the gateway's own periodic jobs go: the
// maintenance queue.
func TestJobQueues(t *testing.T) {
	jobstest.Check(t, []jobstest.Pin{
		{Name: "the health snapshot", Args: healthArgs{}, Kind: "health_snapshot", Queue: jobs.QueueMaintenance, Priority: jobs.PriorityFirst},
		{Name: "the retention sweep", Args: retentionArgs{}, Kind: "retention_sweep", Queue: jobs.QueueMaintenance, Priority: jobs.PriorityFirst},
		{Name: "the approval sweep", Args: approvalSweepArgs{}, Kind: "approval_sweep", Queue: jobs.QueueMaintenance, Priority: jobs.PriorityFirst},
		{Name: "the MCP tools refresh", Args: mcpRefreshArgs{}, Kind: "mcp_tools_refresh", Queue: jobs.QueueMaintenance, Priority: jobs.PriorityFirst},
	})
}
