package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/gtmgate/gtmgate"
)

// Dialect is the SQLite sqlstore.Dialect.
type Dialect struct{}

// Name implements sqlstore.Dialect.
func (Dialect) Name() string { return "sqlite" }

// Rebind implements sqlstore.Dialect: SQLite takes "?" as it is.
func (Dialect) Rebind(q string) string { return q }

// Time implements sqlstore.Dialect: times are INTEGER microseconds since the
// Unix epoch, which sort and compare as numbers.
func (Dialect) Time(t time.Time) any { return t.UnixMicro() }

// ForUpdate implements sqlstore.Dialect: every write transaction already
// holds the database's single write lock (BEGIN IMMEDIATE), so no row lock is
// needed.
func (Dialect) ForUpdate() string { return "" }

// InsertRows: a prepared single-row INSERT run per row beats parsing one long statement.
func (Dialect) InsertRows() int { return 1 }

// CommitOrder implements sqlstore.Dialect: the single writer commits
// transactions one at a time, so ids grow in commit order (the key is an
// expression, not a literal, which ORDER BY would read as a column number).
func (Dialect) CommitOrder() (key, arg, visible string) {
	return "CAST(0 AS INTEGER)", "CAST(? AS INTEGER)", "1 = 1"
}

// PrepareMigrations implements sqlstore.Dialect. The migration transaction
// began IMMEDIATE and so already holds the write lock: a second process
// waits (busy_timeout) and then sees the migrations applied.
func (Dialect) PrepareMigrations(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    INTEGER PRIMARY KEY,
		name       TEXT NOT NULL,
		applied_at INTEGER NOT NULL
	) STRICT`)
	return err
}

// InterpretError implements sqlstore.Dialect, the one place SQLite errors
// become gtmgate sentinels: no rows is ErrNotFound, a unique or primary key
// violation ErrConflict, a foreign key violation (the tenant does not exist)
// ErrNotFound.
func (Dialect) InterpretError(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return gtmgate.ErrNotFound
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return fmt.Errorf("%w: %w", gtmgate.ErrConflict, err)
		case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
			return fmt.Errorf("%w: referenced tenant: %w", gtmgate.ErrNotFound, err)
		}
	}
	return err
}
