package hubspot

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

func ptr(s string) *string { return &s }

func TestFilterGroups(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		filter  *gtmgate.Filter
		extra   []searchFilter
		want    []filterGroup
		wantErr string
	}{
		{name: "none", want: nil},
		{name: "eq string", filter: &gtmgate.Filter{Property: "lifecyclestage", Operator: "EQ", Value: "customer"},
			want: []filterGroup{{Filters: []searchFilter{{PropertyName: "lifecyclestage", Operator: "EQ", Value: ptr("customer")}}}}},
		{name: "lower-case operator", filter: &gtmgate.Filter{Property: "email", Operator: "neq", Value: ""},
			want: []filterGroup{{Filters: []searchFilter{{PropertyName: "email", Operator: "NEQ", Value: ptr("")}}}}},
		{name: "large number without exponent", filter: &gtmgate.Filter{Property: "amount", Operator: "GT", Value: 1e21},
			want: []filterGroup{{Filters: []searchFilter{{PropertyName: "amount", Operator: "GT", Value: ptr("1000000000000000000000")}}}}},
		{name: "fraction", filter: &gtmgate.Filter{Property: "amount", Operator: "LTE", Value: 0.000001},
			want: []filterGroup{{Filters: []searchFilter{{PropertyName: "amount", Operator: "LTE", Value: ptr("0.000001")}}}}},
		{name: "json number", filter: &gtmgate.Filter{Property: "amount", Operator: "GTE", Value: json.Number("2.5e3")},
			want: []filterGroup{{Filters: []searchFilter{{PropertyName: "amount", Operator: "GTE", Value: ptr("2500")}}}}},
		{name: "boolean", filter: &gtmgate.Filter{Property: "hs_is_closed", Operator: "EQ", Value: false},
			want: []filterGroup{{Filters: []searchFilter{{PropertyName: "hs_is_closed", Operator: "EQ", Value: ptr("false")}}}}},
		{name: "date passes through", filter: &gtmgate.Filter{Property: "closedate", Operator: "LT", Value: "2025-06-30T00:00:00Z"},
			want: []filterGroup{{Filters: []searchFilter{{PropertyName: "closedate", Operator: "LT", Value: ptr("2025-06-30T00:00:00Z")}}}}},
		{name: "between", filter: &gtmgate.Filter{Property: "amount", Operator: "BETWEEN", Value: []any{1000.0, "5000"}},
			want: []filterGroup{{Filters: []searchFilter{{PropertyName: "amount", Operator: "BETWEEN", Value: ptr("1000"), HighValue: ptr("5000")}}}}},
		{name: "in", filter: &gtmgate.Filter{Property: "dealstage", Operator: "IN", Value: []any{"closedwon", "closedlost"}},
			want: []filterGroup{{Filters: []searchFilter{{PropertyName: "dealstage", Operator: "IN", Values: []string{"closedwon", "closedlost"}}}}}},
		{name: "not in scalar becomes list", filter: &gtmgate.Filter{Property: "hs_task_status", Operator: "NOT_IN", Value: "COMPLETED"},
			want: []filterGroup{{Filters: []searchFilter{{PropertyName: "hs_task_status", Operator: "NOT_IN", Values: []string{"COMPLETED"}}}}}},
		{name: "has property", filter: &gtmgate.Filter{Property: "phone", Operator: "HAS_PROPERTY"},
			want: []filterGroup{{Filters: []searchFilter{{PropertyName: "phone", Operator: "HAS_PROPERTY"}}}}},
		{name: "contains token wildcard", filter: &gtmgate.Filter{Property: "email", Operator: "CONTAINS_TOKEN", Value: "*@acme.io"},
			want: []filterGroup{{Filters: []searchFilter{{PropertyName: "email", Operator: "CONTAINS_TOKEN", Value: ptr("*@acme.io")}}}}},
		{name: "extra filters share the group", filter: &gtmgate.Filter{Property: "hs_task_status", Operator: "EQ", Value: "WAITING"},
			extra: []searchFilter{{PropertyName: "associations.contact", Operator: "EQ", Value: ptr("1501")}},
			want: []filterGroup{{Filters: []searchFilter{{PropertyName: "hs_task_status", Operator: "EQ", Value: ptr("WAITING")},
				{PropertyName: "associations.contact", Operator: "EQ", Value: ptr("1501")}}}}},
		{name: "unknown operator", filter: &gtmgate.Filter{Property: "email", Operator: "LIKE", Value: "x"}, wantErr: "filter.operator"},
		{name: "empty property", filter: &gtmgate.Filter{Property: " ", Operator: "EQ", Value: "x"}, wantErr: "filter.property"},
		{name: "property with spaces", filter: &gtmgate.Filter{Property: "first name", Operator: "EQ", Value: "x"}, wantErr: "filter.property"},
		{name: "eq without value", filter: &gtmgate.Filter{Property: "email", Operator: "EQ"}, wantErr: "is required"},
		{name: "eq with array", filter: &gtmgate.Filter{Property: "email", Operator: "EQ", Value: []any{"a"}}, wantErr: "must be a string, number or boolean"},
		{name: "between scalar", filter: &gtmgate.Filter{Property: "amount", Operator: "BETWEEN", Value: 5.0}, wantErr: "[low, high]"},
		{name: "between three", filter: &gtmgate.Filter{Property: "amount", Operator: "BETWEEN", Value: []any{1.0, 2.0, 3.0}}, wantErr: "[low, high]"},
		{name: "between null bound", filter: &gtmgate.Filter{Property: "amount", Operator: "BETWEEN", Value: []any{1.0, nil}}, wantErr: "value[1]"},
		{name: "in empty", filter: &gtmgate.Filter{Property: "dealstage", Operator: "IN", Value: []any{}}, wantErr: "1 to 100"},
		{name: "in object", filter: &gtmgate.Filter{Property: "dealstage", Operator: "IN", Value: []any{map[string]any{}}}, wantErr: "value[0]"},
		{name: "has property with value", filter: &gtmgate.Filter{Property: "phone", Operator: "HAS_PROPERTY", Value: "x"}, wantErr: "omitted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := filterGroups(tt.filter, tt.extra...)
			if tt.wantErr != "" {
				ge := providertest.WantCode(t, err, gtmgate.EValidation)
				if !strings.Contains(ge.Message, tt.wantErr) {
					t.Fatalf("message %q does not mention %q", ge.Message, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Fatalf("filterGroups (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzFilterGroups checks that any filter a caller can send either maps onto
// valid filterGroups JSON or fails with a VALIDATION_ERROR, never a panic.
func FuzzFilterGroups(f *testing.F) {
	f.Add("amount", "BETWEEN", `[1, 2]`)
	f.Add("email", "CONTAINS_TOKEN", `"*@acme.io"`)
	f.Add("dealstage", "IN", `["a", 1, true]`)
	f.Add("phone", "HAS_PROPERTY", ``)
	f.Add("x", "EQ", `1e400`)
	f.Add("name", "EQ", `"\ud800"`)
	f.Add("a.b", "NOT_IN", `[[1]]`)
	f.Fuzz(func(t *testing.T, property, operator, value string) {
		filter := &gtmgate.Filter{Property: property, Operator: operator}
		if value != "" {
			var v any
			if json.Unmarshal([]byte(value), &v) != nil {
				return
			}
			filter.Value = v
		}
		groups, err := filterGroups(filter)
		if err != nil {
			if gtmgate.ErrorCode(err) != gtmgate.EValidation {
				t.Fatalf("error code %s, want VALIDATION_ERROR: %v", gtmgate.ErrorCode(err), err)
			}
			return
		}
		b, err := json.Marshal(hsSearchRequest{FilterGroups: groups})
		if err != nil || !json.Valid(b) {
			t.Fatalf("filterGroups %#v do not encode as JSON: %v", groups, err)
		}
	})
}
