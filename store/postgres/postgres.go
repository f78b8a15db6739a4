// Package postgres is the gtmgate store for PostgreSQL, used when
// DATABASE_URL is set: any number of gateway replicas share one database.
// It uses a pgx v5 pool, exposed to the shared SQL code through
// database/sql.
package postgres

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"net"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/gtmgate/gtmgate/store/sqlstore"
	"github.com/gtmgate/gtmgate/telemetry"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// Open connects to databaseURL, applies pending migrations and returns the
// store. opts.Sealer is required. When opts.Schema is set, every connection
// uses that schema (search_path), created if missing; tests use it to
// isolate runs. Errors never include the URL, which may hold a password.
func Open(ctx context.Context, databaseURL string, opts *sqlstore.Options) (*sqlstore.Store, error) {
	cfg, err := pgxpool.ParseConfig(databaseURL)
	if err != nil {
		return nil, fmt.Errorf("postgres: open: invalid database URL")
	}
	bound(cfg)
	if !strings.Contains(databaseURL, "pool_max_conns") {
		cfg.MaxConns = defaultMaxConns
	}
	schema := searchPathSchema(cfg.ConnConfig.RuntimeParams["search_path"])
	if opts != nil && opts.Schema != "" {
		schema = opts.Schema
		cfg.ConnConfig.RuntimeParams["search_path"] = pgx.Identifier{schema}.Sanitize()
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	db := telemetry.OpenSQLConnector(stdlib.GetPoolConnector(pool), semconv.DBSystemNamePostgreSQL)
	s, err := sqlstore.New(db, db, Dialect{Schema: schema}, opts, func() error { pool.Close(); return nil })
	if err != nil {
		db.Close()
		pool.Close()
		return nil, err
	}
	if err := migrate(ctx, s); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// searchPathSchema is the schema PostgreSQL creates unqualified tables in
// under a search_path setting (from DATABASE_URL): its first entry other than
// "$user", unquoted; "public" when it names none. The migrations table is
// created there too, so every table of the store lives in one schema.
func searchPathSchema(searchPath string) string {
	for entry := range strings.SplitSeq(searchPath, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" || entry == "$user" || entry == `"$user"` {
			continue
		}
		if len(entry) >= 2 && entry[0] == '"' && entry[len(entry)-1] == '"' {
			return strings.ReplaceAll(entry[1:len(entry)-1], `""`, `"`)
		}
		return strings.ToLower(entry)
	}
	return "public"
}

func migrate(ctx context.Context, s *sqlstore.Store) error {
	sub, err := fs.Sub(migrationFS, "migrations")
	if err != nil {
		return fmt.Errorf("postgres: migrations: %w", err)
	}
	ms, err := sqlstore.LoadMigrations(sub)
	if err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	return s.Migrate(ctx, ms)
}

// Time limits applied unless the URL sets its own (connect_timeout,
// statement_timeout): an unreachable or black-holed database fails calls
// within seconds instead of holding them for the whole outage.
const (
	// defaultMaxConns replaces pgx's max(4, CPUs) unless the URL sets
	// pool_max_conns: with four connections, 32 concurrent admin writes on
	// two cores queued unfairly behind each commit's WAL flush (p99 83-99 ms;
	// 42 ms with 16, at 1.05-1.2x the requests per second).
	defaultMaxConns  = 16
	connectTimeout   = 5 * time.Second
	statementTimeout = "30s"
	// tcpUserTimeout is how long sent data may stay unacknowledged before
	// the kernel drops the connection: it ends a query on a black-holed
	// network, where the server-side statement_timeout cannot help.
	tcpUserTimeout = 10 * time.Second
)

func bound(cfg *pgxpool.Config) {
	cc := cfg.ConnConfig
	if cc.ConnectTimeout == 0 {
		cc.ConnectTimeout = connectTimeout
	}
	if _, ok := cc.RuntimeParams["statement_timeout"]; !ok {
		cc.RuntimeParams["statement_timeout"] = statementTimeout
	}
	d := &net.Dialer{KeepAlive: 5 * time.Second, Control: setUserTimeout}
	cc.DialFunc = d.DialContext
}

// OpenJobsPool opens a pgx pool with the store's time-outs and schema for the
// job engine (River needs a *pgxpool.Pool of its own; its listener holds one
// connection for LISTEN). maxConns 0 keeps pgx's default.
func OpenJobsPool(ctx context.Context, databaseURL, schema string, maxConns int32) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(databaseURL)
	if err != nil {
		return nil, fmt.Errorf("postgres: open jobs pool: invalid database URL")
	}
	bound(cfg)
	if schema != "" {
		cfg.ConnConfig.RuntimeParams["search_path"] = pgx.Identifier{schema}.Sanitize()
	}
	if maxConns > 0 {
		cfg.MaxConns = maxConns
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: open jobs pool: %w", err)
	}
	return pool, nil
}
