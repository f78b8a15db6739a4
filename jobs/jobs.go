// Package jobs is gtmgate's background work engine: River
// (github.com/riverqueue/river) on the same database as the store, through
// riverpgxv5 on PostgreSQL and riversqlite on SQLite. Work that happens after
// a response or on a clock (grading a trace, delivering a webhook, periodic
// sweeps) is a River job: durable, retried with backoff, unique where it must
// happen once, and run once across replicas. River's own migrations run when
// the engine opens.
package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivertype"

	"github.com/gtmgate/gtmgate/store/postgres"
	"github.com/gtmgate/gtmgate/store/sqlite"
)

// Options opens an Engine. Exactly one of SQLitePath and DatabaseURL is set.
type Options struct {
	// SQLitePath is the store's SQLite file; River's tables live beside the store's.
	SQLitePath string
	// DatabaseURL is the store's PostgreSQL URL, and Schema its schema ("" = public).
	DatabaseURL string
	Schema      string
	// Workers holds every job kind this process works. Kinds registered
	// here are the only ones fetched, so a replica on an older version
	// leaves a newer kind to the replicas that know it.
	Workers *river.Workers
	// Periodic jobs are enqueued by the elected leader only.
	Periodic []*river.PeriodicJob
	// Queues is the number of jobs of each queue this process works at
	// once; a queue missing or at zero has DefaultWorkers. Every queue of
	// Queues is worked.
	Queues map[string]int
	// RescueAfter is how long a job left running by a process that stopped
	// waits before it is run again (default 5 minutes). It also bounds a
	// job's run time. Workers are idempotent, so a slow job rescued while
	// still running does its work once.
	RescueAfter time.Duration
	// FinishedJobsKept is how long completed and cancelled jobs are kept,
	// and discarded ones (failed for good) at least a week; zero keeps
	// them forever.
	FinishedJobsKept time.Duration
	// ClientID names this process in the jobs it works (River's
	// attempted_by), so a job left running by a process that is gone can be
	// told apart (RunningJobs); default River's own random id.
	ClientID string
	// PollInterval is how often SQLite (which has no LISTEN) is polled for new jobs (default 1s).
	PollInterval time.Duration
	// Registerer receives the queue wait metric (nil: not registered).
	Registerer prometheus.Registerer
	Logger     *slog.Logger
}

// Engine inserts, works and inspects jobs.
type Engine struct {
	client  client
	backend string
	close   func()
	logger  *slog.Logger
	count   counter
	// countWaiting runs waitingQuery.
	countWaiting func(ctx context.Context, queue string) (int64, error)
}

// client is what gtmgate uses of *river.Client; it hides River's generic
// transaction type, which differs per driver.
type client interface {
	Start(ctx context.Context) error
	Stop(ctx context.Context) error
	Insert(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
	InsertMany(ctx context.Context, params []river.InsertManyParams) ([]*rivertype.JobInsertResult, error)
	JobGet(ctx context.Context, id int64) (*rivertype.JobRow, error)
	JobList(ctx context.Context, params *river.JobListParams) (*river.JobListResult, error)
	JobRetry(ctx context.Context, id int64) (*rivertype.JobRow, error)
	JobCancel(ctx context.Context, id int64) (*rivertype.JobRow, error)
}

// Open connects, runs River's migrations and builds the client; Start begins working.
func Open(ctx context.Context, opts Options) (*Engine, error) {
	if opts.RescueAfter <= 0 {
		opts.RescueAfter = 5 * time.Minute
	}
	if opts.PollInterval <= 0 {
		opts.PollInterval = time.Second
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Workers == nil {
		opts.Workers = river.NewWorkers()
	}
	queues, err := queueConfig(opts.Queues)
	if err != nil {
		return nil, err
	}
	cfg := &river.Config{
		Queues:               queues,
		Workers:              opts.Workers,
		PeriodicJobs:         opts.Periodic,
		Logger:               opts.Logger.With("component", "jobs"),
		FetchOnlyKnownKinds:  true,
		RescueStuckJobsAfter: opts.RescueAfter,
		ID:                   opts.ClientID,
		JobTimeout:           min(3*time.Minute, opts.RescueAfter),
	}
	if opts.Registerer != nil {
		cfg.Hooks = []rivertype.Hook{waitHook(opts.Registerer)}
	}
	cfg.CompletedJobRetentionPeriod, cfg.CancelledJobRetentionPeriod, cfg.DiscardedJobRetentionPeriod = -1, -1, -1 // River's "forever"
	if kept := opts.FinishedJobsKept; kept > 0 {
		cfg.CompletedJobRetentionPeriod, cfg.CancelledJobRetentionPeriod = kept, kept
		cfg.DiscardedJobRetentionPeriod = max(kept, 7*24*time.Hour)
	}
	switch {
	case opts.DatabaseURL != "":
		pool, err := postgres.OpenJobsPool(ctx, opts.DatabaseURL, opts.Schema, 8)
		if err != nil {
			return nil, err
		}
		cfg.Schema = opts.Schema
		c, err := build(ctx, riverpgxv5.New(pool), cfg, opts.Schema)
		if err != nil {
			pool.Close()
			return nil, err
		}
		return &Engine{client: c, backend: "postgres", close: pool.Close, logger: opts.Logger, count: pgxCounter(pool),
			countWaiting: func(ctx context.Context, queue string) (n int64, err error) {
				err = pool.QueryRow(ctx, waitingQuery, queue).Scan(&n)
				return n, err
			}}, nil
	case opts.SQLitePath != "":
		db, err := sqlite.OpenJobsDB(opts.SQLitePath)
		if err != nil {
			return nil, err
		}
		// SQLite has no LISTEN/NOTIFY: producers poll.
		cfg.PollOnly = true
		cfg.FetchPollInterval = opts.PollInterval
		cfg.FetchCooldown = min(opts.PollInterval, 100*time.Millisecond)
		c, err := build(ctx, riversqlite.New(db), cfg, "")
		if err != nil {
			db.Close()
			return nil, err
		}
		return &Engine{client: c, backend: "sqlite", close: func() { db.Close() }, logger: opts.Logger, count: sqlCounter(db),
			countWaiting: func(ctx context.Context, queue string) (n int64, err error) {
				err = db.QueryRowContext(ctx, waitingQuery, queue).Scan(&n)
				return n, err
			}}, nil
	}
	return nil, errors.New("jobs: open: neither a SQLite path nor a database URL")
}

// build migrates River's tables and returns the client.
func build[TTx any](ctx context.Context, d riverdriver.Driver[TTx], cfg *river.Config, schema string) (*river.Client[TTx], error) {
	m, err := rivermigrate.New(d, &rivermigrate.Config{Schema: schema, Logger: discardLogger})
	if err != nil {
		return nil, fmt.Errorf("jobs: migrations: %w", err)
	}
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return nil, fmt.Errorf("jobs: migrate: %w", err)
	}
	c, err := river.NewClient(d, cfg)
	if err != nil {
		return nil, fmt.Errorf("jobs: client: %w", err)
	}
	return c, nil
}

var discardLogger = slog.New(slog.DiscardHandler)

// Backend names the database River runs on.
func (e *Engine) Backend() string { return e.backend }

// Start begins fetching and working jobs, and (on the leader) periodic jobs.
func (e *Engine) Start(ctx context.Context) error {
	if err := e.client.Start(ctx); err != nil {
		return fmt.Errorf("jobs: start: %w", err)
	}
	return nil
}

// Close stops working (jobs still running get until ctx ends, then are
// cancelled and retried later by any replica) and closes the connection.
func (e *Engine) Close(ctx context.Context) error {
	err := e.client.Stop(ctx)
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		e.logger.Warn("jobs still running at shutdown were cancelled; they will be retried", "err", err)
		err = nil
	}
	e.close()
	return err
}

// Insert enqueues one job. With unique options, an existing equal job is
// returned instead and UniqueSkippedAsDuplicate is set.
func (e *Engine) Insert(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error) {
	res, err := e.client.Insert(ctx, args, opts)
	if err != nil {
		return nil, fmt.Errorf("jobs: insert %s: %w", args.Kind(), err)
	}
	return res, nil
}

// InsertMany enqueues jobs in one round trip on PostgreSQL (one row at a
// time on SQLite, inside one transaction).
func (e *Engine) InsertMany(ctx context.Context, params []river.InsertManyParams) error {
	if len(params) == 0 {
		return nil
	}
	if _, err := e.client.InsertMany(ctx, params); err != nil {
		return fmt.Errorf("jobs: insert %d jobs: %w", len(params), err)
	}
	return nil
}

// OneAtATime is the insert options of a periodic sweep on queue enqueued
// every interval: one attempt, and no second copy of the same interval
// while one is queued or running (a leader change must not enqueue it
// twice). The key is per interval, not global: a copy left running by a
// process killed mid-sweep stays "running" until River's rescuer ends it
// (GTMGATE_JOB_RESCUE_AFTER, minutes), and must not hold back the sweeps
// after it. A sweep slower than its interval lets the next one start
// beside it, so sweeps are safe to run twice at once.
func OneAtATime(queue string, interval time.Duration) river.InsertOpts {
	return river.InsertOpts{Queue: queue, MaxAttempts: 1, UniqueOpts: river.UniqueOpts{ByPeriod: interval, ByState: []rivertype.JobState{
		rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning, rivertype.JobStateScheduled}}}
}
