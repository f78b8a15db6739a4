package googleads

import (
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
)

func TestCheckRawQuery(t *testing.T) {
	tests := []struct {
		name, query string
		ok          bool
	}{
		{"select", "SELECT campaign.name, metrics.clicks FROM campaign WHERE segments.date DURING LAST_7_DAYS", true},
		{"lowercase", "select campaign.id from campaign limit 5", true},
		{"mutate keyword", "UPDATE campaign SET status = 'PAUSED'", false},
		{"delete", "DELETE FROM campaign", false},
		{"second statement", "SELECT campaign.id FROM campaign; SELECT customer.id FROM customer", false},
		{"comment", "SELECT campaign.id FROM campaign -- all", false},
		{"no from", "SELECT campaign.id", false},
		{"empty", "   ", false},
		{"unterminated string", "SELECT campaign.id FROM campaign WHERE campaign.name = 'x", false},
		{"backslash escape", `SELECT campaign.id FROM campaign WHERE campaign.name = 'a\' OR 1=1'`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := checkRawQuery(tt.query); (err == nil) != tt.ok {
				t.Fatalf("checkRawQuery(%q) = %v, want ok=%v", tt.query, err, tt.ok)
			}
		})
	}
}

func TestReportSpecBuild(t *testing.T) {
	tests := []struct {
		name string
		spec reportSpec
		want string // "" means build must fail
	}{
		{"preset", reportSpec{Resource: "campaign", Fields: []string{"name"}, Metrics: []string{"clicks", "metrics.cost_micros"}, DateRange: "LAST_7_DAYS"},
			"SELECT campaign.name, metrics.clicks, metrics.cost_micros, customer.currency_code FROM campaign WHERE segments.date DURING LAST_7_DAYS"},
		{"dates and order", reportSpec{Resource: "ad_group", Fields: []string{"name"}, Segments: []string{"date"}, Metrics: []string{"impressions"},
			StartDate: "2025-05-01", EndDate: "2025-05-31", OrderBy: "metrics.impressions", Descending: true},
			"SELECT ad_group.name, segments.date, metrics.impressions, customer.currency_code FROM ad_group WHERE segments.date BETWEEN '2025-05-01' AND '2025-05-31' ORDER BY metrics.impressions DESC"},
		{"metrics default to 30 days", reportSpec{Resource: "campaign", Metrics: []string{"clicks"}},
			"SELECT metrics.clicks, customer.currency_code FROM campaign WHERE segments.date DURING LAST_30_DAYS"},
		{"attributes only", reportSpec{Resource: "campaign", Fields: []string{"id", "status"}},
			"SELECT campaign.id, campaign.status, customer.currency_code FROM campaign"},
		{"constant has no customer fields", reportSpec{Resource: "geo_target_constant", Fields: []string{"name"}},
			"SELECT geo_target_constant.name FROM geo_target_constant"},
		{"unlisted resource gets no customer fields", reportSpec{Resource: "landing_page_view", Fields: []string{"unexpanded_final_url"}, Metrics: []string{"clicks"}},
			"SELECT landing_page_view.unexpanded_final_url, metrics.clicks FROM landing_page_view WHERE segments.date DURING LAST_30_DAYS"},
		{"resource injection", reportSpec{Resource: "campaign WHERE 1=1", Fields: []string{"id"}}, ""},
		{"field injection", reportSpec{Resource: "campaign", Fields: []string{"name FROM customer --"}}, ""},
		{"metric injection", reportSpec{Resource: "campaign", Metrics: []string{"clicks) OR (1"}}, ""},
		{"order injection", reportSpec{Resource: "campaign", Fields: []string{"id"}, OrderBy: "id; DROP"}, ""},
		{"date injection", reportSpec{Resource: "campaign", Metrics: []string{"clicks"}, StartDate: "2025-01-01' OR '1'='1", EndDate: "2025-01-31"}, ""},
		{"preset injection", reportSpec{Resource: "campaign", Metrics: []string{"clicks"}, DateRange: "LAST_7_DAYS OR 1=1"}, ""},
		{"both ranges", reportSpec{Resource: "campaign", Metrics: []string{"clicks"}, DateRange: "LAST_7_DAYS", StartDate: "2025-01-01", EndDate: "2025-01-02"}, ""},
		{"end before start", reportSpec{Resource: "campaign", Metrics: []string{"clicks"}, StartDate: "2025-02-01", EndDate: "2025-01-01"}, ""},
		{"nothing selected", reportSpec{Resource: "campaign"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.spec.build()
			if tt.want == "" {
				if err == nil {
					t.Fatalf("build() = %q, want error", got)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("build() = %q, %v\nwant %q", got, err, tt.want)
			}
		})
	}
}

func TestCondition(t *testing.T) {
	tests := []struct {
		name   string
		filter gtmgate.Filter
		want   string // "" means refused
	}{
		{"eq enum", gtmgate.Filter{Property: "status", Operator: "EQ", Value: "PAUSED"}, "campaign.status = 'PAUSED'"},
		{"number", gtmgate.Filter{Property: "metrics.clicks", Operator: "GT", Value: 100.0}, "metrics.clicks > 100"},
		{"decimal", gtmgate.Filter{Property: "metrics.ctr", Operator: "LTE", Value: 0.05}, "metrics.ctr <= 0.05"},
		{"apostrophe uses double quotes", gtmgate.Filter{Property: "name", Operator: "EQ", Value: "Brand's"}, `campaign.name = "Brand's"`},
		{"both quotes refused", gtmgate.Filter{Property: "name", Operator: "EQ", Value: `a' OR "1"="1`}, ""},
		{"backslash refused", gtmgate.Filter{Property: "name", Operator: "EQ", Value: `x\' OR 1=1`}, ""},
		{"newline refused", gtmgate.Filter{Property: "name", Operator: "EQ", Value: "x\nOR"}, ""},
		{"in", gtmgate.Filter{Property: "status", Operator: "IN", Value: []any{"ENABLED", "PAUSED"}}, "campaign.status IN ('ENABLED', 'PAUSED')"},
		{"not in", gtmgate.Filter{Property: "campaign.id", Operator: "NOT_IN", Value: []any{1.0, 2.0}}, "campaign.id NOT IN (1, 2)"},
		{"between", gtmgate.Filter{Property: "metrics.cost_micros", Operator: "BETWEEN", Value: []any{1e6, 5e6}}, "metrics.cost_micros BETWEEN 1000000 AND 5000000"},
		{"contains escapes wildcards", gtmgate.Filter{Property: "name", Operator: "CONTAINS_TOKEN", Value: "50%_off"}, "campaign.name LIKE '%50[%][_]off%'"},
		{"not contains", gtmgate.Filter{Property: "name", Operator: "NOT_CONTAINS_TOKEN", Value: "Brand"}, "campaign.name NOT LIKE '%Brand%'"},
		{"has property", gtmgate.Filter{Property: "end_date_time", Operator: "HAS_PROPERTY"}, "campaign.end_date_time IS NOT NULL"},
		{"property injection", gtmgate.Filter{Property: "status = 'ENABLED' OR campaign.id", Operator: "EQ", Value: "x"}, ""},
		{"object value", gtmgate.Filter{Property: "status", Operator: "EQ", Value: map[string]any{"a": 1.0}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := condition(&tt.filter, "campaign")
			if tt.want == "" {
				if err == nil {
					t.Fatalf("condition() = %q, want error", got)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("condition() = %q, %v; want %q", got, err, tt.want)
			}
			if _, err := parseGAQL("SELECT campaign.id FROM campaign WHERE " + got); err != nil && !strings.Contains(got, "IS NOT NULL") {
				t.Fatalf("condition %q does not parse: %v", got, err)
			}
		})
	}
}
