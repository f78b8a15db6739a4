package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
)

// GetBillingPlan returns a tenant's plan, or ErrNotFound.
func (s *Store) GetBillingPlan(ctx context.Context, tenantID string) (*gtmgate.BillingPlan, error) {
	p, err := scanPlan(s.read.QueryRowContext(ctx, s.q("SELECT body, updated_at FROM billing_plans WHERE tenant_id = ?"), tenantID))
	if err != nil {
		return nil, s.fail("get billing plan", err)
	}
	return p, nil
}

// PutBillingPlan creates or replaces a plan; it sets p.UpdatedAt.
func (s *Store) PutBillingPlan(ctx context.Context, p *gtmgate.BillingPlan) (bool, error) {
	now := s.now()
	cp := *p
	cp.UpdatedAt = now
	body, err := json.Marshal(&cp)
	if err != nil {
		return false, fmt.Errorf("%s: put billing plan: encode: %w", s.d.Name(), err)
	}
	created := false
	err = s.inTx(ctx, "put billing plan", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.q(`INSERT INTO billing_plans (tenant_id, body, created_at, updated_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (tenant_id) DO NOTHING`), p.TenantID, string(body), s.t(now), s.t(now))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 1 {
			created = true
			return nil
		}
		_, err = tx.ExecContext(ctx, s.q("UPDATE billing_plans SET body = ?, updated_at = ? WHERE tenant_id = ?"), string(body), s.t(now), p.TenantID)
		return err
	})
	if err != nil {
		return false, err
	}
	p.UpdatedAt = now
	return created, nil
}

// ListBillingPlans returns every plan, by tenant id.
func (s *Store) ListBillingPlans(ctx context.Context) ([]*gtmgate.BillingPlan, error) {
	return listRows(ctx, s, "list billing plans", "SELECT body, updated_at FROM billing_plans ORDER BY tenant_id", nil, scanPlan)
}

func scanPlan(r scanner) (*gtmgate.BillingPlan, error) {
	var body string
	var p gtmgate.BillingPlan
	var updated time.Time
	if err := r.Scan(&body, timeCol{&updated}); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(body), &p); err != nil {
		return nil, fmt.Errorf("decode billing plan: %w", err)
	}
	p.UpdatedAt = updated
	return &p, nil
}

// ListUsageRollups returns a tenant's hourly rollups with From <= hour < To
// (no upper bound when To is zero), oldest first. Rollups are the tenant's
// as a whole: a query for one agent (q.Key) is a VALIDATION_ERROR.
func (s *Store) ListUsageRollups(ctx context.Context, q gtmgate.UsageQuery) ([]gtmgate.UsageRollup, error) {
	if q.Key != "" {
		return nil, fmt.Errorf("%s: list usage rollups: %w", s.d.Name(), gtmgate.Errorf(gtmgate.EValidation,
			"usage rollups are kept per tenant, not per agent: read one agent's usage from its events"))
	}
	var c conditions
	c.add("tenant_id = ?", q.TenantID)
	c.add("hour >= ?", s.t(q.From))
	if !q.To.IsZero() {
		c.add("hour < ?", s.t(q.To))
	}
	return listRows(ctx, s, "list usage rollups", `SELECT hour, tenant_id, tool, action, calls, errors, prompt_tokens,
		completion_tokens, duration_ms, upstream_ms FROM usage_rollups`+c.where()+" ORDER BY hour, tool, action", c.args,
		func(r scanner) (gtmgate.UsageRollup, error) {
			var u gtmgate.UsageRollup
			err := r.Scan(timeCol{&u.Hour}, &u.TenantID, &u.Tool, &u.Action, &u.Calls, &u.Errors, &u.PromptTokens,
				&u.CompletionTokens, &u.DurationMS, &u.UpstreamMS)
			return u, err
		})
}

// rollupKey groups usage events into one hourly rollup row.
type rollupKey struct {
	tenant, tool, action string
	hour                 time.Time
}

// rollUp adds usage events to their hourly rollups in tx. Rows are upserted
// in key order, so concurrent writers lock them in the same order and never
// deadlock.
func (s *Store) rollUp(ctx context.Context, tx *sql.Tx, usage []gtmgate.UsageEvent) error {
	if len(usage) == 0 {
		return nil
	}
	sums := map[rollupKey]*gtmgate.UsageRollup{}
	for i := range usage {
		u := &usage[i]
		k := rollupKey{u.TenantID, u.Tool, u.Action, u.Time.UTC().Truncate(time.Hour)}
		r := sums[k]
		if r == nil {
			r = &gtmgate.UsageRollup{Hour: k.hour, TenantID: k.tenant, Tool: k.tool, Action: k.action}
			sums[k] = r
		}
		r.Calls++
		if !u.OK {
			r.Errors++
		}
		r.PromptTokens += u.PromptTokens
		r.CompletionTokens += u.CompletionTokens
		r.DurationMS += u.DurationMS
		r.UpstreamMS += u.UpstreamMS
	}
	rows := make([]*gtmgate.UsageRollup, 0, len(sums))
	for _, r := range sums {
		rows = append(rows, r)
	}
	slices.SortFunc(rows, func(a, b *gtmgate.UsageRollup) int {
		if c := strings.Compare(a.TenantID, b.TenantID); c != 0 {
			return c
		}
		if c := a.Hour.Compare(b.Hour); c != 0 {
			return c
		}
		if c := strings.Compare(a.Tool, b.Tool); c != 0 {
			return c
		}
		return strings.Compare(a.Action, b.Action)
	})
	return s.insertMany(ctx, tx, rollupUpsert, rollupConflict, 10, len(rows), func(i int, dst []any) []any {
		r := rows[i]
		return append(dst, r.TenantID, s.t(r.Hour), r.Tool, r.Action, r.Calls, r.Errors, r.PromptTokens, r.CompletionTokens,
			r.DurationMS, r.UpstreamMS)
	})
}

const (
	rollupUpsert = `INSERT INTO usage_rollups (tenant_id, hour, tool, action, calls, errors, prompt_tokens,
		completion_tokens, duration_ms, upstream_ms) VALUES `
	rollupConflict = ` ON CONFLICT (tenant_id, hour, tool, action) DO UPDATE SET calls = usage_rollups.calls + excluded.calls,
		errors = usage_rollups.errors + excluded.errors, prompt_tokens = usage_rollups.prompt_tokens + excluded.prompt_tokens,
		completion_tokens = usage_rollups.completion_tokens + excluded.completion_tokens,
		duration_ms = usage_rollups.duration_ms + excluded.duration_ms, upstream_ms = usage_rollups.upstream_ms + excluded.upstream_ms`
)

// PutQuotaCounter stores one replica's counter of a tenant's period.
func (s *Store) PutQuotaCounter(ctx context.Context, c gtmgate.QuotaCounter) error {
	_, err := s.write.ExecContext(ctx, s.q(`INSERT INTO quota_counters (tenant_id, period_start, replica, calls, tokens,
		cost_micros, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tenant_id, period_start, replica) DO UPDATE SET
		calls = excluded.calls, tokens = excluded.tokens, cost_micros = excluded.cost_micros, updated_at = excluded.updated_at`),
		c.TenantID, s.t(c.PeriodStart), c.Replica, c.Calls, c.Tokens, c.CostMicros, s.t(s.now()))
	if err != nil {
		return s.fail("put quota counter", err)
	}
	return nil
}

// SumQuotaCounters adds up the counters of a tenant's period, but one replica's.
func (s *Store) SumQuotaCounters(ctx context.Context, tenantID string, periodStart time.Time, exceptReplica string) (gtmgate.QuotaCounter, error) {
	sum := gtmgate.QuotaCounter{TenantID: tenantID, PeriodStart: periodStart}
	err := s.read.QueryRowContext(ctx, s.q(`SELECT COALESCE(SUM(calls), 0), COALESCE(SUM(tokens), 0), COALESCE(SUM(cost_micros), 0)
		FROM quota_counters WHERE tenant_id = ? AND period_start = ? AND replica <> ?`), tenantID, s.t(periodStart), exceptReplica).
		Scan(&sum.Calls, &sum.Tokens, &sum.CostMicros)
	if err != nil { // an aggregate always has its row
		return sum, s.fail("sum quota counters", err)
	}
	return sum, nil
}
