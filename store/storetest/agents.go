package storetest

import (
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gtmgate/gtmgate"
)

func testAgentRuns(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	r := &gtmgate.AgentRun{ID: "run_1", TenantID: "acme", Status: gtmgate.RunQueued, Task: "list deals", MaxSteps: 8,
		Trigger: gtmgate.TriggerCall, RequestID: "req-1", CreatedAt: t0, Steps: []gtmgate.RunStep{}}
	must(t, s.CreateAgentRun(ctx, r))
	wantErr(t, s.CreateAgentRun(ctx, r), gtmgate.ErrConflict)
	_, err := s.GetAgentRun(ctx, "nope")
	wantErr(t, err, gtmgate.ErrNotFound)

	// Two workers holding version 1: the first save wins, the second is stale.
	a, err := s.GetAgentRun(ctx, "run_1")
	must(t, err)
	b := *a
	a.Status, a.Messages = gtmgate.RunRunning, json.RawMessage(`[{"role":"user","content":"list deals"}]`)
	a.Steps = append(a.Steps, gtmgate.RunStep{N: 1, Tool: "crm_deals", Action: "list", Input: json.RawMessage(`{"action":"list"}`),
		Status: gtmgate.StepOK, RequestID: "req-1.1", StartedAt: t0})
	must(t, s.SaveAgentRun(ctx, a))
	b.Status = gtmgate.RunFailed
	wantErr(t, s.SaveAgentRun(ctx, &b), gtmgate.ErrConflict)
	got, err := s.GetAgentRun(ctx, "run_1")
	must(t, err)
	if diff := cmp.Diff(a, got); diff != "" {
		t.Errorf("saved run (-want +got):\n%s", diff)
	}

	// One run per schedule tick; manual runs of the same schedule are free.
	tick := t0.Add(time.Hour)
	sched := func(id, trigger string) *gtmgate.AgentRun {
		return &gtmgate.AgentRun{ID: id, TenantID: "acme", Status: gtmgate.RunQueued, Trigger: trigger, ScheduleID: "weekly",
			ScheduledFor: &tick, CreatedAt: t0.Add(time.Minute)}
	}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			errs[i] = s.CreateAgentRun(ctx, sched("run_tick"+string(rune('a'+i)), gtmgate.TriggerSchedule))
		})
	}
	wg.Wait()
	created := 0
	for _, err := range errs {
		if err == nil {
			created++
		} else {
			wantErr(t, err, gtmgate.ErrConflict)
		}
	}
	if created != 1 {
		t.Errorf("%d runs created for one tick, want 1", created)
	}
	must(t, s.CreateAgentRun(ctx, sched("run_manual", gtmgate.TriggerManual)))

	runs, err := s.ListAgentRuns(ctx, gtmgate.AgentRunFilter{ScheduleID: "weekly"})
	must(t, err)
	if len(runs) != 2 {
		t.Errorf("schedule's runs = %d, want 2", len(runs))
	}
	runs, err = s.ListAgentRuns(ctx, gtmgate.AgentRunFilter{TenantID: "acme", Status: gtmgate.RunRunning})
	must(t, err)
	if len(runs) != 1 || runs[0].ID != "run_1" {
		t.Errorf("running runs = %+v", runs)
	}
	a.Status, a.WaitingFor = gtmgate.RunWaitingApproval, "apr_1"
	must(t, s.SaveAgentRun(ctx, a))
	runs, err = s.ListAgentRuns(ctx, gtmgate.AgentRunFilter{WaitingFor: "apr_1"})
	must(t, err)
	if len(runs) != 1 || runs[0].ID != "run_1" {
		t.Errorf("runs waiting for apr_1 = %+v", runs)
	}
	runs, err = s.ListAgentRuns(ctx, gtmgate.AgentRunFilter{TenantID: "beta"})
	must(t, err)
	if len(runs) != 0 {
		t.Errorf("another tenant sees %d runs", len(runs))
	}
}

func testSchedules(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	next := t0.Add(time.Hour)
	sc := &gtmgate.Schedule{JobID: "weekly", TenantID: "acme", Cron: "0 8 * * MON", Timezone: "Europe/Berlin",
		Agent: &gtmgate.AgentTask{Task: "review ad spend"}, Enabled: true, NextRunAt: &next}
	created, err := s.PutSchedule(ctx, sc)
	must(t, err)
	if !created {
		t.Error("first put: created = false")
	}
	first := sc.CreatedAt
	sc.Description = "Monday review"
	created, err = s.PutSchedule(ctx, sc)
	must(t, err)
	if created || !sc.CreatedAt.Equal(first) {
		t.Errorf("replace: created = %v, created_at %v → %v", created, first, sc.CreatedAt)
	}
	other := &gtmgate.Schedule{JobID: "daily", TenantID: "beta", Cron: "@daily", Timezone: "UTC",
		Call: &gtmgate.ToolCallSpec{Tool: "crm_deals", Input: json.RawMessage(`{"action":"list"}`)}, Enabled: true}
	_, err = s.PutSchedule(ctx, other)
	must(t, err)

	got, err := s.GetSchedule(ctx, "acme", "weekly")
	must(t, err)
	if got.Description != "Monday review" || got.NextRunAt == nil || !got.NextRunAt.Equal(next) {
		t.Errorf("get = %+v", got)
	}
	list, err := s.ListSchedules(ctx, gtmgate.ScheduleFilter{TenantID: "beta"})
	must(t, err)
	if len(list) != 1 || list[0].JobID != "daily" {
		t.Errorf("beta's schedules = %+v", list)
	}
	due, err := s.ListSchedules(ctx, gtmgate.ScheduleFilter{DueBy: next})
	must(t, err)
	if len(due) != 1 || due[0].JobID != "weekly" {
		t.Errorf("due = %+v", due)
	}
	byCron, err := s.ListSchedules(ctx, gtmgate.ScheduleFilter{Cron: "@daily"})
	must(t, err)
	if len(byCron) != 1 || byCron[0].JobID != "daily" {
		t.Errorf("by cron = %+v", byCron)
	}

	// Two tickers advance the same tick: one wins.
	later := next.Add(7 * 24 * time.Hour)
	must(t, s.AdvanceSchedule(ctx, "acme", "weekly", next, &later))
	wantErr(t, s.AdvanceSchedule(ctx, "acme", "weekly", next, &later), gtmgate.ErrConflict)
	got, err = s.GetSchedule(ctx, "acme", "weekly")
	must(t, err)
	if !got.NextRunAt.Equal(later) {
		t.Errorf("next run after advance = %v, want %v", got.NextRunAt, later)
	}
	must(t, s.AdvanceSchedule(ctx, "acme", "weekly", later, nil))
	due, err = s.ListSchedules(ctx, gtmgate.ScheduleFilter{DueBy: later.Add(time.Hour)})
	must(t, err)
	if len(due) != 0 {
		t.Errorf("a schedule with no next run is due: %+v", due)
	}

	wantErr(t, s.AdvanceSchedule(ctx, "beta", "weekly", later, nil), gtmgate.ErrConflict)

	must(t, s.DeleteSchedule(ctx, "acme", "weekly"))
	wantErr(t, s.DeleteSchedule(ctx, "acme", "weekly"), gtmgate.ErrNotFound)
	_, err = s.GetSchedule(ctx, "acme", "weekly")
	wantErr(t, err, gtmgate.ErrNotFound)
}

// testSchedulesPerTenant: job ids are each tenant's own. Two tenants may
// both have a "weekly"; putting one never moves or replaces the other's,
// each reads, advances and deletes its own, and a tenant's lookup of a name
// only another uses is not found.
func testSchedulesPerTenant(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	next := t0.Add(time.Hour)
	put := func(tenant, task string) bool {
		t.Helper()
		created, err := s.PutSchedule(ctx, &gtmgate.Schedule{JobID: "weekly", TenantID: tenant, Cron: "@daily", Timezone: "UTC",
			Agent: &gtmgate.AgentTask{Task: task}, Enabled: true, NextRunAt: &next})
		must(t, err)
		return created
	}
	if !put("acme", "acme's task") || !put("beta", "beta's task") {
		t.Fatal("the second tenant's weekly was not created as its own")
	}
	if put("beta", "beta's task, replaced") {
		t.Error("replacing beta's weekly: created = true")
	}
	for tenant, task := range map[string]string{"acme": "acme's task", "beta": "beta's task, replaced"} {
		got, err := s.GetSchedule(ctx, tenant, "weekly")
		must(t, err)
		if got.TenantID != tenant || got.Agent.Task != task {
			t.Errorf("%s's weekly = %s %q", tenant, got.TenantID, got.Agent.Task)
		}
		list, err := s.ListSchedules(ctx, gtmgate.ScheduleFilter{TenantID: tenant})
		must(t, err)
		if len(list) != 1 || list[0].Agent.Task != task {
			t.Errorf("%s's schedules = %+v", tenant, list)
		}
	}
	byName, err := s.ListSchedules(ctx, gtmgate.ScheduleFilter{JobID: "weekly"})
	must(t, err)
	if len(byName) != 2 || byName[0].TenantID != "acme" || byName[1].TenantID != "beta" {
		t.Errorf("schedules named weekly = %+v", byName)
	}
	_, err = s.GetSchedule(ctx, "gamma", "weekly")
	wantErr(t, err, gtmgate.ErrNotFound)
	wantErr(t, s.DeleteSchedule(ctx, "gamma", "weekly"), gtmgate.ErrNotFound)

	later := next.Add(24 * time.Hour)
	must(t, s.AdvanceSchedule(ctx, "acme", "weekly", next, &later))
	if got, _ := s.GetSchedule(ctx, "beta", "weekly"); !got.NextRunAt.Equal(next) {
		t.Errorf("advancing acme's weekly moved beta's to %v", got.NextRunAt)
	}
	must(t, s.DeleteSchedule(ctx, "acme", "weekly"))
	if _, err := s.GetSchedule(ctx, "beta", "weekly"); err != nil {
		t.Errorf("deleting acme's weekly: beta's is %v", err)
	}

	// Each tenant's tick of its own weekly gets its run.
	for _, tenant := range []string{"acme", "beta"} {
		must(t, s.CreateAgentRun(ctx, &gtmgate.AgentRun{ID: "run_" + tenant, TenantID: tenant, Status: gtmgate.RunQueued,
			Trigger: gtmgate.TriggerSchedule, ScheduleID: "weekly", ScheduledFor: &next, CreatedAt: t0}))
	}
	wantErr(t, s.CreateAgentRun(ctx, &gtmgate.AgentRun{ID: "run_beta2", TenantID: "beta", Status: gtmgate.RunQueued,
		Trigger: gtmgate.TriggerSchedule, ScheduleID: "weekly", ScheduledFor: &next, CreatedAt: t0}), gtmgate.ErrConflict)
}

func testDailyBriefs(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	_, err := s.GetDailyBrief(ctx, "")
	wantErr(t, err, gtmgate.ErrNotFound)
	for i, d := range []string{"2026-03-01", "2026-03-03", "2026-03-02"} {
		must(t, s.PutDailyBrief(ctx, &gtmgate.DailyBrief{Date: d, GeneratedAt: t0.Add(timeStep(i)), Figures: json.RawMessage(`{"calls":1}`),
			Markdown: "# Brief " + d, WrittenBy: "template", Trigger: "schedule"}))
	}
	must(t, s.PutDailyBrief(ctx, &gtmgate.DailyBrief{Date: "2026-03-02", GeneratedAt: t0.Add(time.Hour), Figures: json.RawMessage(`{"calls":2}`),
		Markdown: "# Again", WrittenBy: "template", Trigger: "manual"}))
	latest, err := s.GetDailyBrief(ctx, "")
	must(t, err)
	if latest.Date != "2026-03-03" {
		t.Errorf("latest = %s", latest.Date)
	}
	b, err := s.GetDailyBrief(ctx, "2026-03-02")
	must(t, err)
	if b.Markdown != "# Again" || string(b.Figures) != `{"calls":2}` {
		t.Errorf("replaced brief = %+v", b)
	}
	_, err = s.GetDailyBrief(ctx, "2025-01-01")
	wantErr(t, err, gtmgate.ErrNotFound)
}
