package storetest

import (
	"context"
	"database/sql"
	"errors"
	"sync"
	"testing"

	"github.com/gtmgate/gtmgate"
)

// testTenantWork: the counts tenant limits are checked against, and
// admissions that see them one start at a time.
func testTenantWork(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	putTenant(t, s, "acme")
	putTenant(t, s, "globex")
	for i, st := range []string{gtmgate.RunQueued, gtmgate.RunQueued, gtmgate.RunRunning, gtmgate.RunWaitingApproval, gtmgate.RunSucceeded} {
		must(t, s.CreateAgentRun(ctx, &gtmgate.AgentRun{ID: "run_" + string(rune('a'+i)), TenantID: "acme", Status: st, CreatedAt: t0}))
	}
	must(t, s.CreateAgentRun(ctx, &gtmgate.AgentRun{ID: "run_g", TenantID: "globex", Status: gtmgate.RunQueued, CreatedAt: t0}))
	got, err := s.CountAgentRuns(ctx, "acme")
	must(t, err)
	if got != (gtmgate.TenantRuns{Queued: 2, Running: 1}) {
		t.Errorf("acme's runs = %+v, want 2 queued, 1 running", got)
	}

	// Twenty concurrent starts of globex (1 queued) admitted while fewer
	// than 3 are queued: each admission's counts are taken one start at a
	// time, on every backend, so exactly 2 are admitted.
	limit := 3
	var wg sync.WaitGroup
	var mu sync.Mutex
	admitted := 0
	for i := range 20 {
		wg.Go(func() {
			r := &gtmgate.AgentRun{ID: "run_c" + string(rune('a'+i)), TenantID: "globex", Status: gtmgate.RunQueued, CreatedAt: t0}
			err := s.CreateAgentRunWith(ctx, r, func(_ context.Context, _ *sql.Tx, runs gtmgate.TenantRuns) error {
				if runs.Queued >= limit {
					return errRefused
				}
				return nil
			})
			if err != nil && !errors.Is(err, errRefused) {
				t.Error(err)
			}
			mu.Lock()
			if err == nil {
				admitted++
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	if admitted != limit-1 {
		t.Errorf("%d concurrent starts admitted under a limit of %d queued (1 queued before), want %d", admitted, limit, limit-1)
	}
	err = s.CreateAgentRunWith(ctx, &gtmgate.AgentRun{ID: "run_x", TenantID: "nobody", Status: gtmgate.RunQueued},
		func(context.Context, *sql.Tx, gtmgate.TenantRuns) error { return nil })
	wantErr(t, err, gtmgate.ErrNotFound)

	for i, enabled := range []bool{true, true, false} {
		_, err := s.PutSchedule(ctx, &gtmgate.Schedule{JobID: "job" + string(rune('a'+i)), TenantID: "acme", Cron: "* * * * *",
			Timezone: "UTC", Enabled: enabled})
		must(t, err)
	}
	for _, tc := range []struct {
		tenant, except string
		want           int
	}{{"acme", "", 2}, {"acme", "joba", 1}, {"acme", "jobc", 2}, {"globex", "", 0}} {
		n, err := s.CountEnabledSchedules(ctx, tc.tenant, tc.except)
		must(t, err)
		if n != tc.want {
			t.Errorf("CountEnabledSchedules(%s, except %q) = %d, want %d", tc.tenant, tc.except, n, tc.want)
		}
	}
}

var errRefused = errors.New("refused")
