package console

import (
	"cmp"
	"fmt"
	"html/template"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// overviewRanges are the overview's windows: the audit statistics' own,
// and the days of usage each covers.
var overviewRanges = []struct {
	Key  string
	Days int
}{{"24h", 2}, {"7d", 7}, {"30d", 30}}

// maxOverviewTenants bounds the usage reads of one overview.
const maxOverviewTenants = 100

// dayFigures are one day's calls, errors and highest tenant p95.
type dayFigures struct {
	Day         string
	Calls, Errs int64
	P95MS       float64
}

func (c *Console) overview(w http.ResponseWriter, r *http.Request, _ *session) {
	rng := r.URL.Query().Get("range")
	days := 0
	for _, o := range overviewRanges {
		if o.Key == rng {
			days = o.Days
		}
	}
	if days == 0 {
		rng, days = "7d", 7
	}
	f := &fetch{c: c, r: r}
	var stats struct {
		Windows map[string]obj
	}
	f.get("/admin/audit/stats", &stats)
	var tenants struct{ Tenants []obj }
	f.get("/admin/tenants", &tenants)

	today := c.opts.Now().UTC().Truncate(24 * time.Hour)
	from := today.AddDate(0, 0, -(days - 1))
	series := make([]dayFigures, 0, days)
	byDay := make(map[string]*dayFigures, days)
	for d := from; !d.After(today); d = d.AddDate(0, 0, 1) {
		series = append(series, dayFigures{Day: d.Format(time.DateOnly)})
	}
	for i := range series {
		byDay[series[i].Day] = &series[i]
	}
	type tenantCost struct {
		Tenant, Currency string
		Cost             float64
	}
	var costs []tenantCost
	for i, t := range tenants.Tenants {
		if i == maxOverviewTenants {
			break
		}
		id := anyString(t["id"])
		var u struct {
			ByDay []struct {
				Day    string
				Calls  int64
				Errors int64
				P95    float64 `json:"upstream_latency_p95_ms"`
			} `json:"by_day"`
			Billing struct {
				Currency string
				Totals   struct{ Cost float64 }
			}
		}
		q := url.Values{"from": {from.Format(time.DateOnly)}, "to": {today.Format(time.DateOnly)}}
		if !f.get("/admin/usage/"+esc(id)+"?"+q.Encode(), &u) {
			continue
		}
		for _, d := range u.ByDay {
			if df := byDay[d.Day]; df != nil {
				df.Calls += d.Calls
				df.Errs += d.Errors
				df.P95MS = math.Max(df.P95MS, d.P95)
			}
		}
		if u.Billing.Totals.Cost > 0 {
			costs = append(costs, tenantCost{id, u.Billing.Currency, u.Billing.Totals.Cost})
		}
	}
	slices.SortFunc(costs, func(a, b tenantCost) int { return cmp.Compare(b.Cost, a.Cost) })

	var approvals struct{ Approvals []obj }
	f.get("/admin/approvals?status=pending&limit=1000", &approvals)
	var incidents struct{ Incidents []obj }
	f.get("/admin/incidents?status=open", &incidents)
	var health obj
	f.get("/admin/system-health", &health)

	calls := make([]bar, len(series))
	p95 := make([]bar, len(series))
	for i, d := range series {
		calls[i] = bar{Label: d.Day[5:], Value: float64(d.Calls), Part: float64(d.Errs)}
		p95[i] = bar{Label: d.Day[5:], Value: d.P95MS}
	}
	costBars := make([]bar, 0, len(costs))
	for i, ct := range costs {
		if i == 12 {
			break
		}
		costBars = append(costBars, bar{Label: ct.Tenant, Value: ct.Cost})
	}
	currency := ""
	if len(costs) > 0 {
		currency = costs[0].Currency
	}
	c.render(w, r, http.StatusOK, "overview", &page{Title: "Overview", Nav: "overview", Error: f.message(), Refresh: 60, Data: obj{
		"range": rng, "ranges": overviewRanges, "window": stats.Windows[rng],
		"callsChart": barChart("Calls per day, errors in the darker part", calls, ""),
		"p95Chart":   barChart("Highest tenant upstream p95 per day (ms)", p95, " ms"),
		"costChart":  barChart("Cost this billing period by tenant", costBars, " "+currency),
		"costs":      costs, "approvals": len(approvals.Approvals), "incidents": incidents.Incidents, "health": health,
	}})
}

// bar is one bar of a chart; Part is a highlighted share of it (errors of
// calls).
type bar struct {
	Label       string
	Value, Part float64
}

// barChart draws bars as an inline SVG that scales to its container; every
// bar carries its figure as a title (a tooltip, and text for screen
// readers). No script or style attribute: the page's CSP forbids both.
func barChart(title string, bars []bar, unit string) template.HTML {
	if len(bars) == 0 {
		return template.HTML(`<p class="empty">No data in this range.</p>`)
	}
	const w, h, top, bottom = 600.0, 180.0, 10.0, 30.0
	max := 0.0
	for _, b := range bars {
		max = math.Max(max, b.Value)
	}
	if max == 0 {
		max = 1
	}
	slot := w / float64(len(bars))
	bw := math.Max(1, slot*0.7)
	var sb strings.Builder
	fmt.Fprintf(&sb, `<svg class="chart" viewBox="0 0 %.0f %.0f" role="img" aria-label="%s" preserveAspectRatio="none">`, w, h, template.HTMLEscapeString(title))
	fmt.Fprintf(&sb, `<title>%s</title>`, template.HTMLEscapeString(title))
	fmt.Fprintf(&sb, `<line class="axis" x1="0" y1="%.0f" x2="%.0f" y2="%.0f"/>`, h-bottom, w, h-bottom)
	labelEvery := int(math.Ceil(float64(len(bars)) / 10))
	for i, b := range bars {
		x := float64(i)*slot + (slot-bw)/2
		bh := (h - top - bottom) * b.Value / max
		fmt.Fprintf(&sb, `<g><title>%s: %s%s</title>`, template.HTMLEscapeString(b.Label), figure(b.Value), template.HTMLEscapeString(unit))
		fmt.Fprintf(&sb, `<rect class="bar" x="%.1f" y="%.1f" width="%.1f" height="%.1f"/>`, x, h-bottom-bh, bw, bh)
		if b.Part > 0 {
			ph := (h - top - bottom) * b.Part / max
			fmt.Fprintf(&sb, `<rect class="bar-part" x="%.1f" y="%.1f" width="%.1f" height="%.1f"/>`, x, h-bottom-ph, bw, ph)
		}
		sb.WriteString(`</g>`)
		if i%labelEvery == 0 {
			// The first label starts at its bar rather than centring on it,
			// which would cut it at the chart's left edge.
			anchor, lx := "middle", x+bw/2
			if i == 0 {
				anchor, lx = "start", x
			}
			fmt.Fprintf(&sb, `<text class="label" x="%.1f" y="%.0f" text-anchor="%s">%s</text>`, lx, h-bottom+16, anchor, template.HTMLEscapeString(b.Label))
		}
	}
	fmt.Fprintf(&sb, `<text class="label" x="2" y="%.0f">%s%s</text>`, top+2, figure(max), template.HTMLEscapeString(unit))
	sb.WriteString(`</svg>`)
	return template.HTML(sb.String())
}

func figure(v float64) string {
	if v == math.Trunc(v) {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.2f", v)
}
