package ga4

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/googleapi"
)

const supportedOps = "EQ, NEQ, LT, LTE, GT, GTE, BETWEEN (metrics), IN, NOT_IN, CONTAINS_TOKEN, NOT_CONTAINS_TOKEN, HAS_PROPERTY, NOT_HAS_PROPERTY"

// buildFilter maps a gtmgate.Filter to a GA4 FilterExpression. A property
// listed in metrics becomes a metric filter (numericFilter/betweenFilter);
// anything else is a dimension filter (stringFilter/inListFilter). It reports
// which of the two the expression belongs to.
func buildFilter(tool string, f *gtmgate.Filter, metrics []string) (expr *FilterExpression, isMetric bool, err error) {
	isMetric = slices.Contains(metrics, f.Property)
	leaf := func(flt Filter) *FilterExpression {
		flt.FieldName = f.Property
		return &FilterExpression{Filter: &flt}
	}
	not := func(e *FilterExpression) *FilterExpression { return &FilterExpression{NotExpression: e} }
	switch f.Operator {
	case "EQ", "NEQ":
		var e *FilterExpression
		if isMetric {
			v, err := numeric(f.Value)
			if err != nil {
				return nil, true, valueError(tool, f, err)
			}
			e = leaf(Filter{NumericFilter: &NumericFilter{Operation: "EQUAL", Value: v}})
		} else {
			s, err := text(f.Value)
			if err != nil {
				return nil, false, valueError(tool, f, err)
			}
			e = leaf(Filter{StringFilter: &StringFilter{MatchType: "EXACT", Value: s}})
		}
		if f.Operator == "NEQ" {
			e = not(e)
		}
		return e, isMetric, nil
	case "LT", "LTE", "GT", "GTE", "BETWEEN":
		if !isMetric {
			return nil, false, gtmgate.Errorf(gtmgate.EValidation, "%s: %s compares numbers: %q must be one of the requested metrics", tool, f.Operator, f.Property).
				WithHint("add the metric to metrics, or use EQ/IN/CONTAINS_TOKEN on a dimension")
		}
		if f.Operator == "BETWEEN" {
			pair, ok := f.Value.([]any)
			if !ok || len(pair) != 2 {
				return nil, true, valueError(tool, f, fmt.Errorf("BETWEEN needs [from, to]"))
			}
			from, err1 := numeric(pair[0])
			to, err2 := numeric(pair[1])
			if err1 != nil || err2 != nil {
				return nil, true, valueError(tool, f, fmt.Errorf("BETWEEN bounds must be numbers"))
			}
			return leaf(Filter{BetweenFilter: &BetweenFilter{FromValue: from, ToValue: to}}), true, nil
		}
		v, err := numeric(f.Value)
		if err != nil {
			return nil, true, valueError(tool, f, err)
		}
		op := map[string]string{"LT": "LESS_THAN", "LTE": "LESS_THAN_OR_EQUAL", "GT": "GREATER_THAN", "GTE": "GREATER_THAN_OR_EQUAL"}[f.Operator]
		return leaf(Filter{NumericFilter: &NumericFilter{Operation: op, Value: v}}), true, nil
	}
	if isMetric {
		return nil, true, googleapi.Unsupported(tool, f, "EQ, NEQ, LT, LTE, GT, GTE or BETWEEN on a metric")
	}
	switch f.Operator {
	case "IN", "NOT_IN":
		values, err := texts(f.Value)
		if err != nil {
			return nil, false, valueError(tool, f, err)
		}
		e := leaf(Filter{InListFilter: &InListFilter{Values: values}})
		if f.Operator == "NOT_IN" {
			e = not(e)
		}
		return e, false, nil
	case "CONTAINS_TOKEN", "NOT_CONTAINS_TOKEN":
		s, err := text(f.Value)
		if err != nil {
			return nil, false, valueError(tool, f, err)
		}
		e := leaf(Filter{StringFilter: &StringFilter{MatchType: "CONTAINS", Value: s}})
		if f.Operator == "NOT_CONTAINS_TOKEN" {
			e = not(e)
		}
		return e, false, nil
	case "HAS_PROPERTY":
		return not(leaf(Filter{EmptyFilter: &struct{}{}})), false, nil
	case "NOT_HAS_PROPERTY":
		return leaf(Filter{EmptyFilter: &struct{}{}}), false, nil
	}
	return nil, false, googleapi.Unsupported(tool, f, supportedOps)
}

func valueError(tool string, f *gtmgate.Filter, err error) error {
	return &gtmgate.Error{Code: gtmgate.EValidation, Message: fmt.Sprintf("%s: filter %s %s: %v", tool, f.Property, f.Operator, err), Err: err}
}

// numeric turns a JSON number (or numeric string) into a NumericValue,
// preferring int64Value for whole numbers as the API does.
func numeric(v any) (NumericValue, error) {
	var f float64
	switch x := v.(type) {
	case float64:
		f = x
	case string:
		p, err := strconv.ParseFloat(x, 64)
		if err != nil {
			return NumericValue{}, fmt.Errorf("value %q is not a number", x)
		}
		f = p
	default:
		return NumericValue{}, fmt.Errorf("value must be a number")
	}
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return NumericValue{}, fmt.Errorf("value must be finite")
	}
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return NumericValue{Int64Value: strconv.FormatInt(int64(f), 10)}, nil
	}
	return NumericValue{DoubleValue: &f}, nil
}

func text(v any) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), nil
	case bool:
		return strconv.FormatBool(x), nil
	}
	return "", fmt.Errorf("value must be a string")
}

func texts(v any) ([]string, error) {
	list, ok := v.([]any)
	if !ok {
		s, err := text(v)
		return []string{s}, err
	}
	out := make([]string, 0, len(list))
	for _, e := range list {
		s, err := text(e)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("value must list at least one string")
	}
	return out, nil
}

// and combines an optional raw expression with a built one.
func and(raw map[string]any, built *FilterExpression) any {
	switch {
	case built == nil && raw == nil:
		return nil
	case built == nil:
		return raw
	case raw == nil:
		return built
	}
	return map[string]any{"andGroup": map[string]any{"expressions": []any{raw, built}}}
}
