package console

import (
	"net/http"
	"time"
)

// overviewRange is one of the overview's ranges: its charts draw Buckets
// bars of Step each, the last one the bar now falls in, and its figures
// add up those bars.
type overviewRange struct {
	Key     string
	Buckets int
	Step    time.Duration
	// Span says, after "in", what the figures cover.
	Span string
}

// overviewRanges are the overview's ranges. A day's bar is too coarse for
// 24 hours, so that range draws hours.
var overviewRanges = []overviewRange{
	{"24h", 24, time.Hour, "the last 24 hours"},
	{"7d", 7, 24 * time.Hour, "the last 7 days (UTC)"},
	{"30d", 30, 24 * time.Hour, "the last 30 days (UTC)"},
}

// overviewRangeOf returns the range named key, 7d when there is none.
func overviewRangeOf(key string) overviewRange {
	for _, o := range overviewRanges {
		if o.Key == key {
			return o
		}
	}
	return overviewRanges[1]
}

// maxOverviewTenants bounds the usage reads of one overview.
const maxOverviewTenants = 100

func (c *Console) overview(w http.ResponseWriter, r *http.Request, s *session) {
	if s.actor.Operator() == "" {
		// A tenant's people start where their work is.
		http.Redirect(w, r, "/console/approvals", http.StatusSeeOther)
		return
	}
	rng := overviewRangeOf(r.URL.Query().Get("range"))
	f := &fetch{c: c, r: r}
	var tenants struct{ Tenants []obj }
	f.get("/admin/tenants", &tenants)
	u := c.usageOf(f, tenants.Tenants, rng)

	var approvals struct{ Approvals []obj }
	f.get("/admin/approvals?status=pending&limit=1000", &approvals)
	var incidents struct{ Incidents []obj }
	f.get("/admin/incidents?status=open", &incidents)
	var health obj
	f.get("/admin/system-health", &health)

	// The figures add up the calls chart's bars, so they count what it
	// counts: metered tool and chat calls, never admin or console requests.
	var calls, errs int64
	callBars := make([]bar, len(u.series))
	p95Bars := make([]bar, len(u.series))
	for i, b := range u.series {
		calls += b.Calls
		errs += b.Errs
		callBars[i] = bar{Label: b.Label, Value: float64(b.Calls), Part: float64(b.Errs)}
		p95Bars[i] = bar{Label: b.Label, Value: b.P95MS}
	}
	errorRate := 0.0
	if calls > 0 {
		errorRate = float64(errs) / float64(calls)
	}
	per := "day"
	if rng.Step == time.Hour {
		per = "hour"
	}
	costBars := make([]bar, 0, len(u.costs))
	for i, ct := range u.costs {
		if i == 12 {
			break
		}
		costBars = append(costBars, bar{Label: ct.Tenant, Value: ct.Cost})
	}
	currency := ""
	if len(u.costs) > 0 {
		currency = u.costs[0].Currency
	}
	c.render(w, r, http.StatusOK, "overview", &page{Title: "Overview", Nav: "overview", Error: f.message(), Refresh: 60, Data: obj{
		"range": rng.Key, "ranges": overviewRanges, "span": rng.Span, "per": per,
		"calls": calls, "errors": errs, "errorRate": errorRate,
		"callsChart": barChart("Tool and chat calls per "+per+", errors in the darker part", callBars, " calls"),
		"p95Chart":   barChart("Highest tenant upstream p95 per "+per+" (ms)", p95Bars, " ms"),
		"costChart":  barChart("Cost this billing period by tenant", costBars, " "+currency),
		"costs":      u.costs, "approvals": len(approvals.Approvals), "incidents": incidents.Incidents, "health": health,
	}})
}
