package googleads

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gtmgate/gtmgate/provider/apispec"
)

// encodeRow renders a row the way the REST API does: nested lowerCamelCase
// objects, each value in the JSON form of its field's proto type (the
// spec's gaql_fields: INT64 as a string of digits, DOUBLE a number), zero
// values omitted (proto3 JSON), and the resource_name of every resource a
// selected field belongs to.
func encodeRow(row map[string]any, fields []string) map[string]any {
	out := map[string]any{}
	set := func(path string, v any) {
		parts := strings.Split(path, ".")
		m := out
		for _, p := range parts[:len(parts)-1] {
			p = apispec.ProtoJSONName(p)
			sub, ok := m[p].(map[string]any)
			if !ok {
				sub = map[string]any{}
				m[p] = sub
			}
			m = sub
		}
		m[apispec.ProtoJSONName(parts[len(parts)-1])] = v
	}
	for _, f := range fields {
		res, _, _ := strings.Cut(f, ".")
		if rn, ok := row[res+".resource_name"]; ok {
			set(res+".resource_name", rn)
		}
		if v, ok := encodeValue(gaqlFields[f].DataType, row[f]); ok {
			set(f, v)
		}
	}
	return out
}

// encodeValue is v in the JSON form of a GAQL data type; false for a zero
// value, which proto3 JSON leaves out.
func encodeValue(dataType string, v any) (any, bool) {
	var n float64
	switch x := v.(type) {
	case nil:
		return nil, false
	case int64:
		n = float64(x)
	case float64:
		n = x
	case bool:
		return x, x
	case string:
		return x, x != ""
	}
	switch dataType {
	case "INT64", "UINT64":
		return strconv.FormatInt(int64(n), 10), n != 0
	case "STRING", "ENUM", "RESOURCE_NAME", "DATE":
		return fmt.Sprint(v), n != 0
	}
	return n, n != 0
}
