package sqlstore

import (
	"context"
	"database/sql"
)

// The audit journal's batches run the same few statements every few
// milliseconds. On SQLite, which runs a batch as one-row statements (see
// Dialect.InsertRows), preparing them anew in each transaction was about
// 40% of applying a batch (a CPU profile at 290 federated calls a second).
// So they are prepared once on the write pool, outside any transaction
// (SQLite's write pool is one connection, which a transaction holds), and
// each transaction uses them through tx.StmtContext, which reuses a
// statement prepared on its own connection. Dialects that send multi-row
// statements (PostgreSQL, whose driver caches statements itself) prepare
// nothing here.

// cachesStmts reports whether this dialect's call writes use the cache.
func (s *Store) cachesStmts() bool { return s.d.InsertRows() <= 1 }

// txStmt returns query as a statement of tx: the cached one when there is
// one, else one prepared in tx, and query is noted for prepareWanted. The
// caller closes it (which leaves a cached statement open).
func (s *Store) txStmt(ctx context.Context, tx *sql.Tx, query string) (*sql.Stmt, error) {
	if v, ok := s.prepared.Load(query); ok {
		return tx.StmtContext(ctx, v.(*sql.Stmt)), nil
	}
	if s.cachesStmts() {
		s.wanted.Store(query, struct{}{})
	}
	return tx.PrepareContext(ctx, query)
}

// txExec runs query in tx with args, through txStmt.
func (s *Store) txExec(ctx context.Context, tx *sql.Tx, query string, args ...any) (sql.Result, error) {
	if !s.cachesStmts() {
		return tx.ExecContext(ctx, query, args...)
	}
	st, err := s.txStmt(ctx, tx, query)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	return st.ExecContext(ctx, args...)
}

// prepareWanted prepares on the write pool the statements txStmt noted; it
// runs after a transaction ends. A statement that fails to prepare stays
// wanted, and transactions prepare it themselves meanwhile.
func (s *Store) prepareWanted(ctx context.Context) {
	s.wanted.Range(func(k, _ any) bool {
		query := k.(string)
		st, err := s.write.PrepareContext(ctx, query)
		if err != nil {
			return false
		}
		if _, loaded := s.prepared.LoadOrStore(query, st); loaded {
			st.Close()
		}
		s.wanted.Delete(query)
		return true
	})
}
