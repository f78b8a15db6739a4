package jobs

import (
	"context"
	"database/sql"
	"fmt"
	"sync"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/rivertype"
)

// txInserter inserts jobs inside a transaction of the store's database.
type txInserter interface {
	InsertTx(ctx context.Context, tx *sql.Tx, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
}

// pgTxClient inserts jobs through a database/sql transaction on PostgreSQL.
// The engine's own client speaks pgx to a pool of its own; the store speaks
// database/sql (pgx's stdlib), so its transactions take River's
// database/sql driver. Without a pool that client can only insert, which is
// all it is for. It names no schema: the store's connections already have
// the schema as their search_path, as the engine's do.
var pgTxClient = sync.OnceValues(func() (*river.Client[*sql.Tx], error) {
	return river.NewClient(riverdatabasesql.New(nil), &river.Config{Logger: discardLogger})
})

// InsertTx enqueues one job inside tx, a transaction of the store's own
// database (store.CreateAgentRunWith hands it over): the job exists if and
// only if tx commits, so a row and the job that works it are never one
// without the other. Unique options apply as for Insert.
func (e *Engine) InsertTx(ctx context.Context, tx *sql.Tx, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error) {
	var ins txInserter
	switch c := e.client.(type) {
	case txInserter: // SQLite: River's client already takes a *sql.Tx
		ins = c
	default:
		pc, err := pgTxClient()
		if err != nil {
			return nil, fmt.Errorf("jobs: insert %s in a transaction: %w", args.Kind(), err)
		}
		ins = pc
	}
	res, err := ins.InsertTx(ctx, tx, args, opts)
	if err != nil {
		return nil, fmt.Errorf("jobs: insert %s in a transaction: %w", args.Kind(), err)
	}
	return res, nil
}
