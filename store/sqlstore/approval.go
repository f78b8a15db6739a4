package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/gtmgate/gtmgate"
)

const approvalCols = `id, tenant_id, status, tool, action, category, account_id, input, source, request_id,
	created_at, expires_at, decided_at, decided_by, reason, result, gate, incident_id, parent_request_id, run_id,
	digest, policy_version, agent, person, approvals_required, approvals, trace_parent, before_state, before_error`

// CreateApproval stores a new gate; ErrConflict when its id exists. An empty
// status becomes pending.
func (s *Store) CreateApproval(ctx context.Context, a *gtmgate.Approval) error {
	if a.Gate == "" {
		a.Gate = gtmgate.GatePolicy
	}
	if a.ID == "" {
		return fmt.Errorf("%s: create approval: %w", s.d.Name(), gtmgate.Errorf(gtmgate.EValidation, "approval id is required"))
	}
	if a.Status == "" {
		a.Status = gtmgate.ApprovalPending
	}
	if a.CreatedAt.IsZero() {
		a.CreatedAt = s.now()
	}
	given, err := encodeApprovals(a.Approvals)
	if err != nil {
		return fmt.Errorf("%s: create approval: %w", s.d.Name(), err)
	}
	_, err = s.write.ExecContext(ctx, s.q("INSERT INTO approvals ("+approvalCols+") VALUES "+placeholders(1, 29)),
		a.ID, a.TenantID, a.Status, a.Tool, a.Action, a.Category, a.AccountID, jsonArg(a.Input), a.Source,
		a.RequestID, s.t(a.CreatedAt), s.t(a.ExpiresAt), s.tp(a.DecidedAt), a.DecidedBy, a.Reason, jsonArg(a.Result),
		a.Gate, a.IncidentID, a.ParentRequestID, a.RunID, a.Digest, a.PolicyVersion, a.Agent, a.Person,
		a.ApprovalsRequired, given, a.TraceParent, jsonArg(a.Before), a.BeforeError)
	if err != nil {
		return s.fail("create approval", err)
	}
	return nil
}

// GetApproval returns the gate with id, or ErrNotFound.
func (s *Store) GetApproval(ctx context.Context, id string) (*gtmgate.Approval, error) {
	a, err := getApproval(ctx, s.read, s.q("SELECT "+approvalCols+" FROM approvals WHERE id = ?"), id)
	if err != nil {
		return nil, s.fail("get approval", err)
	}
	return a, nil
}

// ListApprovals returns the gates matching f, newest first; f.Limit defaults
// to 100 and is at most 1000. With f.AsOf set, a pending gate past its
// deadline at that time is listed, and filtered, as expired.
func (s *Store) ListApprovals(ctx context.Context, f gtmgate.ApprovalFilter) ([]*gtmgate.Approval, error) {
	var c conditions
	c.eq("tenant_id", f.TenantID)
	c.eq("gate", f.Gate)
	switch {
	case f.AsOf.IsZero() || (f.Status != gtmgate.ApprovalPending && f.Status != gtmgate.ApprovalExpired):
		c.eq("status", f.Status)
	case f.Status == gtmgate.ApprovalPending:
		c.add("status = 'pending' AND expires_at > ?", s.t(f.AsOf))
	default:
		c.add("(status = 'expired' OR (status = 'pending' AND expires_at <= ?))", s.t(f.AsOf))
	}
	q := "SELECT " + approvalCols + " FROM approvals" + c.where() + " ORDER BY created_at DESC, id DESC LIMIT ?"
	list, err := listRows(ctx, s, "list approvals", q, append(c.args, limit(f.Limit, defaultLimit, maxLimit)), scanApproval)
	if err != nil || f.AsOf.IsZero() {
		return list, err
	}
	for _, a := range list {
		a.AsOf(f.AsOf)
	}
	return list, nil
}

// ExpireApprovals marks pending gates past their deadline expired, the
// oldest first, at most limit in one statement so no lock is held long.
func (s *Store) ExpireApprovals(ctx context.Context, now time.Time, limit int) (int64, error) {
	res, err := s.write.ExecContext(ctx, s.q(`UPDATE approvals SET status = 'expired' WHERE id IN (
		SELECT id FROM approvals WHERE status = 'pending' AND expires_at <= ? ORDER BY expires_at LIMIT ?)
		AND status = 'pending'`), s.t(now), limit)
	if err != nil {
		return 0, s.fail("expire approvals", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, s.fail("expire approvals", err)
	}
	return n, nil
}

// DecideApproval moves a pending gate that has not expired at d.At (now when
// zero) to d.Status (approved or rejected) with one conditional UPDATE, so of
// two concurrent decisions exactly one succeeds. A gate that requires more
// approvals than it has keeps pending and records d among its approvals;
// the one that completes them moves it to approved. Either UPDATE also
// compares the approvals as read (a compare-and-set on the row locked
// here), so no approval is lost to another given at once. Otherwise it
// returns the gate as it is with ErrConflict: a decided gate, one past
// its deadline (first marked expired), or one d.Decider already approved
// (still pending). It returns ErrNotFound for an unknown id.
func (s *Store) DecideApproval(ctx context.Context, d gtmgate.ApprovalDecision) (*gtmgate.Approval, error) {
	if d.Status != gtmgate.ApprovalApproved && d.Status != gtmgate.ApprovalRejected {
		return nil, fmt.Errorf("%s: decide approval: %w", s.d.Name(),
			gtmgate.Errorf(gtmgate.EValidation, "decision must be %s or %s", gtmgate.ApprovalApproved, gtmgate.ApprovalRejected))
	}
	if d.At.IsZero() {
		d.At = s.now()
	}
	if d.Decider == "" {
		d.Decider = d.DecidedBy
	}
	var a *gtmgate.Approval
	var conflict bool
	err := s.inTx(ctx, "decide approval", func(tx *sql.Tx) error {
		n, err := s.decide(ctx, tx, d)
		if err != nil {
			return err
		}
		get := s.q("SELECT " + approvalCols + " FROM approvals WHERE id = ?")
		if n == 0 {
			conflict = true
			// Expire a pending gate found past its deadline; the status
			// condition makes this a no-op if another decision won meanwhile.
			if _, err := tx.ExecContext(ctx, s.q(`UPDATE approvals SET status = 'expired'
				WHERE id = ? AND status = 'pending' AND expires_at <= ?`), d.ID, s.t(d.At)); err != nil {
				return err
			}
		}
		a, err = getApproval(ctx, tx, get, d.ID)
		return err
	})
	if err != nil {
		return nil, err
	}
	if conflict {
		if a.Status == gtmgate.ApprovalPending && a.ApprovedBy(d.Decider) {
			return a, s.fail("decide approval", fmt.Errorf("%w: approval %s was already approved by %s", gtmgate.ErrConflict, a.ID, d.Decider))
		}
		return a, s.fail("decide approval", fmt.Errorf("%w: approval %s is %s", gtmgate.ErrConflict, a.ID, a.Status))
	}
	return a, nil
}

// decide writes d with one UPDATE conditional on the gate being pending
// and unexpired, and returns how many rows it changed (0 or 1). The gate's
// row is read and locked first: an approval of a gate that requires more
// than one is added to those given, the gate approved only when they are
// complete, and refused (0) when its decider gave one already.
func (s *Store) decide(ctx context.Context, tx *sql.Tx, d gtmgate.ApprovalDecision) (int64, error) {
	var required int
	var given string
	err := tx.QueryRowContext(ctx, s.q("SELECT approvals_required, approvals FROM approvals WHERE id = ?"+s.d.ForUpdate()), d.ID).
		Scan(&required, &given)
	if err != nil {
		return 0, err
	}
	set := "status = ?, decided_at = ?, decided_by = ?, reason = ?"
	args := []any{d.Status, s.t(d.At), d.DecidedBy, d.Reason}
	where, whereArgs := "id = ? AND status = 'pending' AND expires_at > ?", []any{d.ID, s.t(d.At)}
	if d.Status == gtmgate.ApprovalApproved && required > 1 {
		cur := gtmgate.Approval{ApprovalsRequired: required}
		if cur.Approvals, err = decodeApprovals(given); err != nil {
			return 0, fmt.Errorf("approval %s: %w", d.ID, err)
		}
		if cur.ApprovedBy(d.Decider) {
			return 0, nil
		}
		next, err := encodeApprovals(append(cur.Approvals, gtmgate.ApprovalGiven{By: d.DecidedBy, Decider: d.Decider, At: d.At, Reason: d.Reason}))
		if err != nil {
			return 0, err
		}
		if len(cur.Approvals)+1 < cur.Required() {
			set, args = "approvals = ?", []any{next}
		} else {
			set, args = set+", approvals = ?", append(args, next)
		}
		// Compare-and-set: the approvals are still those read.
		where, whereArgs = where+" AND approvals = ?", append(whereArgs, given)
	}
	res, err := tx.ExecContext(ctx, s.q("UPDATE approvals SET "+set+" WHERE "+where), append(args, whereArgs...)...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// FinishApproval stores the outcome of an approved gate's execution: status
// executed or failed, and the result body. It returns ErrConflict unless the
// gate is approved, ErrNotFound for an unknown id.
func (s *Store) FinishApproval(ctx context.Context, id, status string, result []byte) error {
	if status != gtmgate.ApprovalExecuted && status != gtmgate.ApprovalFailed {
		return fmt.Errorf("%s: finish approval: %w", s.d.Name(),
			gtmgate.Errorf(gtmgate.EValidation, "outcome must be %s or %s", gtmgate.ApprovalExecuted, gtmgate.ApprovalFailed))
	}
	return s.inTx(ctx, "finish approval", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.q("UPDATE approvals SET status = ?, result = ? WHERE id = ? AND status = 'approved'"),
			status, jsonArg(result), id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 1 {
			return err
		}
		var cur string
		if err := tx.QueryRowContext(ctx, s.q("SELECT status FROM approvals WHERE id = ?"), id).Scan(&cur); err != nil {
			return err
		}
		return fmt.Errorf("%w: approval %s is %s, not approved", gtmgate.ErrConflict, id, cur)
	})
}

// WithdrawApprovals moves the pending, unexpired gates of a cancelled run
// to withdrawn in one statement: a decision racing it either comes first
// (and the gate is no longer pending) or finds the gate withdrawn.
func (s *Store) WithdrawApprovals(ctx context.Context, w gtmgate.ApprovalWithdrawal) (int64, error) {
	if w.TenantID == "" || w.RunID == "" {
		return 0, fmt.Errorf("%s: withdraw approvals: %w", s.d.Name(), gtmgate.Errorf(gtmgate.EValidation, "tenant and run are required"))
	}
	if w.At.IsZero() {
		w.At = s.now()
	}
	res, err := s.write.ExecContext(ctx, s.q(`UPDATE approvals SET status = 'withdrawn', decided_at = ?, decided_by = ?, reason = ?
		WHERE tenant_id = ? AND run_id = ? AND status = 'pending' AND expires_at > ?`),
		s.t(w.At), w.By, w.Reason, w.TenantID, w.RunID, s.t(w.At))
	if err != nil {
		return 0, s.fail("withdraw approvals", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, s.fail("withdraw approvals", err)
	}
	return n, nil
}

// queryRower is a *sql.DB or *sql.Tx.
type queryRower interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func getApproval(ctx context.Context, db queryRower, query, id string) (*gtmgate.Approval, error) {
	return scanApproval(db.QueryRowContext(ctx, query, id))
}

func scanApproval(r scanner) (*gtmgate.Approval, error) {
	var a gtmgate.Approval
	var given string
	err := r.Scan(&a.ID, &a.TenantID, &a.Status, &a.Tool, &a.Action, &a.Category, &a.AccountID, jsonCol{&a.Input},
		&a.Source, &a.RequestID, timeCol{&a.CreatedAt}, timeCol{&a.ExpiresAt}, nullTimeCol{&a.DecidedAt},
		&a.DecidedBy, &a.Reason, jsonCol{&a.Result}, &a.Gate, &a.IncidentID, &a.ParentRequestID, &a.RunID,
		&a.Digest, &a.PolicyVersion, &a.Agent, &a.Person, &a.ApprovalsRequired, &given, &a.TraceParent,
		jsonCol{&a.Before}, &a.BeforeError)
	if err != nil {
		return nil, err
	}
	if a.Approvals, err = decodeApprovals(given); err != nil {
		return nil, fmt.Errorf("approval %s: %w", a.ID, err)
	}
	return &a, nil
}

// encodeApprovals is the approvals column: a JSON array, "" for none, its
// times to the store's precision.
func encodeApprovals(given []gtmgate.ApprovalGiven) (string, error) {
	if len(given) == 0 {
		return "", nil
	}
	given = slices.Clone(given)
	for i := range given {
		given[i].At = given[i].At.UTC().Truncate(time.Microsecond)
	}
	b, err := json.Marshal(given)
	if err != nil {
		return "", fmt.Errorf("encode approvals: %w", err)
	}
	return string(b), nil
}

func decodeApprovals(col string) ([]gtmgate.ApprovalGiven, error) {
	if col == "" {
		return nil, nil
	}
	var given []gtmgate.ApprovalGiven
	if err := json.Unmarshal([]byte(col), &given); err != nil {
		return nil, fmt.Errorf("decode approvals: %w", err)
	}
	return given, nil
}
