package bigquery

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"

	"github.com/gtmgate/gtmgate"
)

var paramName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,127}$`)

// queryParameters turns {"name": value} into named BigQuery parameters,
// typing each from its JSON value: string → STRING, whole number → INT64,
// other number → FLOAT64, boolean → BOOL, list → ARRAY of those.
func queryParameters(in map[string]any) ([]queryParameter, error) {
	names := make([]string, 0, len(in))
	for n := range in {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []queryParameter
	for _, n := range names {
		if !paramName.MatchString(n) {
			return nil, gtmgate.Errorf(gtmgate.EValidation, "params: %q is not a valid parameter name (letters, digits, _)", n)
		}
		typ, val, err := paramValue(in[n])
		if err != nil {
			return nil, gtmgate.Errorf(gtmgate.EValidation, "params.%s: %v", n, err)
		}
		out = append(out, queryParameter{Name: n, ParameterType: typ, ParameterValue: val})
	}
	return out, nil
}

func paramValue(v any) (parameterType, parameterValue, error) {
	switch x := v.(type) {
	case string:
		return parameterType{Type: "STRING"}, parameterValue{Value: &x}, nil
	case bool:
		s := strconv.FormatBool(x)
		return parameterType{Type: "BOOL"}, parameterValue{Value: &s}, nil
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			s := strconv.FormatInt(int64(x), 10)
			return parameterType{Type: "INT64"}, parameterValue{Value: &s}, nil
		}
		s := strconv.FormatFloat(x, 'g', -1, 64)
		return parameterType{Type: "FLOAT64"}, parameterValue{Value: &s}, nil
	case []any:
		if len(x) == 0 {
			return parameterType{}, parameterValue{}, fmt.Errorf("an empty list has no element type; pass at least one value")
		}
		var elem parameterType
		vals := make([]parameterValue, 0, len(x))
		for i, e := range x {
			if _, nested := e.([]any); nested {
				return parameterType{}, parameterValue{}, fmt.Errorf("lists of lists are not supported")
			}
			t, pv, err := paramValue(e)
			if err != nil {
				return parameterType{}, parameterValue{}, err
			}
			if i > 0 && t.Type != elem.Type {
				if t.Type == "FLOAT64" && elem.Type == "INT64" || t.Type == "INT64" && elem.Type == "FLOAT64" {
					t.Type = "FLOAT64"
				} else {
					return parameterType{}, parameterValue{}, fmt.Errorf("list mixes %s and %s", elem.Type, t.Type)
				}
			}
			elem = t
			vals = append(vals, pv)
		}
		return parameterType{Type: "ARRAY", ArrayType: &elem}, parameterValue{ArrayValues: vals}, nil
	case nil:
		return parameterType{}, parameterValue{}, fmt.Errorf("null needs a type; leave the parameter out or use a typed value")
	default:
		return parameterType{}, parameterValue{}, fmt.Errorf("objects are not supported as parameters")
	}
}
