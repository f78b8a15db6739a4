package googleads

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// matchAll reports whether row satisfies every condition.
func matchAll(row map[string]any, conds []gaqlCond, today time.Time) (bool, error) {
	for _, c := range conds {
		ok, err := match(row, c, today)
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

func match(row map[string]any, c gaqlCond, today time.Time) (bool, error) {
	v, present := row[c.Field]
	if !present {
		v = nil
	}
	switch c.Op {
	case "IS_NULL":
		return v == nil, nil
	case "IS_NOT_NULL":
		return v != nil, nil
	case "DURING":
		start, end, ok := presetRange(fmt.Sprint(c.Values[0]), today)
		if !ok {
			return false, qerr("INVALID_VALUE_WITH_DURING_OPERATOR", "Error in query: invalid date range %v.", c.Values[0])
		}
		d, _ := v.(string)
		return d >= start.Format(time.DateOnly) && d <= end.Format(time.DateOnly), nil
	case "BETWEEN":
		return compare(v, c.Values[0]) >= 0 && compare(v, c.Values[1]) <= 0, nil
	case "IN", "NOT_IN":
		in := slices.ContainsFunc(c.Values, func(x any) bool { return compare(v, x) == 0 })
		return in == (c.Op == "IN"), nil
	case "LIKE", "NOT_LIKE":
		s, _ := v.(string)
		ok := likeRegexp(fmt.Sprint(c.Values[0])).MatchString(s)
		return ok == (c.Op == "LIKE"), nil
	}
	if v == nil {
		return false, nil
	}
	n := compare(v, c.Values[0])
	switch c.Op {
	case "=":
		return n == 0, nil
	case "!=":
		return n != 0, nil
	case "<":
		return n < 0, nil
	case "<=":
		return n <= 0, nil
	case ">":
		return n > 0, nil
	case ">=":
		return n >= 0, nil
	}
	return false, qerr("UNEXPECTED_INPUT", "Error in query: unsupported operator %s.", c.Op)
}

// compare orders a row value against a literal: numbers numerically,
// everything else by its text; nil sorts first.
func compare(a, b any) int {
	if a == nil || b == nil {
		return cmp.Compare(boolInt(a != nil), boolInt(b != nil))
	}
	fa, okA := toFloat(a)
	fb, okB := toFloat(b)
	if okA && okB {
		return cmp.Compare(fa, fb)
	}
	return strings.Compare(fmt.Sprint(a), fmt.Sprint(b))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	case string:
		n, err := strconv.ParseFloat(x, 64)
		return n, err == nil
	}
	return 0, false
}

// likeRegexp translates a GAQL LIKE pattern: % any run, _ one character,
// [x] the literal x.
func likeRegexp(p string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("(?s)^")
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '%':
			b.WriteString(".*")
		case c == '_':
			b.WriteString(".")
		case c == '[' && i+2 < len(p) && p[i+2] == ']':
			b.WriteString(regexp.QuoteMeta(p[i+1 : i+2]))
			i += 2
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// presetRange returns the first and last day of a DURING preset.
func presetRange(p string, today time.Time) (time.Time, time.Time, bool) {
	day := func(n int) time.Time { return today.AddDate(0, 0, n) }
	monday := day(-((int(today.Weekday()) + 6) % 7))
	sunday := day(-int(today.Weekday()))
	switch p {
	case "TODAY":
		return today, today, true
	case "YESTERDAY":
		return day(-1), day(-1), true
	case "LAST_7_DAYS", "LAST_14_DAYS", "LAST_30_DAYS":
		n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(p, "LAST_"), "_DAYS"))
		return day(-n), day(-1), true
	case "THIS_MONTH":
		return today.AddDate(0, 0, 1-today.Day()), today, true
	case "LAST_MONTH":
		first := today.AddDate(0, 0, 1-today.Day())
		return first.AddDate(0, -1, 0), first.AddDate(0, 0, -1), true
	case "LAST_WEEK_MON_SUN":
		return monday.AddDate(0, 0, -7), monday.AddDate(0, 0, -1), true
	case "LAST_WEEK_SUN_SAT":
		return sunday.AddDate(0, 0, -7), sunday.AddDate(0, 0, -1), true
	case "LAST_BUSINESS_WEEK":
		return monday.AddDate(0, 0, -7), monday.AddDate(0, 0, -3), true
	case "THIS_WEEK_MON_TODAY":
		return monday, today, true
	case "THIS_WEEK_SUN_TODAY":
		return sunday, today, true
	}
	return time.Time{}, time.Time{}, false
}

// sortRows orders rows by the ORDER BY fields.
func sortRows(rows []map[string]any, order []gaqlOrder) {
	slices.SortStableFunc(rows, func(a, b map[string]any) int {
		for _, o := range order {
			if n := compare(a[o.Field], b[o.Field]); n != 0 {
				if o.Desc {
					return -n
				}
				return n
			}
		}
		return 0
	})
}
