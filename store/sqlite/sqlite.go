// Package sqlite is the default gtmgate store: one SQLite file in the data
// directory, through the pure-Go modernc.org/sqlite driver.
//
// The database runs in WAL mode with synchronous=NORMAL: a committed
// transaction survives the process being killed (only an operating system
// crash or power loss can roll back the last commits). Writes go through a
// pool of one connection whose transactions BEGIN IMMEDIATE, so writers
// queue in Go instead of failing with SQLITE_BUSY; reads use a separate pool
// and never wait for the writer.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/gtmgate/gtmgate/store/sqlstore"
	"github.com/gtmgate/gtmgate/telemetry"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// busyTimeoutMS bounds how long a connection waits for another process's
// lock (another gtmgate on the same file, a backup) before failing.
const busyTimeoutMS = 10_000

// Open opens (creating when missing) the database file at path, applies
// pending migrations and returns the store. opts.Sealer is required;
// opts.Schema is ignored.
func Open(ctx context.Context, path string, opts *sqlstore.Options) (*sqlstore.Store, error) {
	if path == "" || strings.ContainsAny(path, "?#") || strings.HasPrefix(path, "file:") || path == ":memory:" {
		return nil, fmt.Errorf("sqlite: open: path %q must be a plain file path", path)
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("sqlite: open: %w", err)
		}
	}
	if err := createPrivate(path); err != nil {
		return nil, err
	}
	if err := enterWAL(ctx, path); err != nil {
		return nil, err
	}
	write, err := openPool(path, url.Values{"_txlock": {"immediate"}})
	if err != nil {
		return nil, err
	}
	keepOneConnection(write)

	read, err := openPool(path, url.Values{"_query_only": {"1"}})
	if err != nil {
		write.Close()
		return nil, err
	}
	n := max(4, runtime.GOMAXPROCS(0))
	read.SetMaxOpenConns(n)
	read.SetMaxIdleConns(n)

	s, err := sqlstore.New(write, read, Dialect{}, opts, nil)
	if err != nil {
		write.Close()
		read.Close()
		return nil, err
	}
	if err := migrate(ctx, s); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func migrate(ctx context.Context, s *sqlstore.Store) error {
	sub, err := fs.Sub(migrationFS, "migrations")
	if err != nil {
		return fmt.Errorf("sqlite: migrations: %w", err)
	}
	ms, err := sqlstore.LoadMigrations(sub)
	if err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	return s.Migrate(ctx, ms)
}

// enterWAL switches the file to WAL mode, once, on a connection of its own,
// before any pool touches it. The switch needs an exclusive lock, and
// SQLite refuses it at once (SQLITE_BUSY, without waiting out the busy
// time-out) when another connection opening the same fresh file holds a
// read lock at that moment; so it is retried here until the busy time-out.
// WAL mode is persistent: the pools' own journal_mode pragma then finds it
// set and takes no lock.
func enterWAL(ctx context.Context, path string) error {
	db, err := sql.Open("sqlite", path+"?_busy_timeout="+fmt.Sprint(busyTimeoutMS))
	if err != nil {
		return fmt.Errorf("sqlite: open: %w", err)
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(ctx, busyTimeoutMS*time.Millisecond)
	defer cancel()
	for wait := time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		var mode string
		err := db.QueryRowContext(ctx, "PRAGMA journal_mode=WAL").Scan(&mode)
		switch {
		case err == nil && strings.EqualFold(mode, "wal"):
			return nil
		case err == nil:
			return fmt.Errorf("sqlite: open %s: journal mode is %s, want wal", path, mode)
		case !isBusy(err):
			return fmt.Errorf("sqlite: open %s: enter WAL mode: %w", path, err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("sqlite: open %s: enter WAL mode: %w", path, err)
		case <-time.After(wait):
		}
	}
}

func isBusy(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_BUSY
}

// openPool opens a pool on path whose every connection is configured with
// the shared pragmas plus extra DSN parameters.
func openPool(path string, extra url.Values) (*sql.DB, error) {
	q := url.Values{
		"_busy_timeout": {fmt.Sprint(busyTimeoutMS)},
		"_journal_mode": {"WAL"},
		"_synchronous":  {"NORMAL"},
		"_foreign_keys": {"1"},
	}
	for k, v := range extra {
		q[k] = v
	}
	db, err := telemetry.OpenSQL("sqlite", path+"?"+q.Encode(), semconv.DBSystemNameSQLite)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open: %w", err)
	}
	return db, nil
}

// createPrivate creates the database file readable by its owner only (it
// holds hashes, ciphertext and the audit log); SQLite gives its -wal and
// -shm files the database file's permissions. An existing file readable by
// others is tightened the same way.
func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDONLY, 0o600)
	if err != nil {
		return fmt.Errorf("sqlite: create %s: %w", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("sqlite: stat %s: %w", path, err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(path, fi.Mode().Perm()&0o700); err != nil {
			return fmt.Errorf("sqlite: restrict %s: %w", path, err)
		}
	}
	return nil
}

// OpenJobsDB opens a second, single-connection pool on the database file at
// path for the job engine (River): River's tables live in the same file, but
// its polling and leases must not queue behind the store's writer in Go, so
// the two meet only at SQLite's own lock (bounded by the busy time-out).
func OpenJobsDB(path string) (*sql.DB, error) {
	db, err := openPool(path, url.Values{"_txlock": {"immediate"}})
	if err != nil {
		return nil, err
	}
	keepOneConnection(db)
	return db, nil
}

// keepOneConnection makes db a pool of one connection held open for good:
// its writers queue in Go rather than meet SQLITE_BUSY among themselves.
func keepOneConnection(db *sql.DB) {
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxIdleTime(0)
	db.SetConnMaxLifetime(0)
}
