package ga4

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// span selects facts whose first column (date or minutesAgo) index lies in
// [from, to]; with several spans, rows carry a dateRange column named after each.
type span struct {
	name     string
	from, to int
}

// query is a decoded report request against one table.
type query struct {
	dims, metrics           []string
	dimFilter, metricFilter *FilterExpression
	orderBys                []orderBy
	offset, limit           int
	spans                   []span
	rangeColumn             string
}

type aggRow struct {
	dims    []string
	sums    [nBase]float64
	metrics []float64
}

// run answers q from t with the metrics of cat, or returns the 400 message.
func (t *table) run(cat *catalog, q *query) (*reportResponse, error) {
	if len(q.spans) > 1 && !slices.Contains(q.dims, q.rangeColumn) {
		// The API adds the range column itself when several ranges are compared.
		q.dims = append(q.dims, q.rangeColumn)
	}
	cols := make([]int, len(q.dims))
	for i, d := range q.dims {
		cols[i] = slices.Index(t.columns, d)
		if d == q.rangeColumn && len(q.spans) > 1 {
			cols[i] = -1
		} else if cols[i] < 0 || !cat.hasDimension(d) {
			return nil, fmt.Errorf("Field %s is not a valid dimension. For a list of valid dimensions and metrics, see https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema", d)
		}
	}
	defs := make([]metricDef, len(q.metrics))
	for i, m := range q.metrics {
		def, ok := cat.metric(m)
		if !ok {
			return nil, fmt.Errorf("Field %s is not a valid metric. For a list of valid dimensions and metrics, see https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema", m)
		}
		defs[i] = def
	}
	var mt matcher
	if err := mt.check(q.dimFilter, func(f string) bool { return slices.Contains(t.columns, f) && cat.hasDimension(f) }, "dimension"); err != nil {
		return nil, err
	}
	if err := mt.check(q.metricFilter, func(f string) bool { _, ok := cat.metric(f); return ok }, "metric"); err != nil {
		return nil, err
	}
	groups := map[string]*aggRow{}
	var order []string
	for _, sp := range q.spans {
		for i := range t.facts {
			f := &t.facts[i]
			if int(f.dims[0]) < sp.from || int(f.dims[0]) > sp.to {
				continue
			}
			get := func(name string) string { c := slices.Index(t.columns, name); return t.values[c][f.dims[c]] }
			if !mt.match(q.dimFilter, get) {
				continue
			}
			vals := make([]string, len(cols))
			for j, c := range cols {
				if c < 0 {
					vals[j] = sp.name
				} else {
					vals[j] = t.values[c][f.dims[c]]
				}
			}
			key := strings.Join(vals, "\x00")
			g, ok := groups[key]
			if !ok {
				g = &aggRow{dims: vals}
				groups[key] = g
				order = append(order, key)
			}
			for k := range nBase {
				g.sums[k] += f.v[k]
			}
		}
	}
	var rows []*aggRow
	for _, key := range order {
		g := groups[key]
		get := func(name string) string {
			def, _ := cat.metric(name)
			return strconv.FormatFloat(def.compute(&g.sums), 'f', -1, 64)
		}
		if !mt.match(q.metricFilter, get) {
			continue
		}
		g.metrics = make([]float64, len(defs))
		for i, d := range defs {
			g.metrics[i] = d.compute(&g.sums)
		}
		rows = append(rows, g)
	}
	if err := sortRows(rows, q); err != nil {
		return nil, err
	}
	resp := &reportResponse{RowCount: len(rows), Kind: "analyticsData#runReport"}
	for _, d := range q.dims {
		resp.DimensionHeaders = append(resp.DimensionHeaders, dimensionHeader{Name: d})
	}
	for _, d := range defs {
		resp.MetricHeaders = append(resp.MetricHeaders, metricHeader{Name: d.APIName, Type: d.Type})
	}
	end := min(len(rows), q.offset+q.limit)
	for _, g := range rows[min(q.offset, len(rows)):end] {
		var r row
		for _, v := range g.dims {
			r.DimensionValues = append(r.DimensionValues, value{v})
		}
		for i, v := range g.metrics {
			r.MetricValues = append(r.MetricValues, value{formatMetric(v, defs[i].Type)})
		}
		resp.Rows = append(resp.Rows, r)
	}
	return resp, nil
}

// sortRows applies orderBys; without any, the first metric descending.
func sortRows(rows []*aggRow, q *query) error {
	type key struct {
		dim, metric int
		desc        bool
		numeric     bool
	}
	var keys []key
	for _, o := range q.orderBys {
		switch {
		case o.Metric != nil:
			i := slices.Index(q.metrics, o.Metric.MetricName)
			if i < 0 {
				return fmt.Errorf("Field %s in orderBys is not a metric of the request", o.Metric.MetricName)
			}
			keys = append(keys, key{dim: -1, metric: i, desc: o.Desc})
		case o.Dimension != nil:
			i := slices.Index(q.dims, o.Dimension.DimensionName)
			if i < 0 {
				return fmt.Errorf("Field %s in orderBys is not a dimension of the request", o.Dimension.DimensionName)
			}
			keys = append(keys, key{dim: i, metric: -1, desc: o.Desc, numeric: o.Dimension.OrderType == "NUMERIC"})
		default:
			return fmt.Errorf("Invalid orderBys: set metric or dimension")
		}
	}
	if len(keys) == 0 && len(q.metrics) > 0 {
		keys = append(keys, key{dim: -1, metric: 0, desc: true})
	}
	slices.SortStableFunc(rows, func(a, b *aggRow) int {
		for _, k := range keys {
			var c int
			switch {
			case k.metric >= 0:
				c = cmp.Compare(a.metrics[k.metric], b.metrics[k.metric])
			case k.numeric:
				x, _ := strconv.ParseFloat(a.dims[k.dim], 64)
				y, _ := strconv.ParseFloat(b.dims[k.dim], 64)
				c = cmp.Compare(x, y)
			default:
				c = strings.Compare(a.dims[k.dim], b.dims[k.dim])
			}
			if k.desc {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return slices.Compare(a.dims, b.dims)
	})
	return nil
}

func formatMetric(v float64, typ string) string {
	switch typ {
	case "TYPE_INTEGER":
		return strconv.FormatInt(int64(math.Round(v)), 10)
	case "TYPE_CURRENCY":
		return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64)
	}
	return strconv.FormatFloat(math.Round(v*1e6)/1e6, 'f', -1, 64)
}
