package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/gtmgate/gtmgate"
)

// CreateAgentRun stores a new run at version 1 (see gtmgate.AgentStore).
func (s *Store) CreateAgentRun(ctx context.Context, r *gtmgate.AgentRun) error {
	if r.ID == "" || r.TenantID == "" {
		return s.fail("create agent run", gtmgate.Errorf(gtmgate.EValidation, "run id and tenant are required"))
	}
	if r.CreatedAt.IsZero() {
		r.CreatedAt = s.now()
	}
	body, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("encode agent run: %w", err)
	}
	var tick any
	if r.ScheduledFor != nil {
		tick = s.t(*r.ScheduledFor)
	}
	_, err = s.write.ExecContext(ctx, s.q(`INSERT INTO agent_runs (id, tenant_id, status, trigger_kind, schedule_id,
		scheduled_for, waiting_for, created_at, updated_at, version, messages, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`),
		r.ID, r.TenantID, r.Status, r.Trigger, r.ScheduleID, tick, r.WaitingFor, s.t(r.CreatedAt), s.t(s.now()),
		string(r.Messages), string(body))
	if err != nil {
		return s.fail("create agent run", err)
	}
	r.Version = 1
	return nil
}

const agentRunCols = "version, messages, body"

func scanAgentRun(sc scanner) (*gtmgate.AgentRun, error) {
	var version int64
	var messages, body string
	if err := sc.Scan(&version, &messages, &body); err != nil {
		return nil, err
	}
	var r gtmgate.AgentRun
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		return nil, fmt.Errorf("decode agent run: %w", err)
	}
	r.Version = version
	if messages != "" {
		r.Messages = json.RawMessage(messages)
	}
	return &r, nil
}

// GetAgentRun returns one run.
func (s *Store) GetAgentRun(ctx context.Context, id string) (*gtmgate.AgentRun, error) {
	r, err := scanAgentRun(s.read.QueryRowContext(ctx, s.q("SELECT "+agentRunCols+" FROM agent_runs WHERE id = ?"), id))
	if err != nil {
		return nil, s.fail("get agent run", err)
	}
	return r, nil
}

// SaveAgentRun replaces a run at its stored version (compare and set).
func (s *Store) SaveAgentRun(ctx context.Context, r *gtmgate.AgentRun) error {
	body, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("encode agent run: %w", err)
	}
	res, err := s.write.ExecContext(ctx, s.q(`UPDATE agent_runs SET status = ?, waiting_for = ?, updated_at = ?,
		version = version + 1, messages = ?, body = ? WHERE id = ? AND version = ?`),
		r.Status, r.WaitingFor, s.t(s.now()), string(r.Messages), string(body), r.ID, r.Version)
	if err != nil {
		return s.fail("save agent run", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return s.fail("save agent run", err)
	} else if n == 0 {
		return fmt.Errorf("%s: save agent run %s: %w: it changed since version %d (or does not exist)", s.d.Name(), r.ID, gtmgate.ErrConflict, r.Version)
	}
	r.Version++
	return nil
}

// ListAgentRuns returns the runs matching f, newest first; f.Limit defaults
// to 100 and is at most 1000.
func (s *Store) ListAgentRuns(ctx context.Context, f gtmgate.AgentRunFilter) ([]*gtmgate.AgentRun, error) {
	var c conditions
	c.eq("tenant_id", f.TenantID)
	c.eq("schedule_id", f.ScheduleID)
	c.eq("status", f.Status)
	c.eq("waiting_for", f.WaitingFor)
	if !f.CreatedBefore.IsZero() {
		c.add("created_at < ?", s.t(f.CreatedBefore))
	}
	q := "SELECT " + agentRunCols + " FROM agent_runs" + c.where() + " ORDER BY created_at DESC, id DESC LIMIT ?"
	return listRows(ctx, s, "list agent runs", q, append(c.args, limit(f.Limit, defaultLimit, maxLimit)), scanAgentRun)
}

// PutSchedule creates or replaces a schedule.
func (s *Store) PutSchedule(ctx context.Context, sc *gtmgate.Schedule) (bool, error) {
	if sc.JobID == "" || sc.TenantID == "" {
		return false, s.fail("put schedule", gtmgate.Errorf(gtmgate.EValidation, "job id and tenant are required"))
	}
	now := s.now()
	created := false
	err := s.inTx(ctx, "put schedule", func(tx *sql.Tx) error {
		var stored scheduleCreated
		err := tx.QueryRowContext(ctx, s.q("SELECT body FROM agent_schedules WHERE job_id = ?"), sc.JobID).Scan(&stored)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			created = true
			sc.CreatedAt = now
		case err != nil:
			return err
		default:
			sc.CreatedAt = stored.t
		}
		if sc.UpdatedAt.IsZero() || !created {
			sc.UpdatedAt = now
		}
		body, err := json.Marshal(sc)
		if err != nil {
			return fmt.Errorf("encode schedule: %w", err)
		}
		var next any
		if sc.NextRunAt != nil {
			next = s.t(*sc.NextRunAt)
		}
		if created {
			_, err = tx.ExecContext(ctx, s.q(`INSERT INTO agent_schedules (job_id, tenant_id, cron, enabled, next_run_at, updated_at, body)
				VALUES (?, ?, ?, ?, ?, ?, ?)`), sc.JobID, sc.TenantID, sc.Cron, sc.Enabled, next, s.t(sc.UpdatedAt), string(body))
		} else {
			_, err = tx.ExecContext(ctx, s.q(`UPDATE agent_schedules SET tenant_id = ?, cron = ?, enabled = ?, next_run_at = ?,
				updated_at = ?, body = ? WHERE job_id = ?`), sc.TenantID, sc.Cron, sc.Enabled, next, s.t(sc.UpdatedAt), string(body), sc.JobID)
		}
		return err
	})
	return created, err
}

// scheduleCreated reads a stored schedule's creation time from its body.
type scheduleCreated struct{ t time.Time }

func (c *scheduleCreated) Scan(src any) error {
	var body []byte
	switch v := src.(type) {
	case string:
		body = []byte(v)
	case []byte:
		body = v
	default:
		return fmt.Errorf("schedule body of type %T", src)
	}
	var sc gtmgate.Schedule
	if err := json.Unmarshal(body, &sc); err != nil {
		return fmt.Errorf("decode schedule: %w", err)
	}
	c.t = sc.CreatedAt
	return nil
}

const scheduleCols = "next_run_at, body"

func scanSchedule(sc scanner) (*gtmgate.Schedule, error) {
	var next *time.Time
	var body string
	if err := sc.Scan(nullTimeCol{&next}, &body); err != nil {
		return nil, err
	}
	var out gtmgate.Schedule
	if err := json.Unmarshal([]byte(body), &out); err != nil {
		return nil, fmt.Errorf("decode schedule: %w", err)
	}
	// The column is the truth: AdvanceSchedule moves it without the body.
	out.NextRunAt = next
	return &out, nil
}

// GetSchedule returns one schedule.
func (s *Store) GetSchedule(ctx context.Context, jobID string) (*gtmgate.Schedule, error) {
	sc, err := scanSchedule(s.read.QueryRowContext(ctx, s.q("SELECT "+scheduleCols+" FROM agent_schedules WHERE job_id = ?"), jobID))
	if err != nil {
		return nil, s.fail("get schedule", err)
	}
	return sc, nil
}

// ListSchedules returns the schedules matching f, ordered by job id.
func (s *Store) ListSchedules(ctx context.Context, f gtmgate.ScheduleFilter) ([]*gtmgate.Schedule, error) {
	var c conditions
	c.eq("tenant_id", f.TenantID)
	c.eq("cron", f.Cron)
	if !f.DueBy.IsZero() {
		c.add("enabled = ? AND next_run_at IS NOT NULL AND next_run_at <= ?", true, s.t(f.DueBy))
	}
	return listRows(ctx, s, "list schedules", "SELECT "+scheduleCols+" FROM agent_schedules"+c.where()+" ORDER BY job_id", c.args, scanSchedule)
}

// DeleteSchedule removes a schedule; its runs stay.
func (s *Store) DeleteSchedule(ctx context.Context, jobID string) error {
	res, err := s.write.ExecContext(ctx, s.q("DELETE FROM agent_schedules WHERE job_id = ?"), jobID)
	if err != nil {
		return s.fail("delete schedule", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return s.fail("delete schedule", err)
	} else if n == 0 {
		return fmt.Errorf("%s: delete schedule %s: %w", s.d.Name(), jobID, gtmgate.ErrNotFound)
	}
	return nil
}

// AdvanceSchedule moves next_run_at from from to next (compare and set).
func (s *Store) AdvanceSchedule(ctx context.Context, jobID string, from time.Time, next *time.Time) error {
	var nv any
	if next != nil {
		nv = s.t(*next)
	}
	res, err := s.write.ExecContext(ctx, s.q("UPDATE agent_schedules SET next_run_at = ? WHERE job_id = ? AND next_run_at = ?"),
		nv, jobID, s.t(from))
	if err != nil {
		return s.fail("advance schedule", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return s.fail("advance schedule", err)
	} else if n == 0 {
		return fmt.Errorf("%s: advance schedule %s: %w: its next run is no longer %s", s.d.Name(), jobID, gtmgate.ErrConflict, from.Format(time.RFC3339))
	}
	return nil
}

// PutDailyBrief stores a brief, replacing the one of its date.
func (s *Store) PutDailyBrief(ctx context.Context, b *gtmgate.DailyBrief) error {
	body, err := json.Marshal(b)
	if err != nil {
		return fmt.Errorf("encode daily brief: %w", err)
	}
	_, err = s.write.ExecContext(ctx, s.q(`INSERT INTO daily_briefs (date, generated_at, body) VALUES (?, ?, ?)
		ON CONFLICT (date) DO UPDATE SET generated_at = excluded.generated_at, body = excluded.body`),
		b.Date, s.t(b.GeneratedAt), string(body))
	if err != nil {
		return s.fail("put daily brief", err)
	}
	return nil
}

// GetDailyBrief returns a date's brief, or the latest when date is "".
func (s *Store) GetDailyBrief(ctx context.Context, date string) (*gtmgate.DailyBrief, error) {
	q, args := "SELECT body FROM daily_briefs WHERE date = ?", []any{date}
	if date == "" {
		q, args = "SELECT body FROM daily_briefs ORDER BY date DESC LIMIT 1", nil
	}
	var body string
	if err := s.read.QueryRowContext(ctx, s.q(q), args...).Scan(&body); err != nil {
		return nil, s.fail("get daily brief", err)
	}
	var b gtmgate.DailyBrief
	if err := json.Unmarshal([]byte(body), &b); err != nil {
		return nil, fmt.Errorf("decode daily brief: %w", err)
	}
	return &b, nil
}
