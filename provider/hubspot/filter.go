package hubspot

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/gtmgate/gtmgate"
)

// filterGroup is one AND-group of HubSpot search filters; groups are ORed.
type filterGroup struct {
	Filters []searchFilter `json:"filters"`
}

// searchFilter is one HubSpot search filter. Value and HighValue are
// pointers so an explicit empty string survives encoding.
type searchFilter struct {
	PropertyName string   `json:"propertyName"`
	Operator     string   `json:"operator"`
	Value        *string  `json:"value,omitempty"`
	HighValue    *string  `json:"highValue,omitempty"`
	Values       []string `json:"values,omitempty"`
}

// operand says what value an operator takes.
type operand int

const (
	operandScalar operand = iota
	operandRange
	operandList
	operandNone
)

// operators are HubSpot's search operators and the value each takes.
var operators = map[string]operand{
	"EQ": operandScalar, "NEQ": operandScalar,
	"LT": operandScalar, "LTE": operandScalar, "GT": operandScalar, "GTE": operandScalar,
	"CONTAINS_TOKEN": operandScalar, "NOT_CONTAINS_TOKEN": operandScalar,
	"BETWEEN": operandRange,
	"IN":      operandList, "NOT_IN": operandList,
	"HAS_PROPERTY": operandNone, "NOT_HAS_PROPERTY": operandNone,
}

// maxFilterValues bounds IN/NOT_IN lists, as HubSpot does.
const maxFilterValues = 100

// propertyName matches HubSpot internal property names, including the
// "associations.contact" pseudo-properties search understands.
var propertyName = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.\-]{0,99}$`)

// filterGroups maps the call's filter, plus any filters the tool adds, onto
// HubSpot's filterGroups: one group, so every filter must hold. It returns
// nil when there is nothing to filter on, and a VALIDATION_ERROR naming the
// problem when the filter cannot be expressed.
func filterGroups(f *gtmgate.Filter, extra ...searchFilter) ([]filterGroup, error) {
	var filters []searchFilter
	if f != nil {
		sf, err := toSearchFilter(f)
		if err != nil {
			return nil, err
		}
		filters = append(filters, sf)
	}
	filters = append(filters, extra...)
	if len(filters) == 0 {
		return nil, nil
	}
	return []filterGroup{{Filters: filters}}, nil
}

// toSearchFilter converts one gtmgate filter.
func toSearchFilter(f *gtmgate.Filter) (searchFilter, error) {
	prop := strings.TrimSpace(f.Property)
	if !propertyName.MatchString(prop) {
		return searchFilter{}, filterError("filter.property %q is not a HubSpot property name (letters, digits, _ . -)", f.Property)
	}
	op := strings.ToUpper(strings.TrimSpace(f.Operator))
	kind, ok := operators[op]
	if !ok {
		return searchFilter{}, filterError("filter.operator %q is not one of EQ, NEQ, LT, LTE, GT, GTE, BETWEEN, IN, NOT_IN, HAS_PROPERTY, NOT_HAS_PROPERTY, CONTAINS_TOKEN, NOT_CONTAINS_TOKEN", f.Operator)
	}
	sf := searchFilter{PropertyName: prop, Operator: op}
	switch kind {
	case operandNone:
		if f.Value != nil {
			return searchFilter{}, filterError("filter.value must be omitted for %s", op)
		}
	case operandScalar:
		s, err := formatValue(f.Value)
		if err != nil {
			return searchFilter{}, filterError("filter.value for %s %v", op, err)
		}
		sf.Value = &s
	case operandRange:
		vs, ok := f.Value.([]any)
		if !ok || len(vs) != 2 {
			return searchFilter{}, filterError("filter.value for BETWEEN must be an array [low, high]")
		}
		lo, err := formatValue(vs[0])
		if err != nil {
			return searchFilter{}, filterError("filter.value[0] for BETWEEN %v", err)
		}
		hi, err := formatValue(vs[1])
		if err != nil {
			return searchFilter{}, filterError("filter.value[1] for BETWEEN %v", err)
		}
		sf.Value, sf.HighValue = &lo, &hi
	case operandList:
		vs, ok := f.Value.([]any)
		if !ok {
			vs = []any{f.Value}
		}
		if len(vs) == 0 || len(vs) > maxFilterValues {
			return searchFilter{}, filterError("filter.value for %s must be an array of 1 to %d values", op, maxFilterValues)
		}
		sf.Values = make([]string, len(vs))
		for i, v := range vs {
			s, err := formatValue(v)
			if err != nil {
				return searchFilter{}, filterError("filter.value[%d] for %s %v", i, op, err)
			}
			sf.Values[i] = s
		}
	}
	return sf, nil
}

// formatValue renders a filter value the way HubSpot expects it: strings as
// they are, numbers in plain decimal (never with an exponent), booleans as
// "true"/"false".
func formatValue(v any) (string, error) {
	switch v := v.(type) {
	case nil:
		return "", fmt.Errorf("is required")
	case string:
		return v, nil
	case bool:
		return strconv.FormatBool(v), nil
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return "", fmt.Errorf("must be a finite number")
		}
		return strconv.FormatFloat(v, 'f', -1, 64), nil
	case int:
		return strconv.Itoa(v), nil
	case int64:
		return strconv.FormatInt(v, 10), nil
	case json.Number:
		if _, err := strconv.ParseInt(string(v), 10, 64); err == nil {
			return string(v), nil
		}
		f, err := v.Float64()
		if err != nil {
			return "", fmt.Errorf("is not a number: %w", err)
		}
		return formatValue(f)
	}
	switch v.(type) {
	case []any:
		return "", fmt.Errorf("must be a string, number or boolean, not an array")
	case map[string]any:
		return "", fmt.Errorf("must be a string, number or boolean, not an object")
	}
	return "", fmt.Errorf("must be a string, number or boolean, not %T", v)
}

func filterError(format string, args ...any) error {
	return gtmgate.Errorf(gtmgate.EValidation, format, args...).
		WithHint("see the filter operators in the tool schema; BETWEEN takes [low, high], IN and NOT_IN an array, HAS_PROPERTY no value")
}
