package googleads

import (
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
)

// FuzzReportSpec: whatever the structured input, build either refuses it or
// returns one SELECT on the given resource whose only conditions are on segments.date.
func FuzzReportSpec(f *testing.F) {
	f.Add("campaign", "name", "clicks", "date", "LAST_7_DAYS", "", "", "metrics.clicks")
	f.Add("campaign WHERE 1=1", "name", "clicks)", "", "", "2025-01-01' OR 'a'='a", "2025-01-02", "x; y")
	f.Fuzz(func(t *testing.T, resource, field, metric, segment, preset, start, end, order string) {
		spec := reportSpec{Resource: resource, Fields: []string{field}, Metrics: []string{metric}, Segments: []string{segment},
			DateRange: preset, StartDate: start, EndDate: end, OrderBy: order}
		q, err := spec.build()
		if err != nil {
			return
		}
		if err := checkRawQuery(q); err != nil {
			t.Fatalf("built query %q is not a SELECT: %v", q, err)
		}
		parsed, err := parseGAQL(q)
		if err != nil {
			t.Fatalf("built query %q does not parse: %v", q, err)
		}
		if parsed.Resource != resource {
			t.Fatalf("resource %q became %q in %q", resource, parsed.Resource, q)
		}
		for _, c := range parsed.Where {
			if c.Field != "segments.date" || (c.Op != "DURING" && c.Op != "BETWEEN") {
				t.Fatalf("input added condition %+v to %q", c, q)
			}
		}
	})
}

// FuzzCondition: a filter becomes exactly one condition on the named
// property whose value is the input value, or is refused.
func FuzzCondition(f *testing.F) {
	f.Add("name", "EQ", "Brand's")
	f.Add("status", "CONTAINS_TOKEN", `x' OR campaign.id > 0 OR 'y`)
	f.Add("name", "NEQ", "\" OR 1=1 --")
	f.Fuzz(func(t *testing.T, prop, op, value string) {
		c, err := condition(&gtmgate.Filter{Property: prop, Operator: op, Value: value}, "campaign")
		if err != nil {
			return
		}
		parsed, err := parseGAQL("SELECT campaign.id FROM campaign WHERE " + c)
		if err != nil {
			t.Fatalf("condition %q does not parse: %v", c, err)
		}
		if len(parsed.Where) != 1 {
			t.Fatalf("filter %q %s %q became %d conditions: %q", prop, op, value, len(parsed.Where), c)
		}
		want := prop
		if !strings.Contains(prop, ".") {
			want = "campaign." + prop
		}
		if parsed.Where[0].Field != want {
			t.Fatalf("condition field = %q, want %q", parsed.Where[0].Field, want)
		}
		if op == "EQ" || op == "NEQ" {
			if got := parsed.Where[0].Values[0]; got != value {
				t.Fatalf("value %q came back as %v", value, got)
			}
		}
	})
}

// FuzzCheckRawQuery: the validator never panics and accepts only SELECT statements.
func FuzzCheckRawQuery(f *testing.F) {
	f.Add("SELECT campaign.id FROM campaign")
	f.Add("select x from y; drop")
	f.Fuzz(func(t *testing.T, q string) {
		if checkRawQuery(q) == nil {
			toks, _ := lexGAQL(q)
			if !toks[0].is("SELECT") {
				t.Fatalf("accepted %q", q)
			}
		}
		_, _ = parseGAQL(q)
	})
}
