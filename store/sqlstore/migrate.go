package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Migration is one numbered schema change.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// LoadMigrations reads the NNNN_name.sql files at the root of fsys, in
// version order. Versions must be unique.
func LoadMigrations(fsys fs.FS) ([]Migration, error) {
	names, err := fs.Glob(fsys, "*.sql")
	if err != nil {
		return nil, fmt.Errorf("load migrations: %w", err)
	}
	var ms []Migration
	for _, name := range names {
		num, _, ok := strings.Cut(name, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("load migrations: %s: name must be NNNN_name.sql", name)
		}
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("load migrations: %w", err)
		}
		ms = append(ms, Migration{Version: v, Name: strings.TrimSuffix(path.Base(name), ".sql"), SQL: string(b)})
	}
	slices.SortFunc(ms, func(a, b Migration) int { return a.Version - b.Version })
	for i := 1; i < len(ms); i++ {
		if ms[i].Version == ms[i-1].Version {
			return nil, fmt.Errorf("load migrations: version %d appears twice", ms[i].Version)
		}
	}
	return ms, nil
}

// Migrate applies the migrations not yet recorded in schema_migrations, all
// in one transaction that first takes the dialect's migration lock, so
// replicas starting together apply each migration once.
func (s *Store) Migrate(ctx context.Context, ms []Migration) error {
	return s.inTx(ctx, "migrate", func(tx *sql.Tx) error {
		if err := s.d.PrepareMigrations(ctx, tx); err != nil {
			return fmt.Errorf("lock: %w", err)
		}
		applied, err := appliedVersions(ctx, tx)
		if err != nil {
			return err
		}
		for _, m := range ms {
			if applied[m.Version] {
				continue
			}
			if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
				return fmt.Errorf("%s: %w", m.Name, err)
			}
			if _, err := tx.ExecContext(ctx,
				s.q("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)"),
				m.Version, m.Name, s.t(s.now())); err != nil {
				return fmt.Errorf("record %s: %w", m.Name, err)
			}
		}
		return nil
	})
}

func appliedVersions(ctx context.Context, tx *sql.Tx) (map[int]bool, error) {
	rows, err := tx.QueryContext(ctx, "SELECT version FROM schema_migrations")
	if err != nil {
		return nil, fmt.Errorf("read versions: %w", err)
	}
	defer rows.Close()
	applied := map[int]bool{}
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			return nil, fmt.Errorf("read versions: %w", err)
		}
		applied[v] = true
	}
	return applied, rows.Err()
}
