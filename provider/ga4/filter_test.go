package ga4

import (
	"encoding/json"
	"testing"

	"github.com/gtmgate/gtmgate"
)

func TestBuildFilter(t *testing.T) {
	t.Parallel()
	metrics := []string{"sessions", "engagementRate"}
	tests := []struct {
		name     string
		filter   gtmgate.Filter
		want     string
		isMetric bool
	}{
		{"EQ dimension", gtmgate.Filter{Property: "country", Operator: "EQ", Value: "Germany"},
			`{"filter":{"fieldName":"country","stringFilter":{"matchType":"EXACT","value":"Germany"}}}`, false},
		{"EQ metric", gtmgate.Filter{Property: "sessions", Operator: "EQ", Value: 10.0},
			`{"filter":{"fieldName":"sessions","numericFilter":{"operation":"EQUAL","value":{"int64Value":"10"}}}}`, true},
		{"NEQ dimension", gtmgate.Filter{Property: "country", Operator: "NEQ", Value: "Germany"},
			`{"notExpression":{"filter":{"fieldName":"country","stringFilter":{"matchType":"EXACT","value":"Germany"}}}}`, false},
		{"GTE double", gtmgate.Filter{Property: "engagementRate", Operator: "GTE", Value: 0.5},
			`{"filter":{"fieldName":"engagementRate","numericFilter":{"operation":"GREATER_THAN_OR_EQUAL","value":{"doubleValue":0.5}}}}`, true},
		{"LT numeric string", gtmgate.Filter{Property: "sessions", Operator: "LT", Value: "7"},
			`{"filter":{"fieldName":"sessions","numericFilter":{"operation":"LESS_THAN","value":{"int64Value":"7"}}}}`, true},
		{"BETWEEN", gtmgate.Filter{Property: "sessions", Operator: "BETWEEN", Value: []any{1.0, 2.5}},
			`{"filter":{"fieldName":"sessions","betweenFilter":{"fromValue":{"int64Value":"1"},"toValue":{"doubleValue":2.5}}}}`, true},
		{"IN single value", gtmgate.Filter{Property: "country", Operator: "IN", Value: "France"},
			`{"filter":{"fieldName":"country","inListFilter":{"values":["France"]}}}`, false},
		{"NOT_IN", gtmgate.Filter{Property: "country", Operator: "NOT_IN", Value: []any{"France", "Germany"}},
			`{"notExpression":{"filter":{"fieldName":"country","inListFilter":{"values":["France","Germany"]}}}}`, false},
		{"CONTAINS_TOKEN", gtmgate.Filter{Property: "landingPage", Operator: "CONTAINS_TOKEN", Value: "blog"},
			`{"filter":{"fieldName":"landingPage","stringFilter":{"matchType":"CONTAINS","value":"blog"}}}`, false},
		{"HAS_PROPERTY", gtmgate.Filter{Property: "landingPage", Operator: "HAS_PROPERTY"},
			`{"notExpression":{"filter":{"fieldName":"landingPage","emptyFilter":{}}}}`, false},
		{"NOT_HAS_PROPERTY", gtmgate.Filter{Property: "landingPage", Operator: "NOT_HAS_PROPERTY"},
			`{"filter":{"fieldName":"landingPage","emptyFilter":{}}}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e, isMetric, err := buildFilter("ga4_report", &tt.filter, metrics)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.Marshal(e)
			if string(got) != tt.want || isMetric != tt.isMetric {
				t.Errorf("got %s (metric %v)\nwant %s (metric %v)", got, isMetric, tt.want, tt.isMetric)
			}
		})
	}
}
