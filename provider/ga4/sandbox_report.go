package ga4

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"time"

	"github.com/gtmgate/gtmgate/provider/googleapi"
)

// sandboxReportRequest is the subset of RunReportRequest the sandbox reads;
// other fields are refused the way the API refuses unknown ones.
type sandboxReportRequest struct {
	Property        string            `json:"property"`
	DateRanges      []dateRange       `json:"dateRanges"`
	MinuteRanges    []minuteRange     `json:"minuteRanges"`
	Dimensions      []named           `json:"dimensions"`
	Metrics         []named           `json:"metrics"`
	DimensionFilter *FilterExpression `json:"dimensionFilter"`
	MetricFilter    *FilterExpression `json:"metricFilter"`
	OrderBys        []orderBy         `json:"orderBys"`
	Offset          int64String       `json:"offset"`
	Limit           int64String       `json:"limit"`
	CurrencyCode    string            `json:"currencyCode"`
	KeepEmptyRows   bool              `json:"keepEmptyRows"`
}

func (req *sandboxReportRequest) query() *query {
	q := &query{dimFilter: req.DimensionFilter, metricFilter: req.MetricFilter, orderBys: req.OrderBys,
		offset: int(req.Offset), limit: int(req.Limit)}
	for _, d := range req.Dimensions {
		q.dims = append(q.dims, d.Name)
	}
	for _, m := range req.Metrics {
		q.metrics = append(q.metrics, m.Name)
	}
	if q.limit <= 0 || q.limit > 250000 {
		q.limit = 10000
	}
	return q
}

func (s *Sandbox) runReport(w http.ResponseWriter, r *http.Request, p *sandboxProperty) {
	var req sandboxReportRequest
	if !googleapi.DecodeJSON(w, r, &req) {
		return
	}
	if len(req.MinuteRanges) > 0 {
		googleapi.WriteError(w, http.StatusBadRequest, "Invalid JSON payload received. Unknown name \"minuteRanges\": Cannot find field.")
		return
	}
	if len(req.DateRanges) == 0 {
		googleapi.WriteError(w, http.StatusBadRequest, "Must specify at least one date range.")
		return
	}
	q := req.query()
	q.rangeColumn = "dateRange"
	for i, dr := range req.DateRanges {
		from, err1 := s.day(dr.StartDate)
		to, err2 := s.day(dr.EndDate)
		if err := firstErr(err1, err2); err != nil {
			googleapi.WriteError(w, http.StatusBadRequest, err.Error())
			return
		}
		if from.After(to) {
			googleapi.WriteError(w, http.StatusBadRequest, "The dateRange startDate must be before or equal to endDate.")
			return
		}
		name := dr.Name
		if name == "" {
			name = fmt.Sprintf("date_range_%d", i)
		}
		q.spans = append(q.spans, span{name: name, from: s.dayIndex(from), to: s.dayIndex(to)})
	}
	daily, _ := p.tables(s.today)
	s.answer(w, daily, reportCatalog, q, "analyticsData#runReport")
}

func (s *Sandbox) runRealtime(w http.ResponseWriter, r *http.Request, p *sandboxProperty) {
	var req sandboxReportRequest
	if !googleapi.DecodeJSON(w, r, &req) {
		return
	}
	if len(req.DateRanges) > 0 || req.Offset != 0 {
		googleapi.WriteError(w, http.StatusBadRequest, "Invalid JSON payload received. Unknown name \"dateRanges\" or \"offset\": Cannot find field.")
		return
	}
	q := req.query()
	q.rangeColumn = "minuteRange"
	if len(req.MinuteRanges) == 0 {
		q.spans = []span{{name: "date_range_0", from: 0, to: 29}}
	}
	for i, mr := range req.MinuteRanges {
		start, end := 29, 0
		if mr.StartMinutesAgo != nil {
			start = *mr.StartMinutesAgo
		}
		if mr.EndMinutesAgo != nil {
			end = *mr.EndMinutesAgo
		}
		if start < end || start > 29 || end < 0 {
			googleapi.WriteError(w, http.StatusBadRequest, "Invalid minuteRange: startMinutesAgo must be at least endMinutesAgo and at most 29 for standard properties.")
			return
		}
		name := mr.Name
		if name == "" {
			name = fmt.Sprintf("date_range_%d", i)
		}
		q.spans = append(q.spans, span{name: name, from: end, to: start})
	}
	_, realtime := p.tables(s.today)
	s.answer(w, realtime, realtimeCatalog, q, "analyticsData#runRealtimeReport")
}

func (s *Sandbox) answer(w http.ResponseWriter, t *table, cat *catalog, q *query, kind string) {
	if len(q.metrics) == 0 && len(q.dims) == 0 {
		googleapi.WriteError(w, http.StatusBadRequest, "Must specify at least one dimension or metric.")
		return
	}
	resp, err := t.run(cat, q)
	if err != nil {
		googleapi.WriteError(w, http.StatusBadRequest, err.Error())
		return
	}
	resp.Kind = kind
	if kind == "analyticsData#runReport" {
		resp.Metadata = &responseMetadata{CurrencyCode: "USD", TimeZone: "Etc/UTC"}
	}
	googleapi.WriteJSON(w, http.StatusOK, resp)
}

var daysAgo = regexp.MustCompile(`^([0-9]+)daysAgo$`)

// day resolves a report date relative to the sandbox's today.
func (s *Sandbox) day(v string) (time.Time, error) {
	switch v {
	case "today":
		return s.today, nil
	case "yesterday":
		return s.today.AddDate(0, 0, -1), nil
	}
	if m := daysAgo.FindStringSubmatch(v); m != nil {
		n, err := strconv.Atoi(m[1])
		if err == nil && n <= 36500 {
			return s.today.AddDate(0, 0, -n), nil
		}
	}
	t, err := time.Parse("2006-01-02", v)
	if err != nil {
		return time.Time{}, fmt.Errorf("Invalid date %q. Dates must be YYYY-MM-DD, NdaysAgo, yesterday, or today.", v)
	}
	return t, nil
}

// dayIndex is the index of t in the daily table's date column; dates outside
// the table give indexes outside it, which select no facts.
func (s *Sandbox) dayIndex(t time.Time) int {
	return sandboxDays - int(s.today.Sub(t).Hours()/24)
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
