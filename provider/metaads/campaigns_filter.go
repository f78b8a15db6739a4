package metaads

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gtmgate/gtmgate"
)

// The campaigns edge takes no filtering parameter: in the v26.0 SDK,
// AdAccount.get_campaigns takes date_preset, effective_status, is_completed
// and time_range only (the insights edge does take filtering). So a list
// filter on effective_status with EQ or IN becomes that parameter, and a
// filter on another campaign field is applied by the adapter to each page
// Meta returns, on the item as the tool shows it (budgets in currency units).

// campaignFilterFields are the item fields a campaigns list filter may name.
var campaignFilterFields = []string{"id", "name", "status", "effective_status", "objective", "daily_budget",
	"lifetime_budget", "budget_remaining", "start_time", "stop_time"}

// campaignFilter splits f into the effective_status values Meta filters on
// and a filter the adapter applies to items (either may be empty).
func campaignFilter(f *gtmgate.Filter) (statuses []string, local *gtmgate.Filter, err error) {
	if f == nil {
		return nil, nil, nil
	}
	if f.Property == "effective_status" && (f.Operator == "EQ" || f.Operator == "IN") {
		vals := []any{f.Value}
		if f.Operator == "IN" {
			vals, _ = f.Value.([]any)
		}
		for _, v := range vals {
			s, _ := v.(string)
			if !slices.Contains(EffectiveStatuses, s) {
				return nil, nil, gtmgate.Errorf(gtmgate.EValidation, "filter value %v is not an effective_status (%s)", v, strings.Join(EffectiveStatuses, ", "))
			}
			statuses = append(statuses, s)
		}
		if len(statuses) == 0 {
			return nil, nil, gtmgate.Errorf(gtmgate.EValidation, "filter on effective_status needs at least one value")
		}
		return statuses, nil, nil
	}
	if !slices.Contains(campaignFilterFields, f.Property) {
		return nil, nil, gtmgate.Errorf(gtmgate.EValidation, "filter property %q is not a campaign field (%s)", f.Property, strings.Join(campaignFilterFields, ", "))
	}
	if f.Operator == "HAS_PROPERTY" || f.Operator == "NOT_HAS_PROPERTY" {
		return nil, nil, gtmgate.Errorf(gtmgate.EValidation, "filter operator %s is not supported for meta_ads_campaigns.list", f.Operator)
	}
	return nil, f, nil
}

// matchCampaign applies a local filter to an item: numbers compare as
// numbers, text as text, and case-insensitively for the token operators.
func matchCampaign(item map[string]any, f *gtmgate.Filter) bool {
	v := item[f.Property]
	eq := func(want any) bool {
		a, okA := number(v)
		b, okB := number(want)
		if okA && okB {
			return a == b
		}
		return v != nil && fmt.Sprint(v) == fmt.Sprint(want)
	}
	// cmp orders numbers as numbers and text (start_time) as text.
	cmp := func(want any, ok func(a, b float64) bool) bool {
		a, okA := v.(float64)
		b, okB := want.(float64)
		if sa, isA := v.(string); isA {
			if sb, isB := want.(string); isB {
				return ok(float64(strings.Compare(sa, sb)), 0)
			}
		}
		return okA && okB && ok(a, b)
	}
	list, _ := f.Value.([]any)
	text := strings.ToLower(fmt.Sprint(v))
	token := strings.ToLower(fmt.Sprint(f.Value))
	switch f.Operator {
	case "EQ":
		return eq(f.Value)
	case "NEQ":
		return !eq(f.Value)
	case "LT":
		return cmp(f.Value, func(a, b float64) bool { return a < b })
	case "LTE":
		return cmp(f.Value, func(a, b float64) bool { return a <= b })
	case "GT":
		return cmp(f.Value, func(a, b float64) bool { return a > b })
	case "GTE":
		return cmp(f.Value, func(a, b float64) bool { return a >= b })
	case "BETWEEN":
		return len(list) == 2 && cmp(list[0], func(a, b float64) bool { return a >= b }) && cmp(list[1], func(a, b float64) bool { return a <= b })
	case "IN":
		return slices.ContainsFunc(list, eq)
	case "NOT_IN":
		return !slices.ContainsFunc(list, eq)
	case "CONTAINS_TOKEN":
		return v != nil && strings.Contains(text, token)
	case "NOT_CONTAINS_TOKEN":
		return v == nil || !strings.Contains(text, token)
	}
	return false
}
