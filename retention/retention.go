// Package retention deletes records past their configured age: a sweep,
// run by a periodic job, prunes each record kind in small batches, each its
// own short transaction, so no sweep holds a long lock or a long write.
package retention

import (
	"context"
	"fmt"
	"time"

	"github.com/gtmgate/gtmgate"
)

// Rule keeps one record kind for Keep; zero keeps it forever.
type Rule struct {
	Kind string
	Keep time.Duration
}

// Defaults of a Sweeper.
const (
	DefaultBatch = 1000
	DefaultPause = 20 * time.Millisecond
)

// Sweeper prunes records by its rules.
type Sweeper struct {
	Store gtmgate.RetentionStore
	Rules []Rule
	// Batch is the most rows one statement deletes (DefaultBatch).
	Batch int
	// Pause between batches lets other writers in; SQLite has one writer.
	Pause time.Duration
	Now   func() time.Time
}

// Result is what one sweep deleted, by kind. Complete is false when the
// sweep ran out of time with rows left; the next sweep goes on.
type Result struct {
	Deleted  map[string]int64
	Complete bool
}

// Sweep prunes every kind with a rule until none of its rows is older than
// the rule keeps, or ctx ends (a deadline is not an error: the rest waits
// for the next sweep).
func (s *Sweeper) Sweep(ctx context.Context) (Result, error) {
	batch, pause, now := s.Batch, s.Pause, s.Now
	if batch <= 0 {
		batch = DefaultBatch
	}
	if pause <= 0 {
		pause = DefaultPause
	}
	if now == nil {
		now = time.Now
	}
	res := Result{Deleted: map[string]int64{}, Complete: true}
	for _, r := range s.Rules {
		if r.Keep <= 0 {
			continue
		}
		before := now().Add(-r.Keep)
		for {
			n, err := s.Store.PruneRecords(ctx, r.Kind, before, batch)
			res.Deleted[r.Kind] += n
			if ctx.Err() != nil {
				res.Complete = false
				return res, nil
			}
			if err != nil {
				return res, fmt.Errorf("retention: %s: %w", r.Kind, err)
			}
			if n < int64(batch) {
				break
			}
			if err := sleep(ctx, pause); err != nil {
				res.Complete = false
				return res, nil
			}
		}
	}
	return res, nil
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
