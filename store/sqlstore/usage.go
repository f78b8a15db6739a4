package sqlstore

import (
	"context"

	"github.com/gtmgate/gtmgate"
)

// ListUsage returns a tenant's usage events with From <= time < To, oldest
// first. A zero To means no upper bound.
func (s *Store) ListUsage(ctx context.Context, q gtmgate.UsageQuery) ([]gtmgate.UsageEvent, error) {
	query := `SELECT time, tenant_id, source, tool, action, ok, duration_ms, upstream_ms, prompt_tokens,
		completion_tokens FROM usage_events WHERE tenant_id = ? AND time >= ?`
	args := []any{q.TenantID, s.t(q.From)}
	if !q.To.IsZero() {
		query += " AND time < ?"
		args = append(args, s.t(q.To))
	}
	rows, err := s.read.QueryContext(ctx, s.q(query+" ORDER BY time, id"), args...)
	if err != nil {
		return nil, s.fail("list usage", err)
	}
	defer rows.Close()
	events := []gtmgate.UsageEvent{}
	for rows.Next() {
		var u gtmgate.UsageEvent
		if err := rows.Scan(timeCol{&u.Time}, &u.TenantID, &u.Source, &u.Tool, &u.Action, &u.OK, &u.DurationMS,
			&u.UpstreamMS, &u.PromptTokens, &u.CompletionTokens); err != nil {
			return nil, s.fail("list usage", err)
		}
		events = append(events, u)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail("list usage", err)
	}
	return events, nil
}
