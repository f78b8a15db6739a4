package sqlstore

import (
	"context"
	"database/sql"

	"github.com/gtmgate/gtmgate"
)

// CreateAgentRunWith stores a new run and lets admit decide on it and
// enqueue its job in the same transaction (see gtmgate.AgentStore). The
// tenant's row is locked first (on PostgreSQL; SQLite's one writer
// serialises anyway), so the counts admit sees cannot be overtaken by
// another start of the same tenant on any replica.
func (s *Store) CreateAgentRunWith(ctx context.Context, r *gtmgate.AgentRun, admit gtmgate.RunAdmission) error {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return s.fail("create agent run", err)
	}
	defer tx.Rollback()
	var id string
	if err := tx.QueryRowContext(ctx, s.q("SELECT id FROM tenants WHERE id = ?"+s.d.ForUpdate()), r.TenantID).Scan(&id); err != nil {
		return s.fail("create agent run: lock tenant", err)
	}
	runs, err := s.countAgentRuns(ctx, tx, r.TenantID)
	if err != nil {
		return s.fail("create agent run: count runs", err)
	}
	if err := s.insertAgentRun(ctx, tx, r); err != nil {
		return s.fail("create agent run", err)
	}
	if err := admit(ctx, tx, runs); err != nil {
		r.Version = 0
		return err
	}
	if err := tx.Commit(); err != nil {
		r.Version = 0
		return s.fail("create agent run: commit", err)
	}
	return nil
}

// CountAgentRuns counts a tenant's queued and running runs.
func (s *Store) CountAgentRuns(ctx context.Context, tenantID string) (gtmgate.TenantRuns, error) {
	runs, err := s.countAgentRuns(ctx, s.read, tenantID)
	if err != nil {
		return runs, s.fail("count agent runs", err)
	}
	return runs, nil
}

// querier is a pool or a transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func (s *Store) countAgentRuns(ctx context.Context, q querier, tenantID string) (gtmgate.TenantRuns, error) {
	var out gtmgate.TenantRuns
	rows, err := q.QueryContext(ctx, s.q(`SELECT status, COUNT(*) FROM agent_runs WHERE status IN (?, ?) AND tenant_id = ?
		GROUP BY status`), gtmgate.RunQueued, gtmgate.RunRunning, tenantID)
	if err != nil {
		return out, err
	}
	defer rows.Close()
	for rows.Next() {
		var status string
		var n int
		if err := rows.Scan(&status, &n); err != nil {
			return out, err
		}
		if status == gtmgate.RunQueued {
			out.Queued = n
		} else {
			out.Running = n
		}
	}
	return out, rows.Err()
}

// CountEnabledSchedules counts a tenant's enabled schedules but exceptJobID.
func (s *Store) CountEnabledSchedules(ctx context.Context, tenantID, exceptJobID string) (int, error) {
	var n int
	err := s.read.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM agent_schedules WHERE tenant_id = ? AND enabled AND job_id <> ?`),
		tenantID, exceptJobID).Scan(&n)
	if err != nil {
		return 0, s.fail("count schedules", err)
	}
	return n, nil
}
