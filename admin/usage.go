package admin

import (
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/billing"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// maxUsageDays bounds one usage query.
const maxUsageDays = 366

// UsageSummary is GET /admin/usage/{tenant_id}'s answer.
type UsageSummary struct {
	TenantID string `json:"tenant_id"`
	// Key, when asked for (?key=), is the one agent the summary covers.
	Key    string      `json:"key,omitempty"`
	From   string      `json:"from"`
	To     string      `json:"to"`
	Totals UsageCounts `json:"totals"`
	ByTool []UsageRow  `json:"by_tool"`
	ByDay  []UsageRow  `json:"by_day"`
	Rows   []UsageRow  `json:"by_tool_and_day"`
	Chat   []ChatUsage `json:"chat_by_model"`
	// ByHour groups by UTC hour, only when asked for (?by_hour=true): a
	// day's bars are too coarse for a chart of the last 24 hours.
	ByHour []UsageRow `json:"by_hour,omitempty"`
	// LatencyFrom, when set, is the first day whose raw usage events are
	// still kept (GTMGATE_RETAIN_USAGE_EVENTS): latency percentiles cover
	// from there on, counts and tokens the whole range, except for one
	// agent's summary, which comes from the raw events alone.
	LatencyFrom string `json:"latency_percentiles_from,omitempty"`
	// Billing prices the billing period (?period=YYYY-MM, the current one
	// by default) under the tenant's plan; nil for one agent's summary, as
	// a plan prices the tenant as a whole.
	Billing *billing.Statement `json:"billing"`
}

// UsageCounts are call counts with upstream latency percentiles.
type UsageCounts struct {
	Calls         int64   `json:"calls"`
	Errors        int64   `json:"errors"`
	UpstreamP50MS float64 `json:"upstream_latency_p50_ms"`
	UpstreamP95MS float64 `json:"upstream_latency_p95_ms"`
}

// UsageRow is one group of UsageCounts.
type UsageRow struct {
	Tool string `json:"tool,omitempty"`
	Day  string `json:"day,omitempty"`
	// Hour is the hour's start in RFC 3339, UTC.
	Hour string `json:"hour,omitempty"`
	UsageCounts
}

// ChatUsage sums chat tokens per model.
type ChatUsage struct {
	Model            string `json:"model"`
	Calls            int64  `json:"calls"`
	Errors           int64  `json:"errors"`
	PromptTokens     int64  `json:"prompt_tokens"`
	CompletionTokens int64  `json:"completion_tokens"`
	TotalTokens      int64  `json:"total_tokens"`
}

// usage serves GET /admin/usage/{tenant_id}?from=YYYY-MM-DD&to=YYYY-MM-DD
// (inclusive days, UTC; default the last 30 days) with the billing
// period's cost (?period=YYYY-MM), and by hour too with ?by_hour=true;
// Accept: text/csv exports the period's line items instead. ?key= sums
// one agent's calls instead, from the raw usage events, and prices them
// for the period as the tenant's plan does (its share, without quotas).
func (h *Handler) usage(w http.ResponseWriter, r *http.Request) {
	id, key := r.PathValue("tenant_id"), r.URL.Query().Get("key")
	csvExport := strings.Contains(r.Header.Get("Accept"), "text/csv")
	if key != "" && csvExport {
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EValidation, "key cannot be combined with Accept: text/csv: "+
			"the export is the billing period's line items, which a plan prices for the tenant as a whole").
			WithHint("leave out key for the export, or Accept: application/json for the agent's usage"))
		return
	}
	if _, err := h.tenant(r, id); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	h.flushRecorder(r)
	st, err := h.statement(r, id, key)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	if csvExport {
		writeCSV(w, st)
		return
	}
	today := h.opts.Now().UTC().Truncate(24 * time.Hour)
	from, to := today.AddDate(0, 0, -29), today
	if v := r.URL.Query().Get("from"); v != "" {
		if from, err = time.Parse(time.DateOnly, v); err != nil {
			jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EValidation, "from %q is not a date such as 2026-01-31", v))
			return
		}
	}
	if v := r.URL.Query().Get("to"); v != "" {
		if to, err = time.Parse(time.DateOnly, v); err != nil {
			jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EValidation, "to %q is not a date such as 2026-01-31", v))
			return
		}
	}
	if to.Before(from) || to.Sub(from) > maxUsageDays*24*time.Hour {
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EValidation, "from..to must be a range of at most %d days with from before to", maxUsageDays))
		return
	}
	q := gtmgate.UsageQuery{TenantID: id, From: from, To: to.AddDate(0, 0, 1)}
	var rollups []gtmgate.UsageRollup
	if key == "" {
		if rollups, err = h.opts.Store.ListUsageRollups(r.Context(), q); err != nil {
			jsonapi.WriteError(w, r, err)
			return
		}
	}
	// Percentiles need the raw events, which retention drops first.
	var latencyFrom string
	if kept := h.opts.UsageEventsKept; kept > 0 {
		if oldest := h.opts.Now().Add(-kept).UTC().Truncate(24*time.Hour).AddDate(0, 0, 1); oldest.After(q.From) {
			q.From, latencyFrom = oldest, oldest.Format(time.DateOnly)
		}
	}
	var events []gtmgate.UsageEvent
	if q.From.Before(q.To) {
		q.Key = key
		if events, err = h.opts.Store.ListUsage(r.Context(), q); err != nil {
			jsonapi.WriteError(w, r, err)
			return
		}
	}
	if key != "" {
		// Rollups are the tenant's as a whole: one agent's counts and
		// tokens come from its raw events.
		rollups = rollUp(events)
	}
	s := Summarize(rollups, events)
	if r.URL.Query().Get("by_hour") != "true" {
		s.ByHour = nil
	}
	s.TenantID, s.Key, s.From, s.To, s.Billing, s.LatencyFrom = id, key, from.Format(time.DateOnly), to.Format(time.DateOnly), st, latencyFrom
	jsonapi.Write(w, http.StatusOK, s)
}

// rollUp sums usage events into hourly rollups, as the store does when it
// writes them.
func rollUp(events []gtmgate.UsageEvent) []gtmgate.UsageRollup {
	type key struct {
		hour         time.Time
		tool, action string
	}
	at := map[key]int{}
	var out []gtmgate.UsageRollup
	for _, e := range events {
		k := key{e.Time.UTC().Truncate(time.Hour), e.Tool, e.Action}
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, gtmgate.UsageRollup{Hour: k.hour, TenantID: e.TenantID, Tool: e.Tool, Action: e.Action})
		}
		r := &out[i]
		r.Calls++
		if !e.OK {
			r.Errors++
		}
		r.PromptTokens += e.PromptTokens
		r.CompletionTokens += e.CompletionTokens
		r.DurationMS += e.DurationMS
		r.UpstreamMS += e.UpstreamMS
	}
	return out
}

type group struct {
	counts    UsageCounts
	latencies []float64
}

func (g *group) done() UsageCounts {
	sort.Float64s(g.latencies)
	g.counts.UpstreamP50MS = percentile(g.latencies, 0.50)
	g.counts.UpstreamP95MS = percentile(g.latencies, 0.95)
	return g.counts
}

// groups are the summary's groupings: by tool, by day, by both, by hour.
type groups struct {
	total                 group
	byTool, byDay, byHour map[string]*group
	byBoth                map[[2]string]*group
}

// each calls fn with every group a tool's use at t falls in.
func (gs *groups) each(tool string, t time.Time, fn func(*group)) {
	t = t.UTC()
	day, hour := t.Format(time.DateOnly), t.Truncate(time.Hour).Format(time.RFC3339)
	for _, g := range []*group{&gs.total, groupOf(gs.byTool, tool), groupOf(gs.byDay, day), groupOf(gs.byHour, hour),
		groupOf(gs.byBoth, [2]string{tool, day})} {
		fn(g)
	}
}

// groupOf returns m's group for k, adding an empty one the first time.
func groupOf[K comparable](m map[K]*group, k K) *group {
	g := m[k]
	if g == nil {
		g = &group{}
		m[k] = g
	}
	return g
}

// Summarize groups usage by tool, day, and tool and day, and chat by model.
// Counts and tokens come from the hourly rollups, which are kept for good;
// latency percentiles from the raw events still kept.
func Summarize(rollups []gtmgate.UsageRollup, events []gtmgate.UsageEvent) *UsageSummary {
	gs := &groups{byTool: map[string]*group{}, byDay: map[string]*group{}, byHour: map[string]*group{}, byBoth: map[[2]string]*group{}}
	chat := map[string]*ChatUsage{}
	for _, r := range rollups {
		if r.Tool == gtmgate.ChatUsageTool {
			c := chat[r.Action]
			if c == nil {
				c = &ChatUsage{Model: r.Action}
				chat[r.Action] = c
			}
			c.Calls += r.Calls
			c.Errors += r.Errors
			c.PromptTokens += r.PromptTokens
			c.CompletionTokens += r.CompletionTokens
			c.TotalTokens += r.PromptTokens + r.CompletionTokens
		}
		gs.each(r.Tool, r.Hour, func(g *group) {
			g.counts.Calls += r.Calls
			g.counts.Errors += r.Errors
		})
	}
	for _, e := range events {
		gs.each(e.Tool, e.Time, func(g *group) { g.latencies = append(g.latencies, e.UpstreamMS) })
	}
	s := &UsageSummary{Totals: gs.total.done(), ByTool: []UsageRow{}, ByDay: []UsageRow{}, ByHour: []UsageRow{}, Rows: []UsageRow{}, Chat: []ChatUsage{}}
	for k, g := range gs.byTool {
		s.ByTool = append(s.ByTool, UsageRow{Tool: k, UsageCounts: g.done()})
	}
	for k, g := range gs.byDay {
		s.ByDay = append(s.ByDay, UsageRow{Day: k, UsageCounts: g.done()})
	}
	for k, g := range gs.byHour {
		s.ByHour = append(s.ByHour, UsageRow{Hour: k, UsageCounts: g.done()})
	}
	for k, g := range gs.byBoth {
		s.Rows = append(s.Rows, UsageRow{Tool: k[0], Day: k[1], UsageCounts: g.done()})
	}
	for _, c := range chat {
		s.Chat = append(s.Chat, *c)
	}
	sort.Slice(s.ByTool, func(i, j int) bool { return s.ByTool[i].Tool < s.ByTool[j].Tool })
	sort.Slice(s.ByDay, func(i, j int) bool { return s.ByDay[i].Day < s.ByDay[j].Day })
	sort.Slice(s.ByHour, func(i, j int) bool { return s.ByHour[i].Hour < s.ByHour[j].Hour })
	sort.Slice(s.Rows, func(i, j int) bool {
		if s.Rows[i].Day != s.Rows[j].Day {
			return s.Rows[i].Day < s.Rows[j].Day
		}
		return s.Rows[i].Tool < s.Rows[j].Tool
	})
	sort.Slice(s.Chat, func(i, j int) bool { return s.Chat[i].Model < s.Chat[j].Model })
	return s
}

// percentile returns the nearest-rank percentile of sorted values.
func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(p*float64(len(sorted))+0.5) - 1
	if i < 0 {
		i = 0
	}
	if i >= len(sorted) {
		i = len(sorted) - 1
	}
	return sorted[i]
}
