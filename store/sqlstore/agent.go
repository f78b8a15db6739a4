package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/gtmgate/gtmgate"
)

// CreateAgentRun stores a new run at version 1 (see gtmgate.AgentStore).
func (s *Store) CreateAgentRun(ctx context.Context, r *gtmgate.AgentRun) error {
	if err := s.insertAgentRun(ctx, s.write, r); err != nil {
		return s.fail("create agent run", err)
	}
	return nil
}

// execer is a pool or a transaction.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// insertAgentRun inserts a new run at version 1 through x.
func (s *Store) insertAgentRun(ctx context.Context, x execer, r *gtmgate.AgentRun) error {
	if r.ID == "" || r.TenantID == "" {
		return gtmgate.Errorf(gtmgate.EValidation, "run id and tenant are required")
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
	_, err = x.ExecContext(ctx, s.q(`INSERT INTO agent_runs (id, tenant_id, status, trigger_kind, schedule_id,
		scheduled_for, waiting_for, created_at, updated_at, version, messages, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`),
		r.ID, r.TenantID, r.Status, r.Trigger, r.ScheduleID, tick, r.WaitingFor, s.t(r.CreatedAt), s.t(s.now()),
		string(r.Messages), string(body))
	if err != nil {
		return err
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
	if f.ExceptTenantID != "" {
		c.add("tenant_id <> ?", f.ExceptTenantID)
	}
	if !f.CreatedBefore.IsZero() {
		c.add("created_at < ?", s.t(f.CreatedBefore))
	}
	q := "SELECT " + agentRunCols + " FROM agent_runs" + c.where() + " ORDER BY created_at DESC, id DESC LIMIT ?"
	return listRows(ctx, s, "list agent runs", q, append(c.args, limit(f.Limit, defaultLimit, maxLimit)), scanAgentRun)
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
