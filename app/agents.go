package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"

	"github.com/gtmgate/gtmgate"

	"github.com/gtmgate/gtmgate/agent"
	"github.com/gtmgate/gtmgate/brief"
	"github.com/gtmgate/gtmgate/jobs"
	"github.com/gtmgate/gtmgate/modelgw"
	"github.com/gtmgate/gtmgate/modelsandbox"
	"github.com/gtmgate/gtmgate/reauth"
	"github.com/gtmgate/gtmgate/schedule"
)

// buildAgents builds agent runs, schedules and the daily brief. Their tools
// join the registry in buildTools; the runner is handed over after it.
func (a *App) buildAgents() error {
	c := a.cfg
	var model *modelgw.Client
	if c.ModelGatewayURL != "" {
		// One attempt and one retry inside a step's time-out.
		var err error
		model, err = modelgw.New(c.ModelGatewayURL, c.ModelGatewayAPIKey, &modelgw.Options{Timeout: c.AgentStepTimeout / 2, MaxRetries: 1})
		if err != nil {
			return fmt.Errorf("MODEL_GATEWAY_URL: %w", err)
		}
	}
	a.agents = agent.New(agent.Options{Store: a.store, Recorder: a.calls, Model: model, DefaultModel: c.AgentModel,
		StepTimeout: max(c.AgentStepTimeout, a.callTimeout()), Logger: a.logger.With("component", "agent"),
		TenantLimits: gtmgate.TenantLimits{RunsInFlight: int(c.TenantRunsInFlight), RunsQueued: int(c.TenantRunsQueued),
			Schedules: int(c.TenantSchedules), StepsPerMinute: int(c.TenantStepsPerMinute)},
		Steps: a.limiter, QueueWorkers: a.queueWorkers, LiveWorkers: a.liveReplicas})
	a.scheduler = schedule.New(schedule.Options{Store: a.store, Agents: a.agents, CatchUp: c.ScheduleCatchUp,
		RunningSince: a.replicasRunningSince, Registerer: a.metrics.Registry,
		MaxBodyBytes: c.MaxBodyBytes, Logger: a.logger.With("component", "schedule")})
	_, loc, err := c.DailyBrief()
	if err != nil {
		return err
	}
	briefModel := c.DailyBriefModel
	if briefModel == "" {
		briefModel = c.AgentModel
	}
	a.brief = brief.New(brief.Options{Store: a.store, Recorder: a.recorder, Model: model, ModelName: briefModel, Location: loc,
		Timeout: c.AgentStepTimeout, Logger: a.logger.With("component", "daily-brief"), APIVersions: a.apiVersions,
		Reauth: func(ctx context.Context, tenantID string) ([]reauth.Account, error) {
			return a.reauth.Accounts(ctx, tenantID)
		}})
	return nil
}

// replicasRunningSince is when the longest-running live replica started,
// from the heartbeats: ticks due since then were not missed for want of a
// replica.
func (a *App) replicasRunningSince(ctx context.Context) (time.Time, error) {
	live, err := a.store.ListReplicas(ctx, time.Now().Add(-3*heartbeatEvery))
	if err != nil {
		return time.Time{}, err
	}
	var since time.Time
	for _, r := range live {
		if since.IsZero() || r.StartedAt.Before(since) {
			since = r.StartedAt
		}
	}
	return since, nil
}

// credentialsRevoked is told of every revoked tenant token and OAuth grant:
// the schedules it created are disabled and the agent runs acting for it
// cancelled (their gates withdrawn). Failures are logged: the schedules and
// runs check their credential again before each tick and step.
func (a *App) credentialsRevoked(ctx context.Context, tenantID string) {
	if err := a.scheduler.CredentialsRevoked(ctx, tenantID); err != nil {
		a.logger.Error("disabling the schedules of a revoked credential; each is disabled at its next tick", "tenant_id", tenantID, "err", err)
	}
	if err := a.agents.CredentialsRevoked(ctx, tenantID); err != nil {
		a.logger.Error("cancelling the runs of a revoked credential; the sweep retries", "tenant_id", tenantID, "err", err)
	}
}

// callTimeout bounds one tool call, its retries included.
func (a *App) callTimeout() time.Duration { return 4*a.cfg.UpstreamTimeout + 5*time.Second }

// agentJobs registers the workers and periodic jobs of agents, schedules
// and the daily brief.
func (a *App) agentJobs(workers *river.Workers) ([]*river.PeriodicJob, error) {
	a.agents.AddWorkers(workers)
	a.scheduler.AddWorkers(workers)
	a.brief.AddWorkers(workers)
	periodic := []*river.PeriodicJob{agent.SweepJob(), agent.RescueJob(), schedule.PeriodicJob()}
	at, _, err := a.cfg.DailyBrief()
	if err != nil {
		return nil, err
	}
	if at[0] >= 0 {
		when, err := schedule.Parse(fmt.Sprintf("%d %d * * *", at[1], at[0]), a.cfg.DailyBriefTimezone)
		if err != nil {
			return nil, fmt.Errorf("DAILY_BRIEF_TIME: %w", err)
		}
		periodic = append(periodic, brief.PeriodicJob(when))
	}
	return periodic, nil
}

// demoAdReview is the demo schedule's task, one the sandbox model plans.
var demoAdReview = gtmgate.AgentTask{Task: modelsandbox.TaskAdReview, Tools: []string{"google_ads_campaigns", "google_ads_report", "email_send"}}

// demoScheduleID is the schedule --demo seeds, disabled, for run-cron.
const demoScheduleID = "demo-weekly-ad-review"

// seedDemoSchedule stores the demo's weekly ad review once (disabled: it
// runs when an operator runs its expression with POST /admin/run-cron).
func (a *App) seedDemoSchedule(ctx context.Context) error {
	if _, err := a.store.GetSchedule(ctx, DemoTenant, demoScheduleID); err == nil {
		return nil
	}
	off := false
	_, _, err := a.scheduler.Put(ctx, demoScheduleID, schedule.Input{TenantID: DemoTenant, Cron: "0 8 * * MON", Timezone: "Europe/Berlin",
		Enabled: &off, Description: "Demo: every Monday at 8:00 Berlin time, review last week's ad spend and email the three biggest deviations",
		Agent: &demoAdReview}, schedule.AdminCreator("demo"))
	if gtmgate.ErrorCode(err) == gtmgate.EValidation || gtmgate.ErrorCode(err) == gtmgate.EUnavailable {
		// A model gateway without AGENT_MODEL: the demo runs without it.
		a.logger.Info("demo schedule not seeded: its agent task needs a model", "reason", gtmgate.AsError(err).Message)
		return nil
	}
	if err != nil {
		return fmt.Errorf("demo schedule: %w", err)
	}
	return nil
}

// queueWorkers is how many jobs of a queue this process works at once.
func (a *App) queueWorkers(queue string) int {
	if n := a.jobQueues()[queue]; n > 0 {
		return n
	}
	return jobs.DefaultWorkers[queue]
}

// liveReplicas maps the id of every replica the store knows (and so of its
// job client) to whether its heartbeat was seen within three intervals.
// When this replica's own is not among the live, heartbeats could not be
// written lately (a store outage) and the others' look stale for the same
// reason: it answers an error rather than take live replicas for dead ones.
func (a *App) liveReplicas(ctx context.Context) (map[string]bool, error) {
	rs, err := a.store.ListReplicas(ctx, time.Unix(0, 0))
	if err != nil {
		return nil, err
	}
	since := time.Now().Add(-3 * heartbeatEvery)
	live := make(map[string]bool, len(rs))
	for _, r := range rs {
		live[r.ID] = !r.SeenAt.Before(since)
	}
	if !live[a.heartbeat.Self.ID] {
		return nil, errors.New("this replica's own heartbeat is stale: not judging which replicas are gone")
	}
	return live, nil
}
