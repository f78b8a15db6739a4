package ga4

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// matcher evaluates a validated FilterExpression against one row, reading
// field values through get.
type matcher struct {
	regexps map[string]*regexp.Regexp
}

// check validates e: one member per expression, known fields, valid
// regular expressions. valid says whether a field may be filtered on.
func (m *matcher) check(e *FilterExpression, valid func(string) bool, kind string) error {
	if e == nil {
		return nil
	}
	set := 0
	for _, b := range []bool{e.AndGroup != nil, e.OrGroup != nil, e.NotExpression != nil, e.Filter != nil} {
		if b {
			set++
		}
	}
	if set != 1 {
		return fmt.Errorf("Invalid %sFilter: a FilterExpression must set exactly one of andGroup, orGroup, notExpression, filter", kind)
	}
	switch {
	case e.AndGroup != nil || e.OrGroup != nil:
		g := e.AndGroup
		if g == nil {
			g = e.OrGroup
		}
		for i := range g.Expressions {
			if err := m.check(&g.Expressions[i], valid, kind); err != nil {
				return err
			}
		}
		return nil
	case e.NotExpression != nil:
		return m.check(e.NotExpression, valid, kind)
	}
	f := e.Filter
	if !valid(f.FieldName) {
		return fmt.Errorf("Field %s is not a valid %s. For a list of valid dimensions and metrics, see https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema", f.FieldName, kind)
	}
	if sf := f.StringFilter; sf != nil && strings.HasSuffix(sf.MatchType, "REGEXP") {
		expr := regexpKey(sf)
		re, err := regexp.Compile(expr)
		if err != nil {
			return fmt.Errorf("Invalid regular expression %q in %sFilter", sf.Value, kind)
		}
		if m.regexps == nil {
			m.regexps = map[string]*regexp.Regexp{}
		}
		m.regexps[expr] = re
	}
	return nil
}

// match evaluates a checked expression.
func (m *matcher) match(e *FilterExpression, get func(string) string) bool {
	switch {
	case e == nil:
		return true
	case e.AndGroup != nil:
		for i := range e.AndGroup.Expressions {
			if !m.match(&e.AndGroup.Expressions[i], get) {
				return false
			}
		}
		return true
	case e.OrGroup != nil:
		for i := range e.OrGroup.Expressions {
			if m.match(&e.OrGroup.Expressions[i], get) {
				return true
			}
		}
		return false
	case e.NotExpression != nil:
		return !m.match(e.NotExpression, get)
	}
	return m.matchFilter(e.Filter, get(e.Filter.FieldName))
}

func (m *matcher) matchFilter(f *Filter, v string) bool {
	switch {
	case f.EmptyFilter != nil:
		return v == "" || v == "(not set)"
	case f.StringFilter != nil:
		sf := f.StringFilter
		want := sf.Value
		if !sf.CaseSensitive && !strings.HasSuffix(sf.MatchType, "REGEXP") {
			v, want = strings.ToLower(v), strings.ToLower(want)
		}
		switch sf.MatchType {
		case "BEGINS_WITH":
			return strings.HasPrefix(v, want)
		case "ENDS_WITH":
			return strings.HasSuffix(v, want)
		case "CONTAINS":
			return strings.Contains(v, want)
		case "FULL_REGEXP", "PARTIAL_REGEXP":
			return m.regexps[regexpKey(sf)].MatchString(v)
		}
		return v == want
	case f.InListFilter != nil:
		if f.InListFilter.CaseSensitive {
			return slices.Contains(f.InListFilter.Values, v)
		}
		return slices.ContainsFunc(f.InListFilter.Values, func(s string) bool { return strings.EqualFold(s, v) })
	case f.NumericFilter != nil:
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return false
		}
		want := f.NumericFilter.Value.Float()
		switch f.NumericFilter.Operation {
		case "LESS_THAN":
			return x < want
		case "LESS_THAN_OR_EQUAL":
			return x <= want
		case "GREATER_THAN":
			return x > want
		case "GREATER_THAN_OR_EQUAL":
			return x >= want
		}
		return x == want
	case f.BetweenFilter != nil:
		x, err := strconv.ParseFloat(v, 64)
		return err == nil && x >= f.BetweenFilter.FromValue.Float() && x <= f.BetweenFilter.ToValue.Float()
	}
	return true
}

// regexpKey is the Go pattern of a regexp string filter: anchored for
// FULL_REGEXP, case-insensitive unless asked otherwise.
func regexpKey(sf *StringFilter) string {
	expr := sf.Value
	if sf.MatchType == "FULL_REGEXP" {
		expr = "^(?:" + expr + ")$"
	}
	if !sf.CaseSensitive {
		expr = "(?i)" + expr
	}
	return expr
}
