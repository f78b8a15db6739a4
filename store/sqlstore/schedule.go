package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gtmgate/gtmgate"
)

// Schedules are keyed by (tenant_id, job_id). The body holds the schedule as
// JSON; the columns a statement moves on its own (enabled, next_run_at,
// created_at, disabled_reason, disabled_at) are the truth and are read over
// the body. credential_kind and credential_id copy the body's created_by for
// DisableSchedules.

// PutSchedule creates or replaces the schedule (sc.TenantID, sc.JobID) in
// one statement: a replace keeps the creation time, and the revision it
// returns says which it was.
func (s *Store) PutSchedule(ctx context.Context, sc *gtmgate.Schedule) (bool, error) {
	if sc.JobID == "" || sc.TenantID == "" {
		return false, s.fail("put schedule", gtmgate.Errorf(gtmgate.EValidation, "job id and tenant are required"))
	}
	now := s.now()
	if sc.CreatedAt.IsZero() {
		sc.CreatedAt = now
	}
	sc.UpdatedAt = now
	body, err := json.Marshal(sc)
	if err != nil {
		return false, fmt.Errorf("encode schedule: %w", err)
	}
	var next any
	if sc.NextRunAt != nil {
		next = s.t(*sc.NextRunAt)
	}
	var cred gtmgate.Credential
	if sc.CreatedBy != nil {
		cred = *sc.CreatedBy
	}
	var revision int64
	var created time.Time
	err = s.write.QueryRowContext(ctx, s.q(`INSERT INTO agent_schedules (tenant_id, job_id, cron, enabled, next_run_at,
		created_at, updated_at, revision, credential_kind, credential_id, disabled_reason, disabled_at, body)
		VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)
		ON CONFLICT (tenant_id, job_id) DO UPDATE SET cron = excluded.cron, enabled = excluded.enabled,
		next_run_at = excluded.next_run_at, updated_at = excluded.updated_at, revision = agent_schedules.revision + 1,
		credential_kind = excluded.credential_kind, credential_id = excluded.credential_id,
		disabled_reason = excluded.disabled_reason, disabled_at = excluded.disabled_at, body = excluded.body
		RETURNING revision, created_at`),
		sc.TenantID, sc.JobID, sc.Cron, sc.Enabled, next, s.t(sc.CreatedAt), s.t(sc.UpdatedAt), cred.Kind, cred.ID,
		sc.DisabledReason, s.tp(sc.DisabledAt), string(body)).
		Scan(&revision, timeCol{&created})
	if err != nil {
		return false, s.fail("put schedule", err)
	}
	sc.CreatedAt = created
	return revision == 1, nil
}

const scheduleCols = "enabled, next_run_at, created_at, disabled_reason, disabled_at, body"

func scanSchedule(sc scanner) (*gtmgate.Schedule, error) {
	var enabled bool
	var next, disabledAt *time.Time
	var created time.Time
	var disabledReason, body string
	if err := sc.Scan(&enabled, nullTimeCol{&next}, timeCol{&created}, &disabledReason, nullTimeCol{&disabledAt}, &body); err != nil {
		return nil, err
	}
	var out gtmgate.Schedule
	if err := json.Unmarshal([]byte(body), &out); err != nil {
		return nil, fmt.Errorf("decode schedule: %w", err)
	}
	out.Enabled, out.NextRunAt, out.CreatedAt, out.DisabledReason, out.DisabledAt = enabled, next, created, disabledReason, disabledAt
	return &out, nil
}

// GetSchedule returns a tenant's schedule.
func (s *Store) GetSchedule(ctx context.Context, tenantID, jobID string) (*gtmgate.Schedule, error) {
	sc, err := scanSchedule(s.read.QueryRowContext(ctx, s.q("SELECT "+scheduleCols+" FROM agent_schedules WHERE tenant_id = ? AND job_id = ?"),
		tenantID, jobID))
	if err != nil {
		return nil, s.fail("get schedule", err)
	}
	return sc, nil
}

// ListSchedules returns the schedules matching f, ordered by job id, then tenant.
func (s *Store) ListSchedules(ctx context.Context, f gtmgate.ScheduleFilter) ([]*gtmgate.Schedule, error) {
	var c conditions
	c.eq("tenant_id", f.TenantID)
	c.eq("job_id", f.JobID)
	c.eq("cron", f.Cron)
	if !f.DueBy.IsZero() {
		c.add("enabled = ? AND next_run_at IS NOT NULL AND next_run_at <= ?", true, s.t(f.DueBy))
	}
	return listRows(ctx, s, "list schedules", "SELECT "+scheduleCols+" FROM agent_schedules"+c.where()+" ORDER BY job_id, tenant_id", c.args, scanSchedule)
}

// DeleteSchedule removes a tenant's schedule; its runs stay.
func (s *Store) DeleteSchedule(ctx context.Context, tenantID, jobID string) error {
	res, err := s.write.ExecContext(ctx, s.q("DELETE FROM agent_schedules WHERE tenant_id = ? AND job_id = ?"), tenantID, jobID)
	if err != nil {
		return s.fail("delete schedule", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return s.fail("delete schedule", err)
	} else if n == 0 {
		return fmt.Errorf("%s: delete schedule %s/%s: %w", s.d.Name(), tenantID, jobID, gtmgate.ErrNotFound)
	}
	return nil
}

// AdvanceSchedule moves next_run_at from from to next (compare and set).
func (s *Store) AdvanceSchedule(ctx context.Context, tenantID, jobID string, from time.Time, next *time.Time) error {
	var nv any
	if next != nil {
		nv = s.t(*next)
	}
	res, err := s.write.ExecContext(ctx, s.q("UPDATE agent_schedules SET next_run_at = ? WHERE tenant_id = ? AND job_id = ? AND next_run_at = ?"),
		nv, tenantID, jobID, s.t(from))
	if err != nil {
		return s.fail("advance schedule", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return s.fail("advance schedule", err)
	} else if n == 0 {
		return fmt.Errorf("%s: advance schedule %s/%s: %w: its next run is no longer %s", s.d.Name(), tenantID, jobID, gtmgate.ErrConflict,
			from.Format(time.RFC3339))
	}
	return nil
}

// DisableSchedules disables the enabled schedules of a tenant created by a
// revoked credential, in one statement.
func (s *Store) DisableSchedules(ctx context.Context, d gtmgate.ScheduleDisable) (int64, error) {
	if d.TenantID == "" || d.Credential.Kind == "" {
		return 0, s.fail("disable schedules", gtmgate.Errorf(gtmgate.EValidation, "tenant and credential are required"))
	}
	if d.At.IsZero() {
		d.At = s.now()
	}
	res, err := s.write.ExecContext(ctx, s.q(`UPDATE agent_schedules SET enabled = ?, next_run_at = NULL, disabled_reason = ?,
		disabled_at = ?, updated_at = ? WHERE tenant_id = ? AND credential_kind = ? AND credential_id = ? AND enabled = ?`),
		false, d.Reason, s.t(d.At), s.t(d.At), d.TenantID, d.Credential.Kind, d.Credential.ID, true)
	if err != nil {
		return 0, s.fail("disable schedules", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, s.fail("disable schedules", err)
	}
	return n, nil
}
