package ga4

import (
	"encoding/json"
	"strconv"
)

// The GA4 Data API v1beta JSON shapes the adapter sends and the sandbox reads.
// Field names follow the API reference (proto3 JSON, int64 as strings).

// FilterExpression is the API's FilterExpression: exactly one member is set.
type FilterExpression struct {
	AndGroup      *FilterExpressionList `json:"andGroup,omitempty"`
	OrGroup       *FilterExpressionList `json:"orGroup,omitempty"`
	NotExpression *FilterExpression     `json:"notExpression,omitempty"`
	Filter        *Filter               `json:"filter,omitempty"`
}

// FilterExpressionList is the operand list of andGroup and orGroup.
type FilterExpressionList struct {
	Expressions []FilterExpression `json:"expressions"`
}

// Filter tests one dimension or metric.
type Filter struct {
	FieldName     string         `json:"fieldName"`
	StringFilter  *StringFilter  `json:"stringFilter,omitempty"`
	InListFilter  *InListFilter  `json:"inListFilter,omitempty"`
	NumericFilter *NumericFilter `json:"numericFilter,omitempty"`
	BetweenFilter *BetweenFilter `json:"betweenFilter,omitempty"`
	EmptyFilter   *struct{}      `json:"emptyFilter,omitempty"`
}

// StringFilter matches a string value; MatchType is EXACT, BEGINS_WITH,
// ENDS_WITH, CONTAINS, FULL_REGEXP or PARTIAL_REGEXP.
type StringFilter struct {
	MatchType     string `json:"matchType,omitempty"`
	Value         string `json:"value"`
	CaseSensitive bool   `json:"caseSensitive,omitempty"`
}

// InListFilter matches any of Values.
type InListFilter struct {
	Values        []string `json:"values"`
	CaseSensitive bool     `json:"caseSensitive,omitempty"`
}

// NumericFilter compares with Operation EQUAL, LESS_THAN,
// LESS_THAN_OR_EQUAL, GREATER_THAN or GREATER_THAN_OR_EQUAL.
type NumericFilter struct {
	Operation string       `json:"operation"`
	Value     NumericValue `json:"value"`
}

// BetweenFilter matches values in [FromValue, ToValue].
type BetweenFilter struct {
	FromValue NumericValue `json:"fromValue"`
	ToValue   NumericValue `json:"toValue"`
}

// NumericValue is an int64 (as a string) or a double.
type NumericValue struct {
	Int64Value  string   `json:"int64Value,omitempty"`
	DoubleValue *float64 `json:"doubleValue,omitempty"`
}

// Float returns the value as a float64.
func (v NumericValue) Float() float64 {
	if v.DoubleValue != nil {
		return *v.DoubleValue
	}
	f, _ := strconv.ParseFloat(v.Int64Value, 64)
	return f
}

type named struct {
	Name string `json:"name"`
}

type dateRange struct {
	StartDate string `json:"startDate"`
	EndDate   string `json:"endDate"`
	Name      string `json:"name,omitempty"`
}

type minuteRange struct {
	StartMinutesAgo *int   `json:"startMinutesAgo,omitempty"`
	EndMinutesAgo   *int   `json:"endMinutesAgo,omitempty"`
	Name            string `json:"name,omitempty"`
}

type orderBy struct {
	Metric    *metricOrder    `json:"metric,omitempty"`
	Dimension *dimensionOrder `json:"dimension,omitempty"`
	Desc      bool            `json:"desc,omitempty"`
}

type metricOrder struct {
	MetricName string `json:"metricName"`
}

type dimensionOrder struct {
	DimensionName string `json:"dimensionName"`
	OrderType     string `json:"orderType,omitempty"`
}

// int64String reads a proto3 int64, sent as a JSON string or number.
type int64String int64

func (n *int64String) UnmarshalJSON(b []byte) error {
	var s json.Number
	if len(b) > 0 && b[0] == '"' {
		var str string
		if err := json.Unmarshal(b, &str); err != nil {
			return err
		}
		s = json.Number(str)
	} else if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := s.Int64()
	*n = int64String(v)
	return err
}

type dimensionHeader struct {
	Name string `json:"name"`
}

type metricHeader struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

type value struct {
	Value string `json:"value"`
}

type row struct {
	DimensionValues []value `json:"dimensionValues,omitempty"`
	MetricValues    []value `json:"metricValues,omitempty"`
}

type responseMetadata struct {
	CurrencyCode string `json:"currencyCode,omitempty"`
	TimeZone     string `json:"timeZone,omitempty"`
}

// reportResponse is RunReportResponse and RunRealtimeReportResponse.
type reportResponse struct {
	// Google omits an empty list, as it omits every empty field.
	DimensionHeaders []dimensionHeader `json:"dimensionHeaders,omitempty"`
	MetricHeaders    []metricHeader    `json:"metricHeaders,omitempty"`
	Rows             []row             `json:"rows,omitempty"`
	RowCount         int               `json:"rowCount,omitempty"`
	Metadata         *responseMetadata `json:"metadata,omitempty"`
	Kind             string            `json:"kind"`
}
