package searchconsole

import (
	"slices"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/googleapi"
)

// filterGroup is the API's ApiDimensionFilterGroup.
type filterGroup struct {
	GroupType string      `json:"groupType,omitempty"`
	Filters   []dimFilter `json:"filters"`
}

// dimFilter is the API's ApiDimensionFilter; Operator is equals, notEquals,
// contains, notContains, includingRegex or excludingRegex.
type dimFilter struct {
	Dimension  string `json:"dimension"`
	Operator   string `json:"operator,omitempty"`
	Expression string `json:"expression"`
}

// operators maps the common filter operators to the API's.
var operators = map[string]string{
	"EQ": "equals", "NEQ": "notEquals", "CONTAINS_TOKEN": "contains", "NOT_CONTAINS_TOKEN": "notContains",
}

// filterDimensions are the dimensions the API filters on.
var filterDimensions = []string{"query", "page", "country", "device", "searchAppearance"}

// buildFilter maps a common filter to a one-filter group.
func buildFilter(f *gtmgate.Filter) (*filterGroup, error) {
	if !slices.Contains(filterDimensions, f.Property) {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "search_console_query: cannot filter on %q", f.Property).
			WithHint("filter on query, page, country (ISO 3166-1 alpha-3, e.g. usa), device (DESKTOP, MOBILE, TABLET) or searchAppearance")
	}
	op, ok := operators[f.Operator]
	if !ok {
		return nil, googleapi.Unsupported("search_console_query", f,
			"EQ, NEQ, CONTAINS_TOKEN or NOT_CONTAINS_TOKEN; for includingRegex/excludingRegex pass dimension_filter_groups")
	}
	s, ok := f.Value.(string)
	if !ok || s == "" {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "search_console_query: filter value must be a non-empty string, got %v", f.Value)
	}
	return &filterGroup{GroupType: "and", Filters: []dimFilter{{Dimension: f.Property, Operator: op, Expression: s}}}, nil
}

// validateGroups checks caller-supplied raw groups enough to fail fast with a
// clear message instead of a provider 400.
func validateGroups(groups []filterGroup) error {
	for i, g := range groups {
		for j, f := range g.Filters {
			if !slices.Contains(filterDimensions, f.Dimension) {
				return gtmgate.Errorf(gtmgate.EValidation, "dimension_filter_groups[%d].filters[%d]: unknown dimension %q", i, j, f.Dimension)
			}
		}
	}
	return nil
}
