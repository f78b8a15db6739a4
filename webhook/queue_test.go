package webhook

import (
	"testing"

	"github.com/gtmgate/gtmgate/jobs"
	"github.com/gtmgate/gtmgate/jobs/jobstest"
)

// TestJobQueues pins where webhook deliveries go: the webhooks queue,
// whoever queues them (alerts, soft limits) without options of their own.
func TestJobQueues(t *testing.T) {
	jobstest.Check(t, []jobstest.Pin{{Name: "a delivery", Args: Args{WebhookID: "msg_1", Event: "quota.soft_limit"},
		Kind: "webhook_delivery", Queue: jobs.QueueWebhooks, Priority: jobs.PriorityFirst}})
}
