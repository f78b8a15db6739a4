package schedule

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/agent"
	"github.com/gtmgate/gtmgate/store/storetest"
)

func TestPlanTicks(t *testing.T) {
	t.Parallel()
	every := mustParse(t, "* * * * *", "UTC")
	t0 := time.Date(2026, 11, 30, 7, 0, 0, 0, time.UTC)
	min := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Minute) }
	type skip struct {
		first  time.Time
		n      int
		reason string
	}
	for _, tc := range []struct {
		name         string
		now          time.Time
		runningSince time.Time
		catchUp      time.Duration
		wantRun      []time.Time
		wantSkipped  []skip
	}{
		{name: "on time", now: min(0).Add(4 * time.Second), runningSince: min(-60), catchUp: time.Hour,
			wantRun: []time.Time{min(0)}},
		{name: "tick job delayed three minutes: every tick runs", now: min(3).Add(10 * time.Second), runningSince: min(-60), catchUp: time.Hour,
			wantRun: []time.Time{min(0), min(1), min(2), min(3)}},
		{name: "delayed beyond the per-pass bound: the newest run, the rest skipped as late", now: min(14).Add(time.Second),
			runningSince: min(-60), catchUp: time.Hour,
			wantRun:     []time.Time{min(5), min(6), min(7), min(8), min(9), min(10), min(11), min(12), min(13), min(14)},
			wantSkipped: []skip{{min(0), 5, "tick job was delayed while a replica was running; only the newest 10"}}},
		{name: "no replica running: only the latest missed tick runs", now: min(5).Add(time.Second), runningSince: min(5).Add(500 * time.Millisecond),
			catchUp: time.Hour, wantRun: []time.Time{min(5)},
			wantSkipped: []skip{{min(0), 5, "missed while no replica was running"}}},
		{name: "down, then up and delayed: the late ticks run, the down ones are skipped as down", now: min(5).Add(time.Second),
			runningSince: min(2).Add(-time.Second), catchUp: time.Hour, wantRun: []time.Time{min(2), min(3), min(4), min(5)},
			wantSkipped: []skip{{min(0), 2, "missed while no replica was running"}}},
		{name: "older than the catch-up limit while a replica ran", now: min(3).Add(time.Second), runningSince: min(-60),
			catchUp: 90 * time.Second, wantRun: []time.Time{min(2), min(3)},
			wantSkipped: []skip{{min(0), 2, "more than the catch-up limit of 1m30s late (the tick job was delayed while a replica was running)"}}},
		{name: "older than the catch-up limit with no replica", now: min(180), runningSince: min(180).Add(-time.Second),
			catchUp: time.Hour, wantRun: []time.Time{min(180)},
			wantSkipped: []skip{{min(0), 120, "catch-up limit of 1h0m0s late (missed while no replica was running)"},
				{min(120), 60, "missed while no replica was running"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := planTicks(every, t0, tc.now, nil, tc.catchUp, tc.runningSince)
			if len(p.run) != len(tc.wantRun) {
				t.Fatalf("run %v, want %v", p.run, tc.wantRun)
			}
			for i := range p.run {
				if !p.run[i].Equal(tc.wantRun[i]) {
					t.Errorf("run[%d] = %v, want %v", i, p.run[i], tc.wantRun[i])
				}
			}
			if len(p.skipped) != len(tc.wantSkipped) {
				t.Fatalf("skipped %+v, want %+v", p.skipped, tc.wantSkipped)
			}
			for i, s := range p.skipped {
				w := tc.wantSkipped[i]
				if !s.first.Equal(w.first) || s.n != w.n || !strings.Contains(s.reason, w.reason) {
					t.Errorf("skipped[%d] = %+v, want %+v", i, s, w)
				}
			}
		})
	}
}

func TestPlanTicksStopsAtEndsAt(t *testing.T) {
	t.Parallel()
	every := mustParse(t, "* * * * *", "UTC")
	t0 := time.Date(2026, 11, 30, 7, 0, 0, 0, time.UTC)
	ends := t0.Add(90 * time.Second)
	p := planTicks(every, t0, t0.Add(5*time.Minute), &ends, time.Hour, t0.Add(-time.Hour))
	if len(p.run) != 2 || len(p.skipped) != 0 {
		t.Errorf("plan = %+v, want the ticks at 7:00 and 7:01 only", p)
	}
}

// nopJobs accepts every job.
type nopJobs struct{ queues []string }

func (n *nopJobs) Insert(_ context.Context, _ river.JobArgs, o *river.InsertOpts) (*rivertype.JobInsertResult, error) {
	n.queues = append(n.queues, o.Queue)
	return &rivertype.JobInsertResult{Job: &rivertype.JobRow{}}, nil
}

func (n *nopJobs) InsertTx(ctx context.Context, _ *sql.Tx, args river.JobArgs, o *river.InsertOpts) (*rivertype.JobInsertResult, error) {
	return n.Insert(ctx, args, o)
}

// TestTickRecordsLateness: a tick job delayed 2m10s while a replica was
// running runs each of the three due ticks, each run recording how late it
// was created, on the schedules queue; nothing is said to be missed while no
// replica ran.
func TestTickRecordsLateness(t *testing.T) {
	ctx := t.Context()
	st := storetest.TenantWithToken(t)
	due := time.Date(2026, 11, 30, 7, 0, 0, 0, time.UTC)
	now := due.Add(2*time.Minute + 10*time.Second)
	if _, err := st.PutSchedule(ctx, &gtmgate.Schedule{JobID: "minutely", TenantID: "acme", Cron: "* * * * *", Timezone: "UTC", Enabled: true,
		Call: &gtmgate.ToolCallSpec{Tool: "crm_deals", Input: json.RawMessage(`{"action":"list"}`)}, NextRunAt: &due, UpdatedBy: "admin"}); err != nil {
		t.Fatal(err)
	}
	jobs := &nopJobs{}
	ag := agent.New(agent.Options{Store: st, Now: func() time.Time { return now }})
	ag.Attach(jobs)
	s := New(Options{Store: st, Agents: ag, Now: func() time.Time { return now },
		RunningSince: func(context.Context) (time.Time, error) { return due.Add(-time.Hour), nil }})
	if err := s.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	runs, err := st.ListAgentRuns(ctx, gtmgate.AgentRunFilter{TenantID: "acme", ScheduleID: "minutely"})
	if err != nil {
		t.Fatal(err)
	}
	late := map[float64]bool{}
	for _, r := range runs {
		if r.Status != gtmgate.RunQueued {
			t.Errorf("run for %v: status %s (%s), want queued", r.ScheduledFor, r.Status, r.Reason)
		}
		late[r.LateBySeconds] = true
	}
	if len(runs) != 3 || !late[130] || !late[70] || !late[10] {
		t.Errorf("runs late by %v, want 130, 70 and 10 seconds", late)
	}
	for _, q := range jobs.queues {
		if q != "schedules" {
			t.Errorf("a tick's run was queued on %q, want schedules", q)
		}
	}
	if got := s.RecentLateness(); len(got) != 3 || got[0].LateBySeconds != 130 {
		t.Errorf("recent lateness = %+v", got)
	}
	sc, err := st.GetSchedule(ctx, "acme", "minutely")
	if err != nil || sc.NextRunAt == nil || !sc.NextRunAt.Equal(due.Add(3*time.Minute)) {
		t.Errorf("next run = %v, %v; want 7:03", sc.NextRunAt, err)
	}
}
