package sqlstore

import (
	"context"
	"fmt"
	"time"

	"github.com/gtmgate/gtmgate"
)

const feedbackCols = `id, tenant_id, time, attempted_action, expected_outcome, actual_outcome, tool_called,
	error_seen, severity, request_id, resolved_at, resolved_by`

// AddFeedback stores an agent's feedback; ErrConflict when its id exists.
func (s *Store) AddFeedback(ctx context.Context, f *gtmgate.Feedback) error {
	if f.ID == "" {
		return fmt.Errorf("%s: add feedback: %w", s.d.Name(), gtmgate.Errorf(gtmgate.EValidation, "feedback id is required"))
	}
	if f.Time.IsZero() {
		f.Time = s.now()
	}
	_, err := s.write.ExecContext(ctx, s.q("INSERT INTO agent_feedback ("+feedbackCols+
		") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
		f.ID, f.TenantID, s.t(f.Time), f.AttemptedAction, f.ExpectedOutcome, f.ActualOutcome, f.ToolCalled,
		f.ErrorSeen, f.Severity, f.RequestID, s.tp(f.ResolvedAt), f.ResolvedBy)
	if err != nil {
		return s.fail("add feedback", err)
	}
	return nil
}

// ListFeedback returns the feedback matching f, newest first; f.Limit
// defaults to 100 and is at most 1000.
func (s *Store) ListFeedback(ctx context.Context, f gtmgate.FeedbackFilter) ([]*gtmgate.Feedback, error) {
	var c conditions
	c.eq("tenant_id", f.TenantID)
	c.eq("severity", f.Severity)
	if !f.Since.IsZero() {
		c.add("time >= ?", s.t(f.Since))
	}
	if f.Resolved != nil {
		if *f.Resolved {
			c.add("resolved_at IS NOT NULL")
		} else {
			c.add("resolved_at IS NULL")
		}
	}
	q := "SELECT " + feedbackCols + " FROM agent_feedback" + c.where() + " ORDER BY time DESC, id DESC LIMIT ?"
	return listRows(ctx, s, "list feedback", q, append(c.args, limit(f.Limit, defaultLimit, maxLimit)), scanFeedback)
}

// ResolveFeedback marks an entry resolved by by at at and returns it; an
// entry already resolved keeps its first resolution. It returns ErrNotFound
// for an unknown id.
func (s *Store) ResolveFeedback(ctx context.Context, id, by string, at time.Time) (*gtmgate.Feedback, error) {
	if _, err := s.write.ExecContext(ctx, s.q(
		"UPDATE agent_feedback SET resolved_at = ?, resolved_by = ? WHERE id = ? AND resolved_at IS NULL"),
		s.t(at), by, id); err != nil {
		return nil, s.fail("resolve feedback", err)
	}
	fb, err := scanFeedback(s.read.QueryRowContext(ctx, s.q("SELECT "+feedbackCols+" FROM agent_feedback WHERE id = ?"), id))
	if err != nil {
		return nil, s.fail("resolve feedback", err)
	}
	return fb, nil
}

func scanFeedback(r scanner) (*gtmgate.Feedback, error) {
	var f gtmgate.Feedback
	err := r.Scan(&f.ID, &f.TenantID, timeCol{&f.Time}, &f.AttemptedAction, &f.ExpectedOutcome, &f.ActualOutcome,
		&f.ToolCalled, &f.ErrorSeen, &f.Severity, &f.RequestID, nullTimeCol{&f.ResolvedAt}, &f.ResolvedBy)
	if err != nil {
		return nil, err
	}
	return &f, nil
}
