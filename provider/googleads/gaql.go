package googleads

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
)

// fieldPattern is what a GAQL resource or field path may look like; anything
// else is refused before it reaches a query.
var fieldPattern = regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*){0,5}$`)

// resourcePattern is a GAQL resource name (campaign, keyword_view…).
var resourcePattern = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)

// DatePresets are the GAQL date ranges usable with DURING.
var DatePresets = []string{"TODAY", "YESTERDAY", "LAST_7_DAYS", "LAST_14_DAYS", "LAST_30_DAYS",
	"LAST_BUSINESS_WEEK", "LAST_WEEK_MON_SUN", "LAST_WEEK_SUN_SAT", "THIS_WEEK_MON_TODAY",
	"THIS_WEEK_SUN_TODAY", "THIS_MONTH", "LAST_MONTH"}

// selectsCustomer are the FROM resources, among those the tools use or
// suggest, that can select customer.* fields. Each is customer-scoped (its
// resource name is customers/{customer_id}/…) and Google lists customer among
// its attributed resources. Constants (geo_target_constant,
// currency_constant, language_constant, google_ads_field…: resource names
// without customers/) have no attributed resources, and Google refuses
// customer.currency_code there with PROHIBITED_RESOURCE_TYPE_IN_SELECT_CLAUSE.
// A resource not listed gets no customer field; its currency comes from a
// second request instead.
var selectsCustomer = map[string]bool{"customer": true, "campaign": true, "campaign_budget": true,
	"ad_group": true, "ad_group_ad": true, "ad_group_criterion": true, "campaign_criterion": true,
	"keyword_view": true, "search_term_view": true}

// validField reports whether s is a safe GAQL field path.
func validField(s string) bool { return len(s) <= 128 && fieldPattern.MatchString(s) }

// checkRawQuery accepts a single GAQL SELECT … FROM … statement and nothing else.
func checkRawQuery(q string) error {
	toks, err := lexGAQL(q)
	if err != nil {
		return fmt.Errorf("query is not valid GAQL: %w", err)
	}
	if len(toks) == 0 || !toks[0].is("SELECT") {
		return fmt.Errorf("query must be a GAQL SELECT statement")
	}
	from := slices.IndexFunc(toks, func(t token) bool { return t.is("FROM") })
	if from < 2 || from+1 >= len(toks) || !resourcePattern.MatchString(toks[from+1].text) {
		return fmt.Errorf("query must read SELECT <fields> FROM <resource>")
	}
	return nil
}

// reportSpec is the structured form of a report, turned into GAQL by build.
type reportSpec struct {
	Resource   string   `json:"resource"`
	Fields     []string `json:"fields"`
	Metrics    []string `json:"metrics"`
	Segments   []string `json:"segments"`
	DateRange  string   `json:"date_range"`
	StartDate  string   `json:"start_date"`
	EndDate    string   `json:"end_date"`
	OrderBy    string   `json:"order_by"`
	Descending bool     `json:"descending"`
	// Where holds conditions already formatted by condition.
	Where []string `json:"-"`
}

// build returns the GAQL for s. Every identifier is checked against
// fieldPattern and every value is a quoted date or preset, so the caller's
// input cannot change the statement's shape.
func (s reportSpec) build() (string, error) {
	if !resourcePattern.MatchString(s.Resource) {
		return "", fmt.Errorf("resource %q is not a GAQL resource name", s.Resource)
	}
	var sel []string
	add := func(prefix, name string) error {
		if !strings.Contains(name, ".") {
			name = prefix + "." + name
		}
		if !validField(name) {
			return fmt.Errorf("%q is not a GAQL field name", name)
		}
		if !slices.Contains(sel, name) {
			sel = append(sel, name)
		}
		return nil
	}
	for _, group := range []struct {
		prefix string
		names  []string
	}{{s.Resource, s.Fields}, {"segments", s.Segments}, {"metrics", s.Metrics}} {
		for _, n := range group.names {
			if err := add(group.prefix, n); err != nil {
				return "", err
			}
		}
	}
	if len(sel) == 0 {
		return "", fmt.Errorf("select at least one field or metric")
	}
	// A report carries the account currency, so money needs no second
	// request, when its resource can select customer fields.
	if selectsCustomer[s.Resource] {
		_ = add("customer", "currency_code")
	}
	where := slices.Clone(s.Where)
	date, err := s.dateCondition(slices.ContainsFunc(sel, func(n string) bool {
		return strings.HasPrefix(n, "metrics.") || n == "segments.date"
	}))
	if err != nil {
		return "", err
	}
	if date != "" {
		where = append([]string{date}, where...)
	}
	q := "SELECT " + strings.Join(sel, ", ") + " FROM " + s.Resource
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	if s.OrderBy != "" {
		o := s.OrderBy
		if !strings.Contains(o, ".") {
			o = s.Resource + "." + o
		}
		if !validField(o) {
			return "", fmt.Errorf("order_by %q is not a GAQL field name", s.OrderBy)
		}
		q += " ORDER BY " + o
		if s.Descending {
			q += " DESC"
		}
	}
	return q, nil
}

// dateCondition returns the segments.date condition: the preset, the quoted
// start/end dates, or LAST_30_DAYS when metrics are selected without a range.
func (s reportSpec) dateCondition(needsRange bool) (string, error) {
	switch {
	case s.DateRange != "" && (s.StartDate != "" || s.EndDate != ""):
		return "", fmt.Errorf("give date_range or start_date/end_date, not both")
	case s.DateRange != "":
		if !slices.Contains(DatePresets, s.DateRange) {
			return "", fmt.Errorf("date_range %q is not one of %s", s.DateRange, strings.Join(DatePresets, ", "))
		}
		return "segments.date DURING " + s.DateRange, nil
	case s.StartDate != "" || s.EndDate != "":
		start, err1 := time.Parse(time.DateOnly, s.StartDate)
		end, err2 := time.Parse(time.DateOnly, s.EndDate)
		if err1 != nil || err2 != nil {
			return "", fmt.Errorf("start_date and end_date must both be dates as YYYY-MM-DD")
		}
		if end.Before(start) {
			return "", fmt.Errorf("end_date %s is before start_date %s", s.EndDate, s.StartDate)
		}
		return "segments.date BETWEEN '" + start.Format(time.DateOnly) + "' AND '" + end.Format(time.DateOnly) + "'", nil
	case needsRange:
		return "segments.date DURING LAST_30_DAYS", nil
	}
	return "", nil
}

// condition turns a gtmgate filter into a GAQL condition. A property without a
// dot is taken as a field of resource ("status" → "campaign.status").
func condition(f *gtmgate.Filter, resource string) (string, error) {
	prop := f.Property
	if !strings.Contains(prop, ".") {
		prop = resource + "." + prop
	}
	if !validField(prop) {
		return "", fmt.Errorf("filter property %q is not a GAQL field name", f.Property)
	}
	simple := map[string]string{"EQ": "=", "NEQ": "!=", "LT": "<", "LTE": "<=", "GT": ">", "GTE": ">="}
	if op, ok := simple[f.Operator]; ok {
		lit, err := literal(f.Value)
		if err != nil {
			return "", err
		}
		return prop + " " + op + " " + lit, nil
	}
	switch f.Operator {
	case "HAS_PROPERTY":
		return prop + " IS NOT NULL", nil
	case "NOT_HAS_PROPERTY":
		return prop + " IS NULL", nil
	case "IN", "NOT_IN":
		vals, ok := f.Value.([]any)
		if !ok || len(vals) == 0 || len(vals) > 100 {
			return "", fmt.Errorf("filter %s needs a list of 1 to 100 values", f.Operator)
		}
		lits := make([]string, len(vals))
		for i, v := range vals {
			lit, err := literal(v)
			if err != nil {
				return "", err
			}
			lits[i] = lit
		}
		return prop + " " + strings.ReplaceAll(f.Operator, "_", " ") + " (" + strings.Join(lits, ", ") + ")", nil
	case "BETWEEN":
		vals, ok := f.Value.([]any)
		if !ok || len(vals) != 2 {
			return "", fmt.Errorf("filter BETWEEN needs a list of two values")
		}
		lo, err1 := literal(vals[0])
		hi, err2 := literal(vals[1])
		if err1 != nil || err2 != nil {
			return "", fmt.Errorf("filter BETWEEN values must be strings, numbers or booleans")
		}
		return prop + " BETWEEN " + lo + " AND " + hi, nil
	case "CONTAINS_TOKEN", "NOT_CONTAINS_TOKEN":
		s, ok := f.Value.(string)
		if !ok || s == "" {
			return "", fmt.Errorf("filter %s needs a string value", f.Operator)
		}
		lit, err := literal("%" + likeEscaper.Replace(s) + "%")
		if err != nil {
			return "", err
		}
		op := " LIKE "
		if f.Operator == "NOT_CONTAINS_TOKEN" {
			op = " NOT LIKE "
		}
		return prop + op + lit, nil
	}
	return "", fmt.Errorf("filter operator %s is not supported by GAQL", f.Operator)
}

// likeEscaper makes LIKE wildcards literal the GAQL way: in brackets.
var likeEscaper = strings.NewReplacer("[", "[[]", "]", "[]]", "%", "[%]", "_", "[_]")

// literal formats a JSON value as a GAQL literal. Strings are quoted with
// whichever quote they do not contain; GAQL has no escape we rely on, so a
// string holding both quotes, a backslash or a control character is refused.
func literal(v any) (string, error) {
	switch x := v.(type) {
	case string:
		if len(x) > 1024 || strings.ContainsFunc(x, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '\\' }) {
			return "", fmt.Errorf("filter value holds a control character or backslash, or is too long")
		}
		switch {
		case !strings.Contains(x, "'"):
			return "'" + x + "'", nil
		case !strings.Contains(x, `"`):
			return `"` + x + `"`, nil
		}
		return "", fmt.Errorf("filter value holds both quote characters")
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return "", fmt.Errorf("filter value is not a finite number")
		}
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return strconv.FormatInt(int64(x), 10), nil
		}
		return strconv.FormatFloat(x, 'f', -1, 64), nil
	case int:
		return strconv.Itoa(x), nil
	case bool:
		if x {
			return "TRUE", nil
		}
		return "FALSE", nil
	}
	return "", fmt.Errorf("filter value must be a string, number or boolean")
}
