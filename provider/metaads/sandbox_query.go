package metaads

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// presetDays are the date_preset values as (first, last) days before today.
var presetDays = map[string][2]int{"today": {0, 0}, "yesterday": {1, 1}, "last_3d": {3, 1}, "last_7d": {7, 1},
	"last_14d": {14, 1}, "last_28d": {28, 1}, "last_30d": {30, 1}, "last_90d": {90, 1}}

// dateRange reads time_range or date_preset (default last_30d).
func dateRange(form url.Values, today time.Time) (time.Time, time.Time, error) {
	if tr := form.Get("time_range"); tr != "" {
		var r struct{ Since, Until string }
		if err := json.Unmarshal([]byte(tr), &r); err != nil {
			return time.Time{}, time.Time{}, fmt.Errorf("Param time_range must be a JSON object with since and until")
		}
		since, err1 := time.Parse(time.DateOnly, r.Since)
		until, err2 := time.Parse(time.DateOnly, r.Until)
		if err1 != nil || err2 != nil || until.Before(since) {
			return time.Time{}, time.Time{}, fmt.Errorf("Param time_range has an invalid since or until")
		}
		return since, until, nil
	}
	p := form.Get("date_preset")
	if p == "" {
		p = "last_30d"
	}
	switch p {
	case "maximum": // Meta keeps 37 months of insights
		return today.AddDate(0, -37, 0), today, nil
	case "this_month":
		return today.AddDate(0, 0, 1-today.Day()), today, nil
	case "last_month":
		first := today.AddDate(0, 0, 1-today.Day())
		return first.AddDate(0, -1, 0), first.AddDate(0, 0, -1), nil
	case "this_quarter":
		q := time.Date(today.Year(), time.Month((int(today.Month())-1)/3*3+1), 1, 0, 0, 0, 0, time.UTC)
		return q, today, nil
	case "this_week_mon_today", "last_week_mon_sun":
		monday := today.AddDate(0, 0, -((int(today.Weekday()) + 6) % 7))
		if p == "this_week_mon_today" {
			return monday, today, nil
		}
		return monday.AddDate(0, 0, -7), monday.AddDate(0, 0, -1), nil
	}
	d, ok := presetDays[p]
	if !ok {
		return time.Time{}, time.Time{}, fmt.Errorf("Param date_preset must be one of {today, yesterday, this_month, last_month, this_quarter, maximum, last_3d, last_7d, last_14d, last_28d, last_30d, last_90d, last_week_mon_sun, this_week_mon_today}")
	}
	return today.AddDate(0, 0, -d[0]), today.AddDate(0, 0, -d[1]), nil
}

// buckets splits [since, until] by time_increment: all_days, monthly or N days.
func buckets(since, until time.Time, inc string) [][2]time.Time {
	var out [][2]time.Time
	switch n, err := strconv.Atoi(inc); {
	case inc == "" || inc == "all_days" || err != nil && inc != "monthly":
		return [][2]time.Time{{since, until}}
	case inc == "monthly":
		for d := since; !d.After(until); {
			end := d.AddDate(0, 1, 1-d.Day()).AddDate(0, 0, -1)
			out = append(out, [2]time.Time{d, minTime(end, until)})
			d = end.AddDate(0, 0, 1)
		}
	default:
		for d := since; !d.After(until); d = d.AddDate(0, 0, max(n, 1)) {
			out = append(out, [2]time.Time{d, minTime(d.AddDate(0, 0, max(n, 1)-1), until)})
		}
	}
	return out
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

type combo struct {
	values map[string]string
	weight float64
}

// combos returns every combination of breakdown values with its share.
func combos(breakdowns []string) []combo {
	out := []combo{{values: map[string]string{}, weight: 1}}
	for _, b := range breakdowns {
		var next []combo
		for _, c := range out {
			for _, v := range breakdownValues[b] {
				vals := map[string]string{b: v.value}
				for k, x := range c.values {
					vals[k] = x
				}
				next = append(next, combo{vals, c.weight * v.weight})
			}
		}
		out = next
	}
	return out
}

// sbFilter is one entry of the filtering parameter.
type sbFilter struct {
	Field    string `json:"field"`
	Operator string `json:"operator"`
	Value    any    `json:"value"`
}

var filterOperators = []string{"EQUAL", "NOT_EQUAL", "GREATER_THAN", "GREATER_THAN_OR_EQUAL", "LESS_THAN", "LESS_THAN_OR_EQUAL",
	"IN_RANGE", "NOT_IN_RANGE", "CONTAIN", "NOT_CONTAIN", "IN", "NOT_IN"}

func parseFiltering(s string) ([]sbFilter, error) {
	if s == "" {
		return nil, nil
	}
	var fs []sbFilter
	if err := json.Unmarshal([]byte(s), &fs); err != nil {
		return nil, fmt.Errorf("Param filtering must be an array of {field, operator, value}")
	}
	for _, f := range fs {
		if !slices.Contains(filterOperators, f.Operator) {
			return nil, fmt.Errorf("Filtering operator %s is invalid", f.Operator)
		}
		if attrKey(f.Field) == "" {
			return nil, fmt.Errorf("Filtering field %s is invalid", f.Field)
		}
	}
	return fs, nil
}

// attrKey maps a filtering field (campaign.name) to a row key (campaign_name).
func attrKey(field string) string {
	switch field {
	case "campaign.id", "campaign.name", "adset.id", "adset.name", "ad.id", "ad.name":
		return strings.Replace(field, ".", "_", 1)
	case "spend", "impressions", "clicks", "effective_status", "objective", "name", "id", "status":
		return field
	}
	return ""
}

// matches applies filters to an object's attributes and metrics.
func matches(attrs map[string]any, k counters, filters []sbFilter) bool {
	for _, f := range filters {
		var v any = attrs[attrKey(f.Field)]
		switch f.Field {
		case "spend":
			v = k.Spend
		case "impressions":
			v = k.Impressions
		case "clicks":
			v = k.Clicks
		}
		if !matchOne(v, f) {
			return false
		}
	}
	return true
}

func matchOne(v any, f sbFilter) bool {
	s := fmt.Sprint(v)
	list, _ := f.Value.([]any)
	in := slices.ContainsFunc(list, func(x any) bool { return fmt.Sprint(x) == s })
	a, okA := number(v)
	if x, ok := v.(float64); ok {
		a, okA = x, true
	}
	b, okB := number(fmt.Sprint(f.Value))
	num := func(cmp func(a, b float64) bool) bool { return okA && okB && cmp(a, b) }
	switch f.Operator {
	case "EQUAL":
		return s == fmt.Sprint(f.Value)
	case "NOT_EQUAL":
		return s != fmt.Sprint(f.Value)
	case "CONTAIN":
		return strings.Contains(strings.ToLower(s), strings.ToLower(fmt.Sprint(f.Value)))
	case "NOT_CONTAIN":
		return !strings.Contains(strings.ToLower(s), strings.ToLower(fmt.Sprint(f.Value)))
	case "IN":
		return in
	case "NOT_IN":
		return !in
	case "GREATER_THAN":
		return num(func(a, b float64) bool { return a > b })
	case "GREATER_THAN_OR_EQUAL":
		return num(func(a, b float64) bool { return a >= b })
	case "LESS_THAN":
		return num(func(a, b float64) bool { return a < b })
	case "LESS_THAN_OR_EQUAL":
		return num(func(a, b float64) bool { return a <= b })
	case "IN_RANGE", "NOT_IN_RANGE":
		lo, ok1 := number(fmt.Sprint(listAt(list, 0)))
		hi, ok2 := number(fmt.Sprint(listAt(list, 1)))
		inside := okA && ok1 && ok2 && a >= lo && a <= hi
		return inside == (f.Operator == "IN_RANGE")
	}
	return false
}

func listAt(l []any, i int) any {
	if i < len(l) {
		return l[i]
	}
	return nil
}

// writePage writes rows as one Graph API page using limit and after; self
// is the request path (/v26.0/act_…/insights) that paging.next repeats.
func writePage(w http.ResponseWriter, self string, rows []map[string]any, form url.Values) {
	limit, err := strconv.Atoi(form.Get("limit"))
	if err != nil || limit <= 0 {
		limit = 25
	}
	offset := 0
	if after := form.Get("after"); after != "" {
		b, err := base64.StdEncoding.DecodeString(after)
		n, err2 := strconv.Atoi(strings.TrimPrefix(string(b), "offset:"))
		if err != nil || err2 != nil || n < 0 || n > len(rows) {
			writeGraphError(w, 400, 100, "(#100) Invalid cursor: after")
			return
		}
		offset = n
	}
	end := min(offset+limit, len(rows))
	data := rows[offset:end]
	if data == nil {
		data = []map[string]any{}
	}
	out := map[string]any{"data": data}
	if len(data) > 0 {
		cur := func(n int) string { return base64.StdEncoding.EncodeToString([]byte("offset:" + strconv.Itoa(n))) }
		paging := map[string]any{"cursors": map[string]any{"before": cur(offset), "after": cur(end)}}
		if end < len(rows) {
			q := url.Values{}
			for k, v := range form {
				if k != "access_token" {
					q[k] = v
				}
			}
			q.Set("after", cur(end))
			paging["next"] = "https://graph.facebook.com" + self + "?" + q.Encode()
		}
		out["paging"] = paging
	}
	writeJSON(w, 200, out)
}
