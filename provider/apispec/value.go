package apispec

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Direction says which side of an exchange a value is: requests may send
// Google's 64-bit integers as numbers or strings, responses send strings.
type Direction int

// Directions.
const (
	Request Direction = iota
	Response
)

// CheckValue checks v (decoded with UseNumber) against sc and returns one
// message per problem, each naming the field's path.
func (s *Spec) CheckValue(sc *Schema, v any, dir Direction) []string {
	var out []string
	s.checkValue(sc, v, "", dir, &out, 0)
	return out
}

func (s *Spec) checkValue(sc *Schema, v any, at string, dir Direction, out *[]string, depth int) {
	sc = s.resolve(sc)
	if sc == nil || sc.Type == "any" || sc.Type == "" && sc.Properties == nil || depth > 64 {
		return
	}
	name := at
	if name == "" {
		name = "the body"
	}
	fail := func(format string, args ...any) { *out = append(*out, name+": "+fmt.Sprintf(format, args...)) }
	if v == nil {
		if !sc.Nullable {
			fail("null is not allowed")
		}
		return
	}
	switch typ := sc.Type; {
	case typ == "object" || typ == "" && sc.Properties != nil:
		obj, ok := v.(map[string]any)
		if !ok {
			fail("want an object, got %s", kind(v))
			return
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			child := join(at, k)
			if p, ok := sc.Properties[k]; ok {
				s.checkValue(p, obj[k], child, dir, out, depth+1)
			} else if sc.AdditionalProperties != nil {
				s.checkValue(sc.AdditionalProperties, obj[k], child, dir, out, depth+1)
			} else if !sc.Open {
				*out = append(*out, child+": unknown field")
			}
		}
		for _, r := range sc.Required {
			if _, ok := obj[r]; !ok {
				*out = append(*out, join(at, r)+": required field missing")
			}
		}
	case typ == "array":
		list, ok := v.([]any)
		if !ok {
			fail("want an array, got %s", kind(v))
			return
		}
		for i, item := range list {
			s.checkValue(sc.Items, item, at+"["+strconv.Itoa(i)+"]", dir, out, depth+1)
		}
	case typ == "string":
		str, isStr := v.(string)
		if (sc.Format == "int64" || sc.Format == "uint64") && dir == Request && !isStr {
			if n, ok := v.(json.Number); ok && isInteger(n) {
				return
			}
		}
		if !isStr {
			fail("want a string, got %s", kind(v))
			return
		}
		if msg := checkString(sc.Format, sc.Enum, str, s.EnumsFoldCase); msg != "" {
			fail("%s", msg)
		}
	case typ == "integer", typ == "number":
		n, ok := v.(json.Number)
		if !ok {
			// Google's JSON carries 64-bit integers as strings.
			if str, isStr := v.(string); isStr && (sc.Format == "int64" || sc.Format == "uint64") {
				if _, err := strconv.ParseInt(str, 10, 64); err == nil {
					return
				}
			}
			fail("want a %s, got %s", typ, kind(v))
			return
		}
		if typ == "integer" && !isInteger(n) {
			fail("want an integer, got %s", n)
		}
	case typ == "boolean":
		if _, ok := v.(bool); !ok {
			fail("want a boolean, got %s", kind(v))
		}
	}
}

// checkString checks a string against a format and an enum; "" when it passes.
func checkString(format string, enum []string, v string, fold bool) string {
	if len(enum) > 0 && !slices.Contains(enum, v) && !(fold && slices.ContainsFunc(enum, func(e string) bool { return folded(e) == folded(v) })) {
		return fmt.Sprintf("%q is not one of %s", v, strings.Join(enum, ", "))
	}
	switch format {
	case "int64":
		if _, err := strconv.ParseInt(v, 10, 64); err != nil {
			return fmt.Sprintf("%q is not a 64-bit integer", v)
		}
	case "uint64":
		if _, err := strconv.ParseUint(v, 10, 64); err != nil {
			return fmt.Sprintf("%q is not an unsigned 64-bit integer", v)
		}
	}
	return ""
}

// folded is an enum value without case or underscores.
func folded(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "")) }

func isInteger(n json.Number) bool {
	if _, err := n.Int64(); err == nil {
		return true
	}
	f, err := n.Float64()
	return err == nil && f == math.Trunc(f)
}

func kind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	}
	return "null"
}

func join(at, k string) string {
	if at == "" {
		return k
	}
	return at + "." + k
}
