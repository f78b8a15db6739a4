package jobs_test

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/internal/pgtest"
	"github.com/gtmgate/gtmgate/jobs"
	"github.com/gtmgate/gtmgate/store/postgres"
	"github.com/gtmgate/gtmgate/store/sqlite"
	"github.com/gtmgate/gtmgate/store/sqlstore"
	"github.com/gtmgate/gtmgate/store/storetest"
)

// storesAndEngines opens a store and an engine (not started) on one
// database of each backend.
func storesAndEngines(t *testing.T) map[string]func(t *testing.T) (gtmgate.Store, *jobs.Engine) {
	engine := func(t *testing.T, opts jobs.Options) *jobs.Engine {
		opts.Workers = river.NewWorkers()
		river.AddWorker(opts.Workers, &echoWorker{done: make(chan string, 4)})
		e, err := jobs.Open(t.Context(), opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close(context.Background()) })
		return e
	}
	return map[string]func(t *testing.T) (gtmgate.Store, *jobs.Engine){
		"sqlite": func(t *testing.T) (gtmgate.Store, *jobs.Engine) {
			path := filepath.Join(t.TempDir(), "gtmgate.db")
			s, err := sqlite.Open(t.Context(), path, &sqlstore.Options{Sealer: storetest.NewSealer(t)})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s, engine(t, jobs.Options{SQLitePath: path})
		},
		"postgres": func(t *testing.T) (gtmgate.Store, *jobs.Engine) {
			url := pgtest.URL(t)
			schema := pgtest.FreshSchema(t, url)
			s, err := postgres.Open(t.Context(), url, &sqlstore.Options{Sealer: storetest.NewSealer(t), Schema: schema})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s, engine(t, jobs.Options{DatabaseURL: url, Schema: schema})
		},
	}
}

// TestRunAndJobTogether: a run and the job inserted in its transaction are
// stored together or not at all, on both backends.
func TestRunAndJobTogether(t *testing.T) {
	for name, open := range storesAndEngines(t) {
		t.Run(name, func(t *testing.T) {
			s, e := open(t)
			ctx := t.Context()
			if _, err := s.PutTenant(ctx, &gtmgate.Tenant{ID: "acme", Name: "Acme", Status: gtmgate.TenantActive}); err != nil {
				t.Fatal(err)
			}
			run := func(id string) *gtmgate.AgentRun {
				return &gtmgate.AgentRun{ID: id, TenantID: "acme", Status: gtmgate.RunQueued, Trigger: gtmgate.TriggerCall,
					Steps: []gtmgate.RunStep{}}
			}
			// jobsOf counts the echo jobs queued; text names the step only.
			jobsOf := func(text string) int {
				t.Helper()
				stats, err := e.QueueStats(ctx, time.Now())
				if err != nil {
					t.Fatal(err)
				}
				n := 0
				for _, st := range stats {
					if st.Kind == "test_echo" {
						n += int(st.Available)
					}
				}
				return n
			}
			runExists := func(id string) bool {
				_, err := s.GetAgentRun(ctx, id)
				if err != nil && !errors.Is(err, gtmgate.ErrNotFound) {
					t.Fatal(err)
				}
				return err == nil
			}
			insert := func(text string, opts *river.InsertOpts) gtmgate.RunAdmission {
				return func(ctx context.Context, tx *sql.Tx, _ gtmgate.TenantRuns) error {
					_, err := e.InsertTx(ctx, tx, echoArgs{Text: text}, opts)
					return err
				}
			}

			// Both stored.
			if err := s.CreateAgentRunWith(ctx, run("run_ok"), insert("ok", nil)); err != nil {
				t.Fatal(err)
			}
			if !runExists("run_ok") || jobsOf("ok") != 1 {
				t.Errorf("after a commit: run stored %v, jobs %d; want both", runExists("run_ok"), jobsOf("ok"))
			}

			// The job insert fails (a priority River refuses): no run.
			err := s.CreateAgentRunWith(ctx, run("run_nojob"), insert("nojob", &river.InsertOpts{Priority: 9}))
			if err == nil {
				t.Fatal("a refused job insert created the run")
			}
			if runExists("run_nojob") || jobsOf("nojob") != 1 {
				t.Errorf("after a failed job insert: run stored %v, jobs %d; want neither", runExists("run_nojob"), jobsOf("nojob"))
			}

			// The job is inserted, then the admission refuses: no job.
			refused := gtmgate.Errorf(gtmgate.ERateLimited, "too many")
			err = s.CreateAgentRunWith(ctx, run("run_refused"), func(ctx context.Context, tx *sql.Tx, r gtmgate.TenantRuns) error {
				if err := insert("refused", nil)(ctx, tx, r); err != nil {
					return err
				}
				return refused
			})
			if !errors.Is(err, refused) {
				t.Fatalf("admission error = %v, want it unchanged", err)
			}
			if runExists("run_refused") || jobsOf("refused") != 1 {
				t.Errorf("after a refused admission: run stored %v, jobs %d; want neither", runExists("run_refused"), jobsOf("refused"))
			}

			// The run cannot be stored (its id is taken): no job.
			if err := s.CreateAgentRunWith(ctx, run("run_ok"), insert("dup", nil)); !errors.Is(err, gtmgate.ErrConflict) {
				t.Fatalf("second run of one id: %v, want ErrConflict", err)
			}
			if jobsOf("dup") != 1 {
				t.Errorf("a run that was not stored left a job: %d queued, want 1", jobsOf("dup"))
			}

			// The admission sees the tenant's unfinished runs.
			var seen gtmgate.TenantRuns
			if err := s.CreateAgentRunWith(ctx, run("run_count"), func(_ context.Context, _ *sql.Tx, r gtmgate.TenantRuns) error {
				seen = r
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if seen != (gtmgate.TenantRuns{Queued: 1}) {
				t.Errorf("admission counted %+v, want 1 queued (run_ok)", seen)
			}
		})
	}
}
