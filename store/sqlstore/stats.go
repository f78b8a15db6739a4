package sqlstore

import (
	"context"
	"time"

	"github.com/gtmgate/gtmgate"
)

// statsWindows are the windows of AuditStats, shortest first.
var statsWindows = []struct {
	name string
	d    time.Duration
}{
	{"24h", 24 * time.Hour},
	{"7d", 7 * 24 * time.Hour},
	{"30d", 30 * 24 * time.Hour},
}

// AuditStats counts the audit entries in (now-window, now] for the windows
// 24h, 7d and 30d: totals, errors (outcomes error and denied; a call pending
// approval is not an error) and error rates, overall and by tenant, source
// and action. Entries without a tenant count in the totals but not by tenant.
//
// One GROUP BY query over the 30 days aggregates per (tenant, source,
// action) with a conditional count per window; the few resulting groups are
// rolled up here.
func (s *Store) AuditStats(ctx context.Context, now time.Time) (*gtmgate.AuditStats, error) {
	now = now.UTC().Truncate(time.Microsecond)
	const errCase = "CASE WHEN outcome IN ('error', 'denied') THEN 1 ELSE 0 END"
	q := "SELECT tenant_id, source, action"
	var args []any
	for _, w := range statsWindows[:len(statsWindows)-1] {
		q += ", SUM(CASE WHEN time > ? THEN 1 ELSE 0 END), SUM(CASE WHEN time > ? THEN " + errCase + " ELSE 0 END)"
		since := s.t(now.Add(-w.d))
		args = append(args, since, since)
	}
	q += ", COUNT(*), SUM(" + errCase + ") FROM audit_log WHERE time > ? AND time <= ? GROUP BY tenant_id, source, action"
	args = append(args, s.t(now.Add(-statsWindows[len(statsWindows)-1].d)), s.t(now))

	st := &gtmgate.AuditStats{GeneratedAt: now, Windows: map[string]gtmgate.AuditWindow{}}
	for _, w := range statsWindows {
		st.Windows[w.name] = gtmgate.AuditWindow{
			Since:    now.Add(-w.d),
			ByTenant: map[string]gtmgate.AuditCounts{},
			BySource: map[string]gtmgate.AuditCounts{},
			ByAction: map[string]gtmgate.AuditCounts{},
		}
	}
	rows, err := s.read.QueryContext(ctx, s.q(q), args...)
	if err != nil {
		return nil, s.fail("audit stats", err)
	}
	defer rows.Close()
	counts := make([]int64, 2*len(statsWindows))
	dest := make([]any, 3+len(counts))
	var tenant, source, action string
	dest[0], dest[1], dest[2] = &tenant, &source, &action
	for i := range counts {
		dest[3+i] = &counts[i]
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, s.fail("audit stats", err)
		}
		for i, w := range statsWindows {
			total, errs := counts[2*i], counts[2*i+1]
			if total == 0 {
				continue
			}
			win := st.Windows[w.name]
			win.Total += total
			win.Errors += errs
			if tenant != "" {
				win.ByTenant[tenant] = addCounts(win.ByTenant[tenant], total, errs)
			}
			win.BySource[source] = addCounts(win.BySource[source], total, errs)
			win.ByAction[action] = addCounts(win.ByAction[action], total, errs)
			st.Windows[w.name] = win
		}
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail("audit stats", err)
	}
	for name, win := range st.Windows {
		win.ErrorRate = rate(win.Errors, win.Total)
		st.Windows[name] = win
	}
	return st, nil
}

func addCounts(c gtmgate.AuditCounts, total, errs int64) gtmgate.AuditCounts {
	c.Total += total
	c.Errors += errs
	c.ErrorRate = rate(c.Errors, c.Total)
	return c
}

func rate(errs, total int64) float64 {
	if total == 0 {
		return 0
	}
	return float64(errs) / float64(total)
}
