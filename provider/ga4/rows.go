package ga4

import (
	"encoding/json"
	"regexp"
)

// Header names one report column and its type.
type Header struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// Report is the result of ga4_report and ga4_realtime.
type Report struct {
	Items            []map[string]any `json:"items"`
	DimensionHeaders []Header         `json:"dimension_headers"`
	MetricHeaders    []Header         `json:"metric_headers"`
	RowCount         int              `json:"row_count"`
	NextCursor       string           `json:"next_cursor,omitempty"`
	CurrencyCode     string           `json:"currency_code,omitempty"`
	TimeZone         string           `json:"time_zone,omitempty"`
}

// toReport turns the API's positional rows into objects keyed by column name,
// metric values as numbers.
func toReport(resp *reportResponse) *Report {
	r := &Report{Items: make([]map[string]any, 0, len(resp.Rows)), RowCount: resp.RowCount,
		DimensionHeaders: make([]Header, len(resp.DimensionHeaders)), MetricHeaders: make([]Header, len(resp.MetricHeaders))}
	for i, h := range resp.DimensionHeaders {
		r.DimensionHeaders[i] = Header{Name: h.Name, Type: "STRING"}
	}
	for i, h := range resp.MetricHeaders {
		r.MetricHeaders[i] = Header{Name: h.Name, Type: h.Type}
	}
	for _, row := range resp.Rows {
		obj := make(map[string]any, len(row.DimensionValues)+len(row.MetricValues))
		for i, v := range row.DimensionValues {
			if i < len(r.DimensionHeaders) {
				obj[r.DimensionHeaders[i].Name] = v.Value
			}
		}
		for i, v := range row.MetricValues {
			if i < len(r.MetricHeaders) {
				obj[r.MetricHeaders[i].Name] = metricValue(v.Value)
			}
		}
		r.Items = append(r.Items, obj)
	}
	if resp.Metadata != nil {
		r.CurrencyCode, r.TimeZone = resp.Metadata.CurrencyCode, resp.Metadata.TimeZone
	}
	return r
}

// metricValue keeps the API's decimal text exact as a JSON number, or the
// text itself when it is not a number.
func metricValue(s string) any {
	if !jsonNumber.MatchString(s) {
		return s
	}
	return json.Number(s)
}

var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)
