package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gtmgate/gtmgate"
)

const (
	auditInsert = `INSERT INTO audit_log (time, tenant_id, action, source, key_id, outcome, status,
		error_code, duration_ms, request_id, detail, trace_id, parent_request_id, correlation_id, actor_via) VALUES `
	usageInsert = `INSERT INTO usage_events (time, tenant_id, key_id, source, tool, action, ok, duration_ms,
		upstream_ms, prompt_tokens, completion_tokens) VALUES `
	auditCols = "id, time, tenant_id, action, source, key_id, outcome, status, error_code, duration_ms, request_id, detail, trace_id, parent_request_id, correlation_id, actor_via"
)

// WriteCalls writes audit entries and usage events in one transaction, with
// multi-row inserts: the group-commit recorder calls it with many calls at
// once.
func (s *Store) WriteCalls(ctx context.Context, audit []gtmgate.AuditEntry, usage []gtmgate.UsageEvent) error {
	if len(audit) == 0 && len(usage) == 0 {
		return nil
	}
	err := s.inTx(ctx, "write calls", func(tx *sql.Tx) error {
		return s.insertCalls(ctx, tx, audit, usage)
	})
	s.prepareWanted(ctx)
	return err
}

// ApplyJournal writes calls from bytes [from, to) of a local audit journal
// and moves the journal's mark in the same transaction. The mark moves with a
// compare-and-set (UPDATE … WHERE applied_to = from, or an INSERT that does
// nothing on conflict when from is 0), which also row-locks it on PostgreSQL.
func (s *Store) ApplyJournal(ctx context.Context, journal string, from, to int64, audit []gtmgate.AuditEntry, usage []gtmgate.UsageEvent) error {
	defer s.prepareWanted(ctx)
	return s.inTx(ctx, "apply audit journal", func(tx *sql.Tx) error {
		var res sql.Result
		var err error
		if from == 0 {
			res, err = s.txExec(ctx, tx, s.q(`INSERT INTO audit_journal (journal, applied_to, updated_at) VALUES (?, ?, ?)
				ON CONFLICT (journal) DO NOTHING`), journal, to, s.t(s.now()))
		} else {
			res, err = s.txExec(ctx, tx, s.q(`UPDATE audit_journal SET applied_to = ?, updated_at = ?
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
	err := s.insertMany(ctx, tx, auditInsert, "", 15, len(audit), func(i int, dst []any) []any {
		a := &audit[i]
		return append(dst, s.t(a.Time), a.TenantID, a.Action, a.Source, a.Key, a.Outcome, a.Status,
			a.ErrorCode, a.DurationMS, a.RequestID, a.Detail, a.TraceID, a.ParentRequestID, a.CorrelationID, a.Via)
	})
	if err != nil {
		return err
	}
	if err := s.insertFailures(ctx, tx, audit); err != nil {
		return err
	}
	err = s.insertMany(ctx, tx, usageInsert, "", 11, len(usage), func(i int, dst []any) []any {
		u := &usage[i]
		return append(dst, s.t(u.Time), u.TenantID, u.Key, u.Source, u.Tool, u.Action, u.OK, u.DurationMS,
			u.UpstreamMS, u.PromptTokens, u.CompletionTokens)
	})
	if err != nil {
		return err
	}
	return s.rollUp(ctx, tx, usage)
}

// insertFailures writes the error ledger entries the audit entries carry. An
// entry already there is left alone: a call recorded again after a timed-out
// wait must not fail the batch that carries it.
func (s *Store) insertFailures(ctx context.Context, tx *sql.Tx, audit []gtmgate.AuditEntry) error {
	var failures []*gtmgate.LedgerEntry
	for i := range audit {
		if f := audit[i].Failure; f != nil {
			failures = append(failures, f)
		}
	}
	var encodeErr error
	err := s.insertMany(ctx, tx, ledgerInsert, " ON CONFLICT (id) DO NOTHING", ledgerColCount, len(failures), func(i int, dst []any) []any {
		out, err := s.ledgerArgs(failures[i], dst)
		if err != nil {
			encodeErr = err
			return append(dst, make([]any, ledgerColCount)...)
		}
		return out
	})
	if encodeErr != nil {
		return fmt.Errorf("encode error ledger entry: %w", encodeErr)
	}
	return err
}

// insertMany inserts rows with INSERTs of the dialect's InsertRows rows
// each, suffix (an ON CONFLICT clause, or "") after the values; args
// appends row i's values to dst. With one row per INSERT, a single prepared
// statement serves every row.
func (s *Store) insertMany(ctx context.Context, tx *sql.Tx, insert, suffix string, cols, rows int, args func(i int, dst []any) []any) error {
	if rows == 0 {
		return nil
	}
	per := s.d.InsertRows()
	if per <= 1 {
		st, err := s.txStmt(ctx, tx, s.q(insert+placeholders(1, cols)+suffix))
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
		if _, err := tx.ExecContext(ctx, s.q(insert+placeholders(end-start, cols)+suffix), a...); err != nil {
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
	if err := f.Validate(); err != nil {
		return nil, 0, err
	}
	n := limit(f.Limit, defaultLimit, maxLimit)
	c := s.auditConditions(f)
	if f.Before > 0 {
		c.add("id < ?", f.Before)
	}
	q := "SELECT " + auditCols + " FROM audit_log" + c.where() + " ORDER BY id DESC LIMIT ?"
	args := append(c.args, n+1)

	rows, err := s.read.QueryContext(ctx, s.q(q), args...)
	if err != nil {
		return nil, 0, s.fail("query audit", err)
	}
	defer rows.Close()
	entries := make([]gtmgate.AuditEntry, 0, min(n+1, 64))
	for rows.Next() {
		var a gtmgate.AuditEntry
		if err := scanAudit(rows, &a); err != nil {
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

func scanAudit(r scanner, a *gtmgate.AuditEntry, extra ...any) error {
	return r.Scan(append([]any{&a.ID, timeCol{&a.Time}, &a.TenantID, &a.Action, &a.Source, &a.Key, &a.Outcome,
		&a.Status, &a.ErrorCode, &a.DurationMS, &a.RequestID, &a.Detail, &a.TraceID, &a.ParentRequestID, &a.CorrelationID, &a.Via}, extra...)...)
}

// auditConditions are f's filters other than its cursor.
func (s *Store) auditConditions(f gtmgate.AuditFilter) *conditions {
	c := &conditions{}
	c.eq("tenant_id", f.TenantID)
	c.eq("action", f.Action)
	c.eq("source", f.Source)
	c.eq("key_id", f.Key)
	c.eq("parent_request_id", f.Parent)
	c.eq("request_id", f.RequestID)
	c.eq("correlation_id", f.CorrelationID)
	if !f.Since.IsZero() {
		c.add("time >= ?", s.t(f.Since))
	}
	return c
}

// FollowAudit returns the entries matching f that come after the follow
// cursor after ("" = from the first), oldest first in commit order, at most
// f.Limit, and the cursor to pass next (after itself when nothing is new).
// A row is returned only once no transaction still running can commit a row
// before it, so a follower never skips an entry that commits late; a long
// transaction elsewhere in the database delays, never loses, entries.
func (s *Store) FollowAudit(ctx context.Context, f gtmgate.AuditFilter, after string) ([]gtmgate.AuditEntry, string, error) {
	if err := f.Validate(); err != nil {
		return nil, "", err
	}
	key, id, err := parseFollowCursor(after)
	if err != nil {
		return nil, "", err
	}
	n := limit(f.Limit, defaultLimit, maxLimit)
	col, arg, visible := s.d.CommitOrder()
	c := s.auditConditions(f)
	c.add("("+col+" > "+arg+" OR ("+col+" = "+arg+" AND id > ?))", key, key, id)
	c.add(visible)
	// The key's text is aliased: PostgreSQL would otherwise name it after the
	// column, and ORDER BY would sort by the text ("10000" before "9999").
	q := "SELECT " + auditCols + ", CAST(" + col + " AS TEXT) AS follow_key FROM audit_log" + c.where() + " ORDER BY " + col + ", id LIMIT ?"
	rows, err := s.read.QueryContext(ctx, s.q(q), append(c.args, n)...)
	if err != nil {
		return nil, "", s.fail("follow audit", err)
	}
	defer rows.Close()
	entries := []gtmgate.AuditEntry{}
	for rows.Next() {
		var a gtmgate.AuditEntry
		if err := scanAudit(rows, &a, &key); err != nil {
			return nil, "", s.fail("follow audit", err)
		}
		id = a.ID
		entries = append(entries, a)
	}
	if err := rows.Err(); err != nil {
		return nil, "", s.fail("follow audit", err)
	}
	return entries, key + "." + strconv.FormatInt(id, 10), nil
}

// parseFollowCursor reads "<commit key>.<id>", both decimal.
func parseFollowCursor(c string) (key string, id int64, err error) {
	if c == "" {
		return "0", 0, nil
	}
	k, i, ok := strings.Cut(c, ".")
	kn, kerr := strconv.ParseUint(k, 10, 64)
	id, ierr := strconv.ParseInt(i, 10, 64)
	if !ok || kerr != nil || ierr != nil || id < 0 {
		return "", 0, fmt.Errorf("%w: %q is not a follow cursor", gtmgate.ErrInvalidCursor, c)
	}
	return strconv.FormatUint(kn, 10), id, nil
}
