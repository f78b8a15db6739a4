package jobs

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// QueueStat is one job kind's queue: how many jobs wait in each state and
// how long the oldest available one has waited.
type QueueStat struct {
	Kind      string `json:"kind"`
	Available int64  `json:"available"`
	Scheduled int64  `json:"scheduled"`
	Running   int64  `json:"running"`
	Retryable int64  `json:"retryable"`
	// Discarded counts jobs that failed for good and are still kept (River
	// deletes them after a week).
	Discarded int64 `json:"discarded"`
	// OldestAvailableSeconds is the wait of the job next in line.
	OldestAvailableSeconds float64 `json:"oldest_available_seconds"`
}

const countQuery = `SELECT kind, state, COUNT(*) FROM river_job
	WHERE state IN ('available', 'scheduled', 'running', 'retryable', 'discarded') GROUP BY kind, state`

// counter runs countQuery on the engine's own connection.
type counter func(ctx context.Context) (map[[2]string]int64, error)

func pgxCounter(pool *pgxpool.Pool) counter {
	return func(ctx context.Context) (map[[2]string]int64, error) {
		rows, err := pool.Query(ctx, countQuery)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		return scanCounts(rows)
	}
}

func sqlCounter(db *sql.DB) counter {
	return func(ctx context.Context) (map[[2]string]int64, error) {
		rows, err := db.QueryContext(ctx, countQuery)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		return scanCounts(rows)
	}
}

// scanCounts reads countQuery's rows from either driver.
func scanCounts(rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}) (map[[2]string]int64, error) {
	out := map[[2]string]int64{}
	for rows.Next() {
		var kind, state string
		var n int64
		if err := rows.Scan(&kind, &state, &n); err != nil {
			return nil, err
		}
		out[[2]string{kind, state}] = n
	}
	return out, rows.Err()
}

// QueueStats reports every job kind with jobs waiting, running or failed.
func (e *Engine) QueueStats(ctx context.Context, now time.Time) ([]QueueStat, error) {
	counts, err := e.count(ctx)
	if err != nil {
		return nil, fmt.Errorf("jobs: queue stats: %w", err)
	}
	byKind := map[string]*QueueStat{}
	for k, n := range counts {
		s := byKind[k[0]]
		if s == nil {
			s = &QueueStat{Kind: k[0]}
			byKind[k[0]] = s
		}
		switch rivertype.JobState(k[1]) {
		case rivertype.JobStateAvailable:
			s.Available = n
		case rivertype.JobStateScheduled:
			s.Scheduled = n
		case rivertype.JobStateRunning:
			s.Running = n
		case rivertype.JobStateRetryable:
			s.Retryable = n
		case rivertype.JobStateDiscarded:
			s.Discarded = n
		}
	}
	out := make([]QueueStat, 0, len(byKind))
	for _, s := range byKind {
		if s.Available > 0 {
			res, err := e.client.JobList(ctx, river.NewJobListParams().States(rivertype.JobStateAvailable).Kinds(s.Kind).
				OrderBy(river.JobListOrderByScheduledAt, river.SortOrderAsc).First(1))
			if err != nil {
				return nil, fmt.Errorf("jobs: oldest %s job: %w", s.Kind, err)
			}
			if len(res.Jobs) == 1 {
				s.OldestAvailableSeconds = max(0, now.Sub(res.Jobs[0].ScheduledAt).Seconds())
			}
		}
		out = append(out, *s)
	}
	slices.SortFunc(out, func(a, b QueueStat) int { return strings.Compare(a.Kind, b.Kind) })
	return out, nil
}

const waitingQuery = `SELECT COUNT(*) FROM river_job WHERE queue = $1 AND state IN ('available', 'scheduled', 'retryable', 'pending')`

// CountWaiting counts the jobs of a queue not yet worked (available,
// scheduled, retryable or pending): one indexed count, for callers that
// cache it (the grading bound reads it every few seconds).
func (e *Engine) CountWaiting(ctx context.Context, queue string) (int64, error) {
	n, err := e.countWaiting(ctx, queue)
	if err != nil {
		return 0, fmt.Errorf("jobs: count waiting %s jobs: %w", queue, err)
	}
	return n, nil
}
