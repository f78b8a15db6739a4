package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gtmgate/gtmgate"
)

const ledgerCols = `id, kind, time, tenant_id, source, tool, action, mutating, input, error_code,
	message, detail, request_id, replays, status, resolved_at, resolved_by, key_id`

// AddLedgerEntry stores a ledger entry; ErrConflict when its id exists.
func (s *Store) AddLedgerEntry(ctx context.Context, e *gtmgate.LedgerEntry) error {
	if e.ID == "" {
		return fmt.Errorf("%s: add ledger entry: %w", s.d.Name(), gtmgate.Errorf(gtmgate.EValidation, "ledger entry id is required"))
	}
	if e.Time.IsZero() {
		e.Time = s.now()
	}
	args, err := s.ledgerArgs(e, nil)
	if err != nil {
		return s.fail("add ledger entry", err)
	}
	if _, err = s.write.ExecContext(ctx, s.q(ledgerInsert+placeholders(1, ledgerColCount)), args...); err != nil {
		return s.fail("add ledger entry", err)
	}
	return nil
}

const (
	ledgerInsert   = "INSERT INTO error_ledger (" + ledgerCols + ") VALUES "
	ledgerColCount = 18
)

// ledgerArgs appends e's column values, in ledgerCols' order, to dst.
func (s *Store) ledgerArgs(e *gtmgate.LedgerEntry, dst []any) ([]any, error) {
	replays, err := encodeReplays(e.Replays)
	if err != nil {
		return nil, err
	}
	return append(dst, e.ID, e.Kind, s.t(e.Time), e.TenantID, e.Source, e.Tool, e.Action, e.Mutating, jsonArg(e.Input),
		e.ErrorCode, e.Message, jsonArg(e.Detail), e.RequestID, replays, e.Status, s.tp(e.ResolvedAt), e.ResolvedBy, e.Key), nil
}

// GetLedgerEntry returns the entry with id, or ErrNotFound.
func (s *Store) GetLedgerEntry(ctx context.Context, id string) (*gtmgate.LedgerEntry, error) {
	e, err := scanLedger(s.read.QueryRowContext(ctx, s.q("SELECT "+ledgerCols+" FROM error_ledger WHERE id = ?"), id))
	if err != nil {
		return nil, s.fail("get ledger entry", err)
	}
	return e, nil
}

// ListLedger returns the entries matching f, newest first; f.Limit defaults
// to 100 and is at most 1000.
func (s *Store) ListLedger(ctx context.Context, f gtmgate.LedgerFilter) ([]*gtmgate.LedgerEntry, error) {
	var c conditions
	c.eq("tenant_id", f.TenantID)
	c.eq("kind", f.Kind)
	c.eq("status", f.Status)
	c.eq("request_id", f.RequestID)
	c.eq("key_id", f.Key)
	if !f.Since.IsZero() {
		c.add("time >= ?", s.t(f.Since))
	}
	q := "SELECT " + ledgerCols + " FROM error_ledger" + c.where() + " ORDER BY time DESC, id DESC LIMIT ?"
	return listRows(ctx, s, "list ledger", q, append(c.args, limit(f.Limit, defaultLimit, maxLimit)), scanLedger)
}

// AddLedgerReplay appends a replay outcome to entry id, atomically: the row
// is locked (or the single SQLite writer held) between the check and the
// append. For a mutating entry that already has a successful replay, or one
// waiting for approval, an unforced replay returns ErrConflict and writes
// nothing. It returns ErrNotFound for an unknown id.
func (s *Store) AddLedgerReplay(ctx context.Context, id string, r gtmgate.LedgerReplay) error {
	if r.Time.IsZero() {
		r.Time = s.now()
	}
	return s.inTx(ctx, "add ledger replay", func(tx *sql.Tx) error {
		var mutating bool
		var raw []byte
		err := tx.QueryRowContext(ctx, s.q("SELECT mutating, replays FROM error_ledger WHERE id = ?"+s.d.ForUpdate()), id).
			Scan(&mutating, &raw)
		if err != nil {
			return err
		}
		var replays []gtmgate.LedgerReplay
		if err := json.Unmarshal(raw, &replays); err != nil {
			return fmt.Errorf("decode replays of %s: %w", id, err)
		}
		if mutating && !r.Forced {
			for _, p := range replays {
				if p.OK || p.ErrorCode == gtmgate.EApprovalRequired {
					return fmt.Errorf("%w: mutating entry %s was already replayed (request %s); force to replay again",
						gtmgate.ErrConflict, id, p.RequestID)
				}
			}
		}
		enc, err := encodeReplays(append(replays, r))
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, s.q("UPDATE error_ledger SET replays = ? WHERE id = ?"), enc, id)
		return err
	})
}

func encodeReplays(rs []gtmgate.LedgerReplay) (string, error) {
	rs = append([]gtmgate.LedgerReplay{}, rs...)
	for i := range rs { // stored times follow the store's precision
		rs[i].Time = rs[i].Time.UTC().Truncate(time.Microsecond)
	}
	b, err := json.Marshal(rs)
	if err != nil {
		return "", fmt.Errorf("encode replays: %w", err)
	}
	return string(b), nil
}

func scanLedger(r scanner) (*gtmgate.LedgerEntry, error) {
	var e gtmgate.LedgerEntry
	var replays []byte
	err := r.Scan(&e.ID, &e.Kind, timeCol{&e.Time}, &e.TenantID, &e.Source, &e.Tool, &e.Action, &e.Mutating,
		jsonCol{&e.Input}, &e.ErrorCode, &e.Message, jsonCol{&e.Detail}, &e.RequestID, &replays,
		&e.Status, nullTimeCol{&e.ResolvedAt}, &e.ResolvedBy, &e.Key)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(replays, &e.Replays); err != nil {
		return nil, fmt.Errorf("decode replays of %s: %w", e.ID, err)
	}
	if len(e.Replays) == 0 {
		e.Replays = nil
	}
	return &e, nil
}
