package app

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/riverqueue/river"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/health"
	"github.com/gtmgate/gtmgate/jobs"
	"github.com/gtmgate/gtmgate/jsonapi"
	"github.com/gtmgate/gtmgate/mcpservers"
	"github.com/gtmgate/gtmgate/provider/apiversion"
	"github.com/gtmgate/gtmgate/webhook"
)

// Health snapshots: one a minute (kept for GTMGATE_RETAIN_HEALTH).
const (
	healthEvery     = time.Minute
	healthSeriesMax = 7 * 24 * 60
	// healthCacheFor is how long /health trusts the latest snapshot it read.
	healthCacheFor = 30 * time.Second
)

// healthSources are what this replica's snapshots read.
func (a *App) healthSources() health.Sources {
	src := health.Sources{Store: a.store, Backend: a.backend, Audit: a.recorder, DataDir: a.cfg.DataDir, Started: a.started,
		Now: time.Now, WebhookKind: webhook.Args{}.Kind(), APIVersions: a.apiVersions,
		ProviderOf: func(tool string) string {
			if e, ok := a.registry.Tool(tool); ok {
				return e.Provider
			}
			return ""
		}}
	if a.reauth != nil {
		src.Reauth = a.reauth.Accounts
	}
	if a.federation != nil {
		src.MCPServers = mcpservers.Health(a.store, a.federation)
	}
	if a.jobs != nil {
		src.Jobs = a.jobs.QueueStats
	}
	if a.scheduler != nil {
		src.ScheduleTicks = func() []health.ScheduleTick {
			var out []health.ScheduleTick
			for _, l := range a.scheduler.RecentLateness() {
				out = append(out, health.ScheduleTick{JobID: l.JobID, Tick: l.Tick, LateBySeconds: l.LateBySeconds})
			}
			return out
		}
	}
	if a.harness != nil {
		src.Grading = func() *health.Grading {
			b := a.harness.Backlog()
			return &health.Grading{Waiting: b.Waiting, MaxWaiting: b.MaxWaiting, RetryBuffered: b.RetryBuffered, Dropped: b.Dropped}
		}
	}
	return src
}

// apiVersions grades the provider API versions this installation speaks.
func (a *App) apiVersions(now time.Time) []apiversion.Status {
	return apiversion.Statuses(a.cfg.APIVersion, now)
}

// takeHealth takes a snapshot, stores it and remembers it for /health.
func (a *App) takeHealth(ctx context.Context) (*health.Report, error) {
	// Calls acknowledged moments ago are counted too.
	fctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	if err := a.recorder.Flush(fctx); err != nil {
		a.logger.Warn("health snapshot: the audit journal is behind; recent calls may be missing", "err", err)
	}
	cancel()
	r := health.Take(ctx, a.healthSources())
	body, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("health snapshot: encode: %w", err)
	}
	a.latestHealth.set(r)
	if r.Status == health.StatusDown {
		return r, nil // the store is gone: nothing to keep it in
	}
	if err := a.store.AddHealthSnapshot(ctx, &gtmgate.HealthSnapshot{ID: r.ID, TakenAt: r.TakenAt, Status: r.Status, Body: body}); err != nil {
		return r, fmt.Errorf("health snapshot: store: %w", err)
	}
	return r, nil
}

// healthArgs is the minute's snapshot, taken by the elected leader.
type healthArgs struct{}

func (healthArgs) Kind() string { return "health_snapshot" }

// InsertOpts implements river.JobArgsWithInsertOpts: one at a time.
func (healthArgs) InsertOpts() river.InsertOpts {
	return jobs.OneAtATime(jobs.QueueMaintenance, healthEvery)
}

type healthWorker struct {
	river.WorkerDefaults[healthArgs]
	a *App
}

func (w *healthWorker) Work(ctx context.Context, _ *river.Job[healthArgs]) error {
	_, err := w.a.takeHealth(ctx)
	return err
}

func healthJob() *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(healthEvery),
		func() (river.JobArgs, *river.InsertOpts) { return healthArgs{}, nil }, &river.PeriodicJobOpts{RunOnStart: true})
}

// mountHealth adds GET /admin/system-health: the latest snapshot, a fresh
// one (?fresh=1) or the series since a time (?since=).
func (a *App) mountHealth(mux gtmgate.Router) {
	mux.HandleFunc("GET /admin/system-health", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if v := q.Get("since"); v != "" {
			since, err := jsonapi.QuerySince(v)
			if err != nil {
				jsonapi.WriteError(w, r, err)
				return
			}
			list, err := a.store.ListHealthSnapshots(r.Context(), since, healthSeriesMax)
			if err != nil {
				jsonapi.WriteError(w, r, err)
				return
			}
			series := make([]json.RawMessage, len(list))
			for i, s := range list {
				series[i] = s.Body
			}
			jsonapi.Write(w, http.StatusOK, map[string]any{"snapshots": series, "count": len(series)})
			return
		}
		if q.Get("fresh") != "1" {
			list, err := a.store.ListHealthSnapshots(r.Context(), time.Time{}, 1)
			if err == nil && len(list) == 1 {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusOK)
				w.Write(list[0].Body)
				return
			}
		}
		rep, err := a.takeHealth(r.Context())
		if err != nil && rep == nil {
			jsonapi.WriteError(w, r, err)
			return
		}
		jsonapi.Write(w, http.StatusOK, rep)
	})
}

// healthCache is the latest snapshot /health reports from.
type healthCache struct {
	mu     sync.Mutex
	report *health.Report
	read   time.Time
}

func (c *healthCache) set(r *health.Report) {
	c.mu.Lock()
	c.report, c.read = r, time.Now()
	c.mu.Unlock()
}

// snapshotStatus is /health's view of the latest snapshot: its status and
// reasons (counts and component names only), read from the store at most
// every healthCacheFor.
func (a *App) snapshotStatus(ctx context.Context) (string, []string, time.Time) {
	c := &a.latestHealth
	c.mu.Lock()
	r, fresh := c.report, time.Since(c.read) < healthCacheFor
	c.mu.Unlock()
	if !fresh {
		if list, err := a.store.ListHealthSnapshots(ctx, time.Time{}, 1); err == nil && len(list) == 1 {
			var rep health.Report
			if json.Unmarshal(list[0].Body, &rep) == nil {
				r = &rep
			}
		}
		c.mu.Lock()
		c.report, c.read = r, time.Now()
		c.mu.Unlock()
	}
	if r == nil {
		return "", nil, time.Time{}
	}
	return r.Status, r.Reasons, r.TakenAt
}
