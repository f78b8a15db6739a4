package googleads

import (
	"strconv"
	"strings"
)

// encodeRow renders a row the way the REST API does: nested lowerCamelCase
// objects, int64 as strings, zero values omitted (proto3 JSON), and the
// resource_name of every resource a selected field belongs to.
func encodeRow(row map[string]any, fields []string) map[string]any {
	out := map[string]any{}
	set := func(path string, v any) {
		parts := strings.Split(path, ".")
		m := out
		for _, p := range parts[:len(parts)-1] {
			p = camel(p)
			sub, ok := m[p].(map[string]any)
			if !ok {
				sub = map[string]any{}
				m[p] = sub
			}
			m = sub
		}
		m[camel(parts[len(parts)-1])] = v
	}
	for _, f := range fields {
		res, _, _ := strings.Cut(f, ".")
		if rn, ok := row[res+".resource_name"]; ok {
			set(res+".resource_name", rn)
		}
		switch v := row[f].(type) {
		case int64:
			if v != 0 {
				set(f, strconv.FormatInt(v, 10))
			}
		case float64:
			if v != 0 {
				set(f, v)
			}
		case string:
			if v != "" {
				set(f, v)
			}
		case bool:
			if v {
				set(f, v)
			}
		}
	}
	return out
}

// camel converts a GAQL name to proto JSON: cost_micros → costMicros.
func camel(s string) string {
	var b strings.Builder
	up := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_':
			up = true
		case up && c >= 'a' && c <= 'z':
			b.WriteByte(c - 'a' + 'A')
			up = false
		default:
			b.WriteByte(c)
			up = false
		}
	}
	return b.String()
}
