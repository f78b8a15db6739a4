package schedule

import (
	"testing"
	"time"
)

// TestRunIDPerTenant: a tick's run id is the same on every replica, and two
// tenants' jobs of one name ticking at one time get two runs.
func TestRunIDPerTenant(t *testing.T) {
	tick := time.Date(2026, 11, 30, 7, 0, 0, 0, time.UTC)
	if runID("acme", "weekly", tick) != runID("acme", "weekly", tick.In(time.FixedZone("CET", 3600))) {
		t.Error("one tick has two run ids")
	}
	if runID("acme", "weekly", tick) == runID("beta", "weekly", tick) {
		t.Error("two tenants' ticks of a job named alike share a run id")
	}
}
