package agent

import (
	"path/filepath"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jobs"
	"github.com/gtmgate/gtmgate/store/sqlite"
	"github.com/gtmgate/gtmgate/store/sqlstore"
	"github.com/gtmgate/gtmgate/store/storetest"
)

// openStore opens a store of the test's own.
func openStore(t *testing.T) *sqlstore.Store {
	t.Helper()
	s, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "g.db"), &sqlstore.Options{Sealer: storetest.NewSealer(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestTakeShare: on one process, a tenant works at most all but one of a
// queue's workers while another tenant has runs queued, and all of them
// while none has; its own queued runs, other queues and workers given back
// do not count against it.
func TestTakeShare(t *testing.T) {
	s := openStore(t)
	ctx := t.Context()
	a := New(Options{Store: s, QueueWorkers: func(queue string) int {
		if queue == jobs.QueueSchedules {
			return 1
		}
		return 4
	}})
	const agents, schedules = jobs.QueueAgents, jobs.QueueSchedules
	// Each step is one of: a job of tenant asks for a worker of queue (and
	// gets one or not, as want says); a job gives one back; a run of tenant
	// is queued; a queued run starts.
	const take, giveBack, queueRun, startRun = "take", "give back", "queue a run", "start the run"
	steps := []struct {
		name          string
		do            string
		queue, tenant string
		want          bool
	}{
		{"acme alone takes a first worker", take, agents, "acme", true},
		{"a second", take, agents, "acme", true},
		{"a third", take, agents, "acme", true},
		{"with no one else waiting, the last", take, agents, "acme", true},
		{"acme's own backlog", queueRun, "", "acme", false},
		{"acme gives one back", giveBack, agents, "acme", false},
		{"its own queued run is no other tenant's", take, agents, "acme", true},
		{"acme gives one back", giveBack, agents, "acme", false},
		{"beta queues a run", queueRun, "", "beta", false},
		{"beta waiting: acme keeps the three it works", take, agents, "acme", false},
		{"acme gives one back", giveBack, agents, "acme", false},
		{"and takes a third again", take, agents, "acme", true},
		{"beta gets the last", take, agents, "beta", true},
		{"a queue of one worker is anyone's", take, schedules, "acme", true},
		{"beta gives its worker back", giveBack, agents, "beta", false},
		{"the last is still left to beta, not to acme", take, agents, "acme", false},
		{"beta's run starts", startRun, "", "beta", false},
		{"no one waits: acme takes the last", take, agents, "acme", true},
	}
	held := map[[2]string][]func(){} // workers given, by queue and tenant
	for _, st := range steps {
		k := [2]string{st.queue, st.tenant}
		switch st.do {
		case queueRun:
			if err := s.CreateAgentRun(ctx, &gtmgate.AgentRun{ID: "run_" + st.tenant, TenantID: st.tenant, Status: gtmgate.RunQueued}); err != nil {
				t.Fatal(err)
			}
		case startRun:
			r, err := s.GetAgentRun(ctx, "run_"+st.tenant)
			if err != nil {
				t.Fatal(err)
			}
			r.Status = gtmgate.RunRunning
			if err := s.SaveAgentRun(ctx, r); err != nil {
				t.Fatal(err)
			}
		case giveBack:
			rs := held[k]
			rs[len(rs)-1]()
			held[k] = rs[:len(rs)-1]
		case take:
			release, ok, err := a.takeShare(ctx, st.queue, st.tenant)
			if err != nil {
				t.Fatalf("%s: %v", st.name, err)
			}
			if ok != st.want {
				t.Errorf("%s: %s got a worker of %s: %v, want %v", st.name, st.tenant, st.queue, ok, st.want)
			}
			if ok {
				held[k] = append(held[k], release)
			}
		}
	}
}
