package sqlstore

import (
	"context"

	"github.com/gtmgate/gtmgate"
)

// ListUsage returns a tenant's usage events with From <= time < To, oldest
// first, only q.Key's when set. A zero To means no upper bound.
func (s *Store) ListUsage(ctx context.Context, q gtmgate.UsageQuery) ([]gtmgate.UsageEvent, error) {
	var c conditions
	c.add("tenant_id = ?", q.TenantID)
	c.eq("key_id", q.Key)
	c.add("time >= ?", s.t(q.From))
	if !q.To.IsZero() {
		c.add("time < ?", s.t(q.To))
	}
	query := `SELECT time, tenant_id, key_id, source, tool, action, ok, duration_ms, upstream_ms, prompt_tokens,
		completion_tokens FROM usage_events` + c.where() + " ORDER BY time, id"
	rows, err := s.read.QueryContext(ctx, s.q(query), c.args...)
	if err != nil {
		return nil, s.fail("list usage", err)
	}
	defer rows.Close()
	events := []gtmgate.UsageEvent{}
	for rows.Next() {
		var u gtmgate.UsageEvent
		if err := rows.Scan(timeCol{&u.Time}, &u.TenantID, &u.Key, &u.Source, &u.Tool, &u.Action, &u.OK, &u.DurationMS,
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
