package searchconsole

import (
	"cmp"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"time"
)

// searchTypeScale is the share of web impressions each search type sees in
// the sandbox; types without data return no rows, as for a small B2B site.
var searchTypeScale = map[string]float64{"web": 1, "image": .04, "video": 0, "news": 0, "discover": 0, "googleNews": 0}

type group struct {
	keys                             []string
	clicks, impressions, positionSum float64
}

// answer runs a searchAnalytics.query over facts, or returns the 400 message.
func answer(facts []fact, req *queryRequest) (*queryResponse, error) {
	from, err1 := time.Parse(time.DateOnly, req.StartDate)
	to, err2 := time.Parse(time.DateOnly, req.EndDate)
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("Invalid value: startDate and endDate must be dates in YYYY-MM-DD format, got %q and %q", req.StartDate, req.EndDate)
	}
	if from.After(to) {
		return nil, fmt.Errorf("startDate must be earlier than or equal to endDate")
	}
	typ := cmp.Or(req.Type, "web")
	scale, ok := searchTypeScale[typ]
	if !ok {
		return nil, fmt.Errorf("Invalid value at 'type' (TYPE_ENUM), %q", typ)
	}
	for i, d := range req.Dimensions {
		if !slices.Contains(Dimensions, d) {
			return nil, fmt.Errorf("Invalid value at 'dimensions[%d]' (TYPE_ENUM), %q", i, d)
		}
	}
	match, err := compileFilters(req.DimensionFilterGroups)
	if err != nil {
		return nil, err
	}
	groups := map[string]*group{}
	var order []string
	for i := range facts {
		f := &facts[i]
		if f.date < req.StartDate || f.date > req.EndDate || !match(f) {
			continue
		}
		keys := make([]string, len(req.Dimensions))
		for j, d := range req.Dimensions {
			keys[j] = field(f, d)
		}
		if slices.Contains(req.Dimensions, "searchAppearance") && f.appearance == "" {
			continue
		}
		k := strings.Join(keys, "\x00")
		g, ok := groups[k]
		if !ok {
			g = &group{keys: keys}
			groups[k] = g
			order = append(order, k)
		}
		g.clicks += math.Round(f.clicks * scale)
		g.impressions += math.Round(f.impressions * scale)
		g.positionSum += f.positionSum * scale
	}
	var rows []apiRow
	for _, k := range order {
		g := groups[k]
		if g.impressions == 0 {
			continue
		}
		r := apiRow{Clicks: g.clicks, Impressions: g.impressions, CTR: g.clicks / g.impressions,
			Position: math.Round(g.positionSum/g.impressions*100) / 100}
		if len(req.Dimensions) > 0 {
			r.Keys = g.keys
		}
		rows = append(rows, r)
	}
	byDate := slices.Index(req.Dimensions, "date")
	slices.SortStableFunc(rows, func(a, b apiRow) int {
		if byDate >= 0 {
			if c := strings.Compare(a.Keys[byDate], b.Keys[byDate]); c != 0 {
				return c
			}
		}
		if c := cmp.Compare(b.Clicks, a.Clicks); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Impressions, a.Impressions); c != 0 {
			return c
		}
		return slices.Compare(a.Keys, b.Keys)
	})
	limit := req.RowLimit
	if limit <= 0 || limit > 25000 {
		limit = 1000
	}
	start := min(max(req.StartRow, 0), len(rows))
	resp := &queryResponse{Rows: rows[start:min(len(rows), start+limit)], ResponseAggregationType: aggregation(req)}
	return resp, nil
}

func field(f *fact, dim string) string {
	switch dim {
	case "query":
		return f.query
	case "page":
		return f.page
	case "country":
		return f.country
	case "device":
		return f.device
	case "date":
		return f.date
	}
	return f.appearance
}

// compileFilters returns a predicate for the groups (all filters ANDed).
func compileFilters(groups []filterGroup) (func(*fact) bool, error) {
	type test func(*fact) bool
	var tests []test
	for _, g := range groups {
		if g.GroupType != "" && g.GroupType != "and" {
			return nil, fmt.Errorf("Invalid value at 'dimension_filter_groups[0].group_type' (TYPE_ENUM), %q", g.GroupType)
		}
		for _, flt := range g.Filters {
			dim, expr := flt.Dimension, flt.Expression
			lower := strings.ToLower(expr)
			var t test
			switch cmp.Or(flt.Operator, "equals") {
			case "equals":
				t = func(f *fact) bool { return strings.EqualFold(field(f, dim), expr) }
			case "notEquals":
				t = func(f *fact) bool { return !strings.EqualFold(field(f, dim), expr) }
			case "contains":
				t = func(f *fact) bool { return strings.Contains(strings.ToLower(field(f, dim)), lower) }
			case "notContains":
				t = func(f *fact) bool { return !strings.Contains(strings.ToLower(field(f, dim)), lower) }
			case "includingRegex", "excludingRegex":
				re, err := regexp.Compile(expr)
				if err != nil {
					return nil, fmt.Errorf("Invalid regular expression %q: %v", expr, err)
				}
				include := flt.Operator == "includingRegex"
				t = func(f *fact) bool { return re.MatchString(field(f, dim)) == include }
			default:
				return nil, fmt.Errorf("Invalid value at 'dimension_filter_groups[0].filters[0].operator' (TYPE_ENUM), %q", flt.Operator)
			}
			tests = append(tests, t)
		}
	}
	return func(f *fact) bool {
		for _, t := range tests {
			if !t(f) {
				return false
			}
		}
		return true
	}, nil
}

func aggregation(req *queryRequest) string {
	if req.AggregationType != "" && req.AggregationType != "auto" {
		return req.AggregationType
	}
	if slices.Contains(req.Dimensions, "page") {
		return "byPage"
	}
	for _, g := range req.DimensionFilterGroups {
		for _, f := range g.Filters {
			if f.Dimension == "page" {
				return "byPage"
			}
		}
	}
	return "byProperty"
}
