package console

import (
	"cmp"
	"math"
	"net/url"
	"slices"
	"time"
)

// bucket is one bar's worth of usage: an hour or a UTC day.
type bucket struct {
	Label       string
	Calls, Errs int64
	P95MS       float64 // the highest tenant's upstream p95
}

// tenantCost is a tenant's cost this billing period.
type tenantCost struct {
	Tenant, Currency string
	Cost             float64
}

// overviewUsage is the usage of every tenant the overview reads.
type overviewUsage struct {
	series []bucket
	costs  []tenantCost
}

// usageRow is a by_day or by_hour row of GET /admin/usage.
type usageRow struct {
	Day    string
	Hour   string
	Calls  int64
	Errors int64
	P95    float64 `json:"upstream_latency_p95_ms"`
}

// usageOf reads the tenants' usage over rng into its buckets (the admin
// API's usage by day, or by hour for an hourly range, ending with the
// bucket now falls in) and their costs, highest first.
func (c *Console) usageOf(f *fetch, tenants []obj, rng overviewRange) overviewUsage {
	last := c.opts.Now().UTC().Truncate(rng.Step)
	first := last.Add(-time.Duration(rng.Buckets-1) * rng.Step)
	hourly := rng.Step == time.Hour
	u := overviewUsage{series: make([]bucket, rng.Buckets)}
	byKey := make(map[string]*bucket, rng.Buckets)
	for i := range u.series {
		t := first.Add(time.Duration(i) * rng.Step)
		key, label := t.Format(time.DateOnly), t.Format("01-02")
		if hourly {
			key, label = t.Format(time.RFC3339), t.Format("15:04")
		}
		u.series[i].Label = label
		byKey[key] = &u.series[i]
	}
	q := url.Values{"from": {first.Format(time.DateOnly)}, "to": {last.Format(time.DateOnly)}}
	if hourly {
		q.Set("by_hour", "true")
	}
	for i, t := range tenants {
		if i == maxOverviewTenants {
			break
		}
		id := anyString(t["id"])
		var answer struct {
			ByDay   []usageRow `json:"by_day"`
			ByHour  []usageRow `json:"by_hour"`
			Billing struct {
				Currency string
				Totals   struct{ Cost float64 }
			}
		}
		if !f.get("/admin/usage/"+esc(id)+"?"+q.Encode(), &answer) {
			continue
		}
		rows, keyOf := answer.ByDay, func(r usageRow) string { return r.Day }
		if hourly {
			rows, keyOf = answer.ByHour, func(r usageRow) string { return r.Hour }
		}
		for _, row := range rows {
			// An hourly range's first day reaches back before its first
			// hour: those hours have no bucket.
			if b := byKey[keyOf(row)]; b != nil {
				b.Calls += row.Calls
				b.Errs += row.Errors
				b.P95MS = math.Max(b.P95MS, row.P95)
			}
		}
		if answer.Billing.Totals.Cost > 0 {
			u.costs = append(u.costs, tenantCost{id, answer.Billing.Currency, answer.Billing.Totals.Cost})
		}
	}
	slices.SortFunc(u.costs, func(a, b tenantCost) int { return cmp.Compare(b.Cost, a.Cost) })
	return u
}
