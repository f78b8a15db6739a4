package googleads

import (
	"encoding/base64"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate/provider/apispec"
)

// search answers googleAds:search.
func (s *Sandbox) search(rep sbReply, c *sbCustomer, body map[string]any) {
	if _, ok := body["pageSize"]; ok {
		rep.googleError(http.StatusBadRequest, "INVALID_ARGUMENT", "Request contains an invalid argument.", "requestError",
			"PAGE_SIZE_NOT_SUPPORTED", "Setting the page size is not supported. Search Responses will have fixed page size of '10000' rows.")
		return
	}
	query, _ := body["query"].(string)
	rows, fields, err := s.evaluate(c, query)
	if err != nil {
		code := "UNEXPECTED_INPUT"
		if qe, ok := err.(*queryError); ok {
			code = qe.code
		}
		rep.googleError(http.StatusBadRequest, "INVALID_ARGUMENT", "Request contains an invalid argument.", "queryError", code, err.Error())
		return
	}
	offset := 0
	if tok, _ := body["pageToken"].(string); tok != "" {
		b, err := base64.StdEncoding.DecodeString(tok)
		n, err2 := strconv.Atoi(strings.TrimPrefix(string(b), "offset:"))
		if err != nil || err2 != nil || n < 0 || n > len(rows) || !strings.HasPrefix(string(b), "offset:") {
			rep.googleError(http.StatusBadRequest, "INVALID_ARGUMENT", "Request contains an invalid argument.", "requestError",
				"INVALID_PAGE_TOKEN", "Page token is invalid.")
			return
		}
		offset = n
	}
	end := min(offset+max(s.PageSize, 1), len(rows))
	mask := make([]string, len(fields))
	for i, f := range fields {
		mask[i] = apispec.ProtoJSONName(f)
	}
	out := map[string]any{"fieldMask": strings.Join(mask, ",")}
	if end > offset {
		results := make([]any, 0, end-offset)
		for _, r := range rows[offset:end] {
			results = append(results, encodeRow(r, fields))
		}
		out["results"] = results
	}
	if end < len(rows) {
		out["nextPageToken"] = base64.StdEncoding.EncodeToString([]byte("offset:" + strconv.Itoa(end)))
	}
	rep.json(http.StatusOK, out)
}

// evaluate runs a GAQL query against c: rows keyed by field path, and the selected fields.
func (s *Sandbox) evaluate(c *sbCustomer, query string) ([]map[string]any, []string, error) {
	q, err := parseGAQL(query)
	if err != nil {
		return nil, nil, err
	}
	today := s.now().UTC().Truncate(24 * time.Hour)
	ents, ok := c.entities(q.Resource, today)
	if q.Resource == "customer_client" {
		ents, ok = s.customerClients(c), true
	}
	if !ok {
		return nil, nil, qerr("BAD_RESOURCE_TYPE_IN_FROM_CLAUSE", "Error in query: invalid resource type %q in the FROM clause.", q.Resource)
	}
	known := c.knownFields(q.Resource)
	used := slices.Clone(q.Fields)
	for _, w := range q.Where {
		used = append(used, w.Field)
	}
	for _, o := range q.OrderBy {
		used = append(used, o.Field)
	}
	withMetrics := false
	for i, f := range used {
		if !known[f] {
			return nil, nil, unknownField(c, q.Resource, f, i < len(q.Fields))
		}
		withMetrics = withMetrics || strings.HasPrefix(f, "metrics.") || strings.HasPrefix(f, "segments.")
	}
	for _, w := range q.Where {
		if err := checkEnumConstants(w); err != nil {
			return nil, nil, err
		}
	}
	var pre, post []gaqlCond
	for _, w := range q.Where {
		if strings.HasPrefix(w.Field, "metrics.") {
			post = append(post, w)
		} else {
			pre = append(pre, w)
		}
	}
	var rows []map[string]any
	if !withMetrics {
		for _, e := range ents {
			if ok, err := matchAll(e.attrs, pre, today); err != nil {
				return nil, nil, err
			} else if ok {
				rows = append(rows, e.attrs)
			}
		}
	} else if rows, err = aggregate(ents, q, pre, today); err != nil {
		return nil, nil, err
	}
	var kept []map[string]any
	for _, r := range rows {
		if ok, err := matchAll(r, post, today); err != nil {
			return nil, nil, err
		} else if ok {
			kept = append(kept, r)
		}
	}
	sortRows(kept, q.OrderBy)
	if q.Limit > 0 && len(kept) > q.Limit {
		kept = kept[:q.Limit]
	}
	return kept, q.Fields, nil
}

// unknownField is Google's error for field f, which resource cannot use:
// a metric of a resource without metrics, a field of a resource that is not
// attributed to resource (customer.* from a constant), or no field at all.
func unknownField(c *sbCustomer, resource, f string, inSelect bool) error {
	res, _, _ := strings.Cut(f, ".")
	switch {
	case res == "metrics" && !metricResources[resource]:
		return qerr("PROHIBITED_METRIC_IN_SELECT_OR_WHERE_CLAUSE", "Error in query: metric %s cannot be used with resource %s.", f, resource)
	case res == "segments" && !metricResources[resource]:
		return qerr("PROHIBITED_SEGMENT_IN_SELECT_OR_WHERE_CLAUSE", "Error in query: segment %s cannot be used with resource %s.", f, resource)
	case res != "metrics" && res != "segments" && c.knownFields(res)[f]:
		code := "PROHIBITED_RESOURCE_TYPE_IN_SELECT_CLAUSE"
		if !inSelect {
			code = "PROHIBITED_RESOURCE_TYPE_IN_WHERE_CLAUSE"
		}
		return qerr(code, "Error in query: cannot select or filter on '%s': resource '%s' is not compatible with the resource in the FROM clause, '%s'.", f, res, resource)
	}
	return qerr("UNRECOGNIZED_FIELD", "Unrecognized field in the query: '%s'.", f)
}

// checkEnumConstants refuses a condition comparing an ENUM field with a
// value that is not one of its constants in the spec's version, as Google
// does (BAD_ENUM_CONSTANT): a typo would otherwise match no row.
func checkEnumConstants(c gaqlCond) error {
	f := gaqlFields[c.Field]
	if f.DataType != "ENUM" || !slices.Contains([]string{"=", "!=", "IN", "NOT_IN"}, c.Op) {
		return nil
	}
	for _, v := range c.Values {
		if s, ok := v.(string); !ok || !slices.Contains(f.EnumValues, s) {
			return qerr("BAD_ENUM_CONSTANT", "Error in query: invalid enum constant %v for field %s.", v, c.Field)
		}
	}
	return nil
}

// aggregate expands entities into days, keeps the days matching pre, and sums
// them per entity (and per day when segments.date is selected).
func aggregate(ents []sbEntity, q *gaqlQuery, pre []gaqlCond, today time.Time) ([]map[string]any, error) {
	byDay := slices.Contains(q.Fields, "segments.date")
	var rows []map[string]any
	for _, e := range ents {
		var sum counters
		matched := false
		for ago := 90; ago >= 1; ago-- {
			day := today.AddDate(0, 0, -ago)
			r := copyAttrs(e.attrs)
			r["segments.date"] = day.Format(time.DateOnly)
			ok, err := matchAll(r, pre, today)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			k := e.daily(day)
			matched = true
			if byDay {
				if k.Impressions > 0 || k.CostMicros > 0 {
					rows = append(rows, withMetricValues(r, k))
				}
				continue
			}
			sum = sum.add(k)
		}
		if !byDay && matched {
			rows = append(rows, withMetricValues(copyAttrs(e.attrs), sum))
		}
	}
	return rows, nil
}

func copyAttrs(m map[string]any) map[string]any {
	out := make(map[string]any, len(m)+len(metricFields)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// withMetricValues sets the metric fields of r from k, derived ratios included.
func withMetricValues(r map[string]any, k counters) map[string]any {
	r["metrics.impressions"], r["metrics.clicks"], r["metrics.cost_micros"] = k.Impressions, k.Clicks, k.CostMicros
	r["metrics.conversions"], r["metrics.conversions_value"] = k.Conversions, k.ConversionsValue
	ratio := func(a, b float64) float64 {
		if b == 0 {
			return 0
		}
		return a / b
	}
	r["metrics.ctr"] = ratio(float64(k.Clicks), float64(k.Impressions))
	r["metrics.average_cpc"] = ratio(float64(k.CostMicros), float64(k.Clicks))
	r["metrics.average_cpm"] = ratio(float64(k.CostMicros)*1000, float64(k.Impressions))
	r["metrics.cost_per_conversion"] = ratio(float64(k.CostMicros), k.Conversions)
	r["metrics.active_view_impressions"], r["metrics.video_trueview_views"] = k.Viewable, k.Views
	// Like average_cpc, these averages are micros without a _micros suffix.
	r["metrics.active_view_cpm"] = ratio(float64(k.CostMicros)*1000, float64(k.Viewable))
	r["metrics.trueview_average_cpv"] = ratio(float64(k.CostMicros), float64(k.Views))
	return r
}
