// Package sqlstore implements gtmgate.Store once over database/sql. The
// sqlite and postgres packages supply a Dialect (placeholders, time encoding,
// row locks, error interpretation, migration locking) and their migrations.
package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/secret"
)

// Options configures a Store. Sealer is required.
type Options struct {
	// Sealer encrypts provider access tokens, OAuth client secrets and refresh
	// tokens before they are written and decrypts them on read.
	Sealer *secret.Sealer
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// Schema is the PostgreSQL schema to use, created when missing ("public"
	// when empty). SQLite ignores it.
	Schema string
}

// Dialect is what differs between SQL databases.
type Dialect interface {
	// Name prefixes errors, for example "sqlite".
	Name() string
	// Rebind turns the "?" placeholders of query into the dialect's own.
	Rebind(query string) string
	// Time encodes a UTC time, already truncated to the microsecond, as a
	// query argument.
	Time(t time.Time) any
	// ForUpdate is appended to a SELECT that must lock its row until the
	// transaction ends ("" where the single writer already serialises).
	ForUpdate() string
	// InsertRows is how many rows one INSERT of a batch carries: 1 where a
	// prepared single-row statement run per row is cheapest (SQLite, in
	// process), more where every statement is a round trip (PostgreSQL).
	InsertRows() int
	// CommitOrder is how audit rows are followed without skipping one that
	// commits late: key is the column (or constant) ordering rows by
	// commit, arg the placeholder for a key in a cursor, and visible the
	// condition that holds only for rows no running transaction can still
	// precede. Where one writer commits in id order, key is "0" and visible
	// "1 = 1".
	CommitOrder() (key, arg, visible string)
	// InterpretError maps driver errors to gtmgate.ErrNotFound and
	// gtmgate.ErrConflict (wrapping both), and returns others unchanged.
	InterpretError(err error) error
	// PrepareMigrations runs first in the migration transaction: it takes the
	// lock that serialises concurrent migrators and creates schema_migrations.
	PrepareMigrations(ctx context.Context, tx *sql.Tx) error
}

// Store implements gtmgate.Store over database/sql.
type Store struct {
	write  *sql.DB // every write and transaction
	read   *sql.DB // plain reads; may be write
	d      Dialect
	sealer *secret.Sealer
	now    func() time.Time
	close  func() error

	rebound sync.Map // query → dialect query
	// prepared holds the call-recording statements prepared on the write
	// pool (stmtcache.go); wanted, those seen but not prepared yet.
	prepared sync.Map // dialect query → *sql.Stmt
	wanted   sync.Map // dialect query → struct{}
}

var _ gtmgate.Store = (*Store)(nil)

// New returns a Store that writes through write and reads through read (the
// same pool is fine). It does not migrate: see Migrate. closeFn, if not nil,
// runs after both pools are closed by Close.
func New(write, read *sql.DB, d Dialect, opts *Options, closeFn func() error) (*Store, error) {
	if opts == nil || opts.Sealer == nil {
		return nil, fmt.Errorf("%s: options: a Sealer is required", d.Name())
	}
	clock := opts.Now
	if clock == nil {
		clock = time.Now
	}
	// Defaults taken from the clock are at the stored precision, so a value
	// the store sets on a caller's struct equals what it reads back.
	now := func() time.Time { return clock().UTC().Truncate(time.Microsecond) }
	return &Store{write: write, read: read, d: d, sealer: opts.Sealer, now: now, close: closeFn}, nil
}

// Ping checks that both pools reach the database.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.write.PingContext(ctx); err != nil {
		return s.fail("ping", err)
	}
	if err := s.read.PingContext(ctx); err != nil {
		return s.fail("ping", err)
	}
	return nil
}

// Close closes the pools.
func (s *Store) Close() error {
	var errs []error
	s.prepared.Range(func(_, v any) bool {
		errs = append(errs, v.(*sql.Stmt).Close())
		return true
	})
	if s.read != s.write {
		errs = append(errs, s.read.Close())
	}
	errs = append(errs, s.write.Close())
	if s.close != nil {
		errs = append(errs, s.close())
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("%s: close: %w", s.d.Name(), err)
	}
	return nil
}

// RawQueryRow runs query ("?" placeholders) on the read pool and returns its
// row as stored, bypassing decryption. It is for tests and diagnostics: the
// behavioural suite uses it to check that secrets are sealed at rest.
func (s *Store) RawQueryRow(ctx context.Context, query string, args ...any) *sql.Row {
	return s.read.QueryRowContext(ctx, s.q(query), args...)
}

// q returns query in the dialect's placeholder syntax, cached.
func (s *Store) q(query string) string {
	if v, ok := s.rebound.Load(query); ok {
		return v.(string)
	}
	r := s.d.Rebind(query)
	s.rebound.Store(query, r)
	return r
}

// execExisting runs a write that must touch a row: ErrNotFound when it
// touched none.
func (s *Store) execExisting(ctx context.Context, op, query string, args ...any) error {
	if err := touchedOne(s.write.ExecContext(ctx, s.q(query), args...)); err != nil {
		return s.fail(op, err)
	}
	return nil
}

// touchedOne reads a write's result: ErrNotFound when it touched no row.
// Writes inside a transaction use it as execExisting does outside one.
func touchedOne(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return gtmgate.ErrNotFound
	}
	return nil
}

// fail wraps err with the backend name and operation, mapping driver errors
// to the gtmgate sentinels. A secret the Sealer cannot open is an UNAVAILABLE
// error that says so (wrapping secret.ErrOpen). Any other failure is the store's, not the
// caller's: an UNAVAILABLE error wrapping gtmgate.ErrStoreUnavailable, whose
// message names neither hosts nor queries.
func (s *Store) fail(op string, err error) error {
	err = s.d.InterpretError(err)
	if errors.Is(err, gtmgate.ErrNotFound) || errors.Is(err, gtmgate.ErrConflict) {
		return fmt.Errorf("%s: %s: %w", s.d.Name(), op, err)
	}
	if errors.Is(err, secret.ErrOpen) || errors.Is(err, secret.ErrMalformed) {
		// The store answered; this replica's key cannot open what it holds.
		// Not ErrStoreUnavailable: waiting will not help, and the cache must
		// not mistake it for an outage.
		return &gtmgate.Error{Code: gtmgate.EUnavailable, Message: "a stored secret cannot be decrypted with this replica's encryption key",
			Hint: "the operator must give every replica the same GTMGATE_ENCRYPTION_KEY (see the storage docs)",
			Err:  fmt.Errorf("%s: %s: %w", s.d.Name(), op, err)}
	}
	return &gtmgate.Error{Code: gtmgate.EUnavailable, Message: "the store is unavailable",
		Hint: "retry shortly; if it persists, the operator should check the database",
		Err:  fmt.Errorf("%w: %s: %s: %w", gtmgate.ErrStoreUnavailable, s.d.Name(), op, err)}
}

// inTx runs fn in a write transaction, committing when fn returns nil.
func (s *Store) inTx(ctx context.Context, op string, fn func(tx *sql.Tx) error) error {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return s.fail(op, err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return s.fail(op, err)
	}
	if err := tx.Commit(); err != nil {
		return s.fail(op, err)
	}
	return nil
}

// placeholders returns "(?, ?, …), (…)" for rows of n columns.
func placeholders(rows, n int) string {
	one := "(" + strings.TrimSuffix(strings.Repeat("?, ", n), ", ") + ")"
	return strings.TrimSuffix(strings.Repeat(one+", ", rows), ", ")
}
