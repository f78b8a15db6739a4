package googleads

import (
	"testing"
)

func TestFlattenConvertsMicros(t *testing.T) {
	result := map[string]any{
		"campaign": map[string]any{"name": "YouTube | Product Demo"},
		"metrics": map[string]any{
			"costMicros": "12500000", "activeViewCpm": 4250000.0, "trueviewAverageCpv": 31000.5,
			"averageCpc": 1100000.0, "costPerPlatformComparableConversion": 50000000.0, "conversionsValue": 240.5,
		},
		"campaignBudget": map[string]any{"amountMicros": "50000000"},
	}
	mask := "campaign.name,metrics.costMicros,metrics.activeViewCpm,metrics.trueviewAverageCpv,metrics.averageCpc," +
		"metrics.costPerPlatformComparableConversion,metrics.conversionsValue,metrics.averageCpm,campaignBudget.amountMicros"
	row := flatten(result, mask)
	tests := []struct {
		key  string
		want any
	}{
		{"metrics.cost_micros", 12500000.0},
		{"metrics.cost", 12.5},
		{"metrics.active_view_cpm", 4.25},
		{"metrics.active_view_cpm_micros", 4250000.0},
		{"metrics.trueview_average_cpv", 0.031001},
		{"metrics.trueview_average_cpv_micros", 31000.5},
		{"metrics.average_cpc", 1.1},
		{"metrics.cost_per_platform_comparable_conversion", 50.0},
		{"metrics.conversions_value", 240.5}, // currency units already
		{"metrics.average_cpm", 0.0},         // omitted by Google: zero
		{"metrics.average_cpm_micros", 0.0},
		{"campaign_budget.amount", 50.0},
		{"campaign.name", "YouTube | Product Demo"},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			if got := row[tt.key]; got != tt.want {
				t.Errorf("%s = %v, want %v", tt.key, got, tt.want)
			}
		})
	}
	if _, ok := row["metrics.conversions_value_micros"]; ok {
		t.Error("conversions_value is not micros")
	}
}
