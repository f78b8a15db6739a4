package hubspot

import (
	"path"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// valueKind says how values of a property compare.
type valueKind int

const (
	kindString valueKind = iota
	kindNumber
	kindDate
)

// matchFilter reports whether a property holding values (none when unset;
// several for association pseudo-properties) satisfies f the way HubSpot
// search does: string equality ignores case, LT…BETWEEN compare numbers and
// dates numerically, negative operators also match unset properties.
func matchFilter(f searchFilter, values []string, kind valueKind) bool {
	val := ""
	if f.Value != nil {
		val = *f.Value
	}
	anyOf := func(pred func(string) bool) bool {
		for _, v := range values {
			if v != "" && pred(v) {
				return true
			}
		}
		return false
	}
	equal := func(v string) bool { return equalValues(v, val, kind) }
	inList := func(v string) bool {
		for _, w := range f.Values {
			if equalValues(v, w, kind) {
				return true
			}
		}
		return false
	}
	switch f.Operator {
	case "EQ":
		return anyOf(equal)
	case "NEQ":
		return !anyOf(equal)
	case "IN":
		return anyOf(inList)
	case "NOT_IN":
		return !anyOf(inList)
	case "HAS_PROPERTY":
		return anyOf(func(string) bool { return true })
	case "NOT_HAS_PROPERTY":
		return !anyOf(func(string) bool { return true })
	case "CONTAINS_TOKEN":
		return anyOf(func(v string) bool { return containsToken(v, val) })
	case "NOT_CONTAINS_TOKEN":
		return !anyOf(func(v string) bool { return containsToken(v, val) })
	case "LT", "LTE", "GT", "GTE":
		return anyOf(func(v string) bool {
			c, ok := compareValues(v, val, kind)
			if !ok {
				return false
			}
			switch f.Operator {
			case "LT":
				return c < 0
			case "LTE":
				return c <= 0
			case "GT":
				return c > 0
			}
			return c >= 0
		})
	case "BETWEEN":
		hi := ""
		if f.HighValue != nil {
			hi = *f.HighValue
		}
		return anyOf(func(v string) bool {
			lo, ok1 := compareValues(v, val, kind)
			up, ok2 := compareValues(v, hi, kind)
			return ok1 && ok2 && lo >= 0 && up <= 0
		})
	}
	return false
}

func equalValues(a, b string, kind valueKind) bool {
	if kind != kindString {
		if c, ok := compareValues(a, b, kind); ok {
			return c == 0
		}
	}
	return strings.EqualFold(a, b)
}

// compareValues orders a and b as numbers, dates or case-folded strings.
func compareValues(a, b string, kind valueKind) (int, bool) {
	switch kind {
	case kindNumber:
		x, err1 := strconv.ParseFloat(a, 64)
		y, err2 := strconv.ParseFloat(b, 64)
		if err1 != nil || err2 != nil {
			return 0, false
		}
		return cmpFloat(x, y), true
	case kindDate:
		x, ok1 := epochMillis(a)
		y, ok2 := epochMillis(b)
		if !ok1 || !ok2 {
			return 0, false
		}
		return cmpFloat(float64(x), float64(y)), true
	}
	return strings.Compare(strings.ToLower(a), strings.ToLower(b)), true
}

func cmpFloat(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// epochMillis reads a date as HubSpot accepts it: epoch milliseconds,
// RFC 3339, or a calendar date.
func epochMillis(s string) (int64, bool) {
	if ms, err := strconv.ParseInt(s, 10, 64); err == nil {
		return ms, true
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UnixMilli(), true
		}
	}
	return 0, false
}

// containsToken reports whether text holds the token, or, when the token
// has a * wildcard, whether text or one of its words matches it.
func containsToken(text, token string) bool {
	text, token = strings.ToLower(text), strings.ToLower(strings.TrimSpace(token))
	if token == "" {
		return false
	}
	if strings.Contains(token, "*") {
		if ok, _ := path.Match(token, text); ok {
			return true
		}
		for _, w := range strings.Fields(text) {
			if ok, _ := path.Match(token, w); ok {
				return true
			}
		}
		return false
	}
	words := strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	want := strings.FieldsFunc(token, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if len(want) == 0 {
		return false
	}
	for i := 0; i+len(want) <= len(words); i++ {
		match := true
		for j, w := range want {
			if words[i+j] != w {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}
