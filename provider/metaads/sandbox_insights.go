package metaads

import (
	"fmt"
	"maps"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// sbEntity is one object at the requested insights level and its daily metrics.
type sbEntity struct {
	attrs map[string]any
	daily func(day time.Time) counters
}

func (s *Sandbox) insights(w http.ResponseWriter, a *sbAccount, version, self string, form url.Values) {
	today := s.now().UTC().Truncate(24 * time.Hour)
	fields := strings.Split(form.Get("fields"), ",")
	if msg := insightFieldsError(fields, version); msg != "" {
		writeGraphError(w, 400, 100, msg)
		return
	}
	since, until, err := dateRange(form, today)
	if err != nil {
		writeGraphError(w, 400, 100, "(#100) "+err.Error())
		return
	}
	var breakdowns []string
	if b := form.Get("breakdowns"); b != "" {
		breakdowns = strings.Split(b, ",")
	}
	for _, b := range breakdowns {
		if breakdownValues[b] == nil {
			// A breakdown of v26.0 (listParamError let it through) that
			// the sandbox has no delivery split for.
			writeGraphError(w, 400, 100, fmt.Sprintf("(#100) the sandbox does not model breakdown %s (it models %s)", b, strings.Join(slices.Sorted(maps.Keys(breakdownValues)), ", ")))
			return
		}
	}
	if len(breakdowns) > 0 && since.Before(today.AddDate(0, -reachMonths, 0)) {
		// Since 2025-06-10 Meta returns no reach for a breakdown query that
		// starts more than 13 months back (asynchronous reports still do).
		fields = slices.DeleteFunc(slices.Clone(fields), func(f string) bool { return f == "reach" })
	}
	ents, err := a.entities(form.Get("level"), today)
	if err != nil {
		writeGraphError(w, 400, 100, "(#100) "+err.Error())
		return
	}
	filters, err := parseFiltering(form.Get("filtering"))
	if err != nil {
		writeGraphError(w, 400, 100, "(#100) "+err.Error())
		return
	}
	var rows []map[string]any
	for _, e := range ents {
		for _, bucket := range buckets(since, until, form.Get("time_increment")) {
			var sum counters
			for d := bucket[0]; !d.After(bucket[1]); d = d.AddDate(0, 0, 1) {
				sum = sum.add(e.daily(d))
			}
			for _, combo := range combos(breakdowns) {
				k := sum.scale(combo.weight)
				if math.Round(k.Impressions) == 0 {
					continue
				}
				row := a.insightRow(e, k, fields)
				row["date_start"], row["date_stop"] = bucket[0].Format(time.DateOnly), bucket[1].Format(time.DateOnly)
				for b, v := range combo.values {
					row[b] = v
				}
				if matches(e.attrs, k, filters) {
					rows = append(rows, row)
				}
			}
		}
	}
	writePage(w, self, rows, form)
}

// insightFieldsError is Graph's message for requested fields that do not
// exist in version, or "" when all do.
func insightFieldsError(fields []string, version string) string {
	var unknown []string
	removed := map[string][]string{} // removing version → fields
	for _, f := range fields {
		in, gone := removedInsightFields[f]
		switch {
		case gone && majorVersion(version) >= majorVersion(in):
			removed[in] = append(removed[in], f)
		case !gone && !slices.Contains(graphInsightsFields, f):
			unknown = append(unknown, f)
		}
	}
	are := func(list []string) string {
		if len(list) == 1 {
			return list[0] + " is"
		}
		return strings.Join(list, ", ") + " are"
	}
	if len(unknown) > 0 {
		return "(#100) " + are(unknown) + " not valid for fields param. please check https://developers.facebook.com/docs/marketing-api/reference/ads-insights/ for all valid values"
	}
	for _, in := range slices.Sorted(maps.Keys(removed)) {
		return "(#100) " + are(removed[in]) + " not valid for fields param after V" + strings.TrimPrefix(in, "v")
	}
	return ""
}

// insightRow formats counters the way Meta does: numbers as strings.
func (a *sbAccount) insightRow(e sbEntity, k counters, fields []string) map[string]any {
	spendFmt := "%.2f"
	if minorPerUnit(a.Currency) == 1 {
		spendFmt = "%.0f"
	}
	imps, clicks := math.Round(k.Impressions), math.Round(k.Clicks)
	all := map[string]any{"impressions": strconv.FormatFloat(imps, 'f', 0, 64), "clicks": strconv.FormatFloat(clicks, 'f', 0, 64),
		"spend": fmt.Sprintf(spendFmt, k.Spend), "reach": strconv.FormatFloat(math.Round(imps/1.7), 'f', 0, 64),
		"frequency": fmt.Sprintf("%.6f", 1.7), "ctr": fmt.Sprintf("%.6f", 100*clicks/imps), "cpm": fmt.Sprintf("%.6f", k.Spend/imps*1000)}
	if clicks > 0 {
		all["cpc"] = fmt.Sprintf("%.6f", k.Spend/clicks)
	}
	var actions []any
	if clicks > 0 {
		actions = append(actions, map[string]any{"action_type": "link_click", "value": strconv.FormatFloat(clicks, 'f', 0, 64)})
	}
	if l := math.Round(k.Leads); l > 0 {
		actions = append(actions, map[string]any{"action_type": "lead", "value": strconv.FormatFloat(l, 'f', 0, 64)})
	}
	if actions != nil {
		all["actions"] = actions
	}
	for key, v := range e.attrs {
		all[key] = v
	}
	row := map[string]any{}
	for _, f := range fields {
		if v, ok := all[f]; ok {
			row[f] = v
		}
	}
	return row
}

// entities returns the objects of an insights level.
func (a *sbAccount) entities(level string, today time.Time) ([]sbEntity, error) {
	base := map[string]any{"account_id": a.ID, "account_name": a.Name, "account_currency": a.Currency}
	with := func(kv ...string) map[string]any {
		m := map[string]any{}
		for k, v := range base {
			m[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	share := func(c *sbCampaign, w float64) func(time.Time) counters {
		return func(d time.Time) counters { return c.daily(d, today).scale(w) }
	}
	var out []sbEntity
	switch level {
	case "", "account":
		out = append(out, sbEntity{base, func(d time.Time) counters {
			var sum counters
			for _, c := range a.Campaigns {
				sum = sum.add(c.daily(d, today))
			}
			return sum
		}})
	case "campaign":
		for _, c := range a.Campaigns {
			out = append(out, sbEntity{with("campaign_id", c.ID, "campaign_name", c.Name, "objective", c.Objective), share(c, 1)})
		}
	case "adset":
		for _, s := range a.AdSets {
			out = append(out, sbEntity{with("campaign_id", s.Campaign.ID, "campaign_name", s.Campaign.Name, "adset_id", s.ID, "adset_name", s.Name), share(s.Campaign, s.weight)})
		}
	case "ad":
		for _, d := range a.Ads {
			c := d.AdSet.Campaign
			out = append(out, sbEntity{with("campaign_id", c.ID, "campaign_name", c.Name, "adset_id", d.AdSet.ID, "adset_name", d.AdSet.Name,
				"ad_id", d.ID, "ad_name", d.Name), share(c, d.AdSet.weight*d.weight)})
		}
	default:
		return nil, fmt.Errorf("Param level must be one of {ad, adset, campaign, account}")
	}
	return out, nil
}
