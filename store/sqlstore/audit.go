package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/gtmgate/gtmgate"
)

const (
	auditInsert = `INSERT INTO audit_log (time, tenant_id, action, source, key_id, outcome, status,
		error_code, duration_ms, request_id, detail, trace_id, parent_request_id) VALUES `
	usageInsert = `INSERT INTO usage_events (time, tenant_id, source, tool, action, ok, duration_ms,
		upstream_ms, prompt_tokens, completion_tokens) VALUES `
	auditCols = "id, time, tenant_id, action, source, key_id, outcome, status, error_code, duration_ms, request_id, detail, trace_id, parent_request_id"
)

// WriteCalls writes audit entries and usage events in one transaction, with
// multi-row inserts: the group-commit recorder calls it with many calls at
// once.
func (s *Store) WriteCalls(ctx context.Context, audit []gtmgate.AuditEntry, usage []gtmgate.UsageEvent) error {
	if len(audit) == 0 && len(usage) == 0 {
		return nil
	}
	return s.inTx(ctx, "write calls", func(tx *sql.Tx) error {
		return s.insertCalls(ctx, tx, audit, usage)
	})
}

// ApplyJournal writes calls from bytes [from, to) of a local audit journal
// and moves the journal's mark in the same transaction. The mark moves with a
// compare-and-set (UPDATE … WHERE applied_to = from, or an INSERT that does
// nothing on conflict when from is 0), which also row-locks it on PostgreSQL.
func (s *Store) ApplyJournal(ctx context.Context, journal string, from, to int64, audit []gtmgate.AuditEntry, usage []gtmgate.UsageEvent) error {
	return s.inTx(ctx, "apply audit journal", func(tx *sql.Tx) error {
		var res sql.Result
		var err error
		if from == 0 {
			res, err = tx.ExecContext(ctx, s.q(`INSERT INTO audit_journal (journal, applied_to, updated_at) VALUES (?, ?, ?)
				ON CONFLICT (journal) DO NOTHING`), journal, to, s.t(s.now()))
		} else {
			res, err = tx.ExecContext(ctx, s.q(`UPDATE audit_journal SET applied_to = ?, updated_at = ?
				WHERE journal = ? AND applied_to = ?`), to, s.t(s.now()), journal, from)
		}
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			var mark int64
			err := tx.QueryRowContext(ctx, s.q(journalMarkQuery), journal).Scan(&mark)
			switch {
			case errors.Is(err, sql.ErrNoRows):
				mark = 0
			case err != nil:
				return err
			}
			if mark >= to {
				return nil // applied before
			}
			return fmt.Errorf("%w: journal %s is applied to byte %d, this batch starts at %d", gtmgate.ErrConflict, journal, mark, from)
		}
		return s.insertCalls(ctx, tx, audit, usage)
	})
}

const journalMarkQuery = "SELECT applied_to FROM audit_journal WHERE journal = ?"

// JournalMark returns how far a journal has been applied, 0 when unknown.
func (s *Store) JournalMark(ctx context.Context, journal string) (int64, error) {
	var mark int64
	err := s.read.QueryRowContext(ctx, s.q(journalMarkQuery), journal).Scan(&mark)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, s.fail("read journal mark", err)
	}
	return mark, nil
}

// ForgetJournal drops a journal's mark.
func (s *Store) ForgetJournal(ctx context.Context, journal string) error {
	if _, err := s.write.ExecContext(ctx, s.q("DELETE FROM audit_journal WHERE journal = ?"), journal); err != nil {
		return s.fail("forget journal", err)
	}
	return nil
}

func (s *Store) insertCalls(ctx context.Context, tx *sql.Tx, audit []gtmgate.AuditEntry, usage []gtmgate.UsageEvent) error {
	err := s.insertMany(ctx, tx, auditInsert, 13, len(audit), func(i int, dst []any) []any {
		a := &audit[i]
		return append(dst, s.t(a.Time), a.TenantID, a.Action, a.Source, a.Key, a.Outcome, a.Status,
			a.ErrorCode, a.DurationMS, a.RequestID, a.Detail, a.TraceID, a.ParentRequestID)
	})
	if err != nil {
		return err
	}
	return s.insertMany(ctx, tx, usageInsert, 10, len(usage), func(i int, dst []any) []any {
		u := &usage[i]
		return append(dst, s.t(u.Time), u.TenantID, u.Source, u.Tool, u.Action, u.OK, u.DurationMS,
			u.UpstreamMS, u.PromptTokens, u.CompletionTokens)
	})
}

// insertMany inserts rows with INSERTs of the dialect's InsertRows rows
// each; args appends row i's values to dst. With one row per INSERT, a
// single prepared statement serves every row.
func (s *Store) insertMany(ctx context.Context, tx *sql.Tx, insert string, cols, rows int, args func(i int, dst []any) []any) error {
	if rows == 0 {
		return nil
	}
	per := s.d.InsertRows()
	if per <= 1 {
		st, err := tx.PrepareContext(ctx, s.q(insert+placeholders(1, cols)))
		if err != nil {
			return err
		}
		defer st.Close()
		buf := make([]any, 0, cols)
		for i := range rows {
			if _, err := st.ExecContext(ctx, args(i, buf[:0])...); err != nil {
				return err
			}
		}
		return nil
	}
	for start := 0; start < rows; start += per {
		end := min(start+per, rows)
		a := make([]any, 0, cols*(end-start))
		for i := start; i < end; i++ {
			a = args(i, a)
		}
		if _, err := tx.ExecContext(ctx, s.q(insert+placeholders(end-start, cols)), a...); err != nil {
			return err
		}
	}
	return nil
}

// QueryAudit returns the entries matching f, newest (highest id) first, at
// most f.Limit (default 100, at most 1000), and the cursor of the next page:
// the id of the last entry returned when more exist, else 0. Passing it as
// f.Before continues the listing.
func (s *Store) QueryAudit(ctx context.Context, f gtmgate.AuditFilter) ([]gtmgate.AuditEntry, int64, error) {
	n := limit(f.Limit, defaultLimit, maxLimit)
	var where []string
	var args []any
	add := func(cond string, arg any) {
		where = append(where, cond)
		args = append(args, arg)
	}
	if f.TenantID != "" {
		add("tenant_id = ?", f.TenantID)
	}
	if f.Action != "" {
		add("action = ?", f.Action)
	}
	if f.Source != "" {
		add("source = ?", f.Source)
	}
	if f.Key != "" {
		add("key_id = ?", f.Key)
	}
	if f.Parent != "" {
		add("parent_request_id = ?", f.Parent)
	}
	if !f.Since.IsZero() {
		add("time >= ?", s.t(f.Since))
	}
	if f.Before > 0 {
		add("id < ?", f.Before)
	}
	q := "SELECT " + auditCols + " FROM audit_log"
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY id DESC LIMIT ?"
	args = append(args, n+1)

	rows, err := s.read.QueryContext(ctx, s.q(q), args...)
	if err != nil {
		return nil, 0, s.fail("query audit", err)
	}
	defer rows.Close()
	entries := make([]gtmgate.AuditEntry, 0, min(n+1, 64))
	for rows.Next() {
		var a gtmgate.AuditEntry
		if err := rows.Scan(&a.ID, timeCol{&a.Time}, &a.TenantID, &a.Action, &a.Source, &a.Key, &a.Outcome,
			&a.Status, &a.ErrorCode, &a.DurationMS, &a.RequestID, &a.Detail, &a.TraceID, &a.ParentRequestID); err != nil {
			return nil, 0, s.fail("query audit", err)
		}
		entries = append(entries, a)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, s.fail("query audit", err)
	}
	var next int64
	if len(entries) > n {
		entries = entries[:n]
		next = entries[n-1].ID
	}
	return entries, next, nil
}
