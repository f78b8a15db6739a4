package app_test

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
)

var (
	overviewCallsFigure = regexp.MustCompile(`<span class="big">(\d+)</span><span>tool and chat calls in`)
	overviewCallsChart  = regexp.MustCompile(`(?s)<svg class="chart"[^>]*aria-label="Tool and chat calls per (?:hour|day)[^"]*".*?</svg>`)
	overviewBar         = regexp.MustCompile(`<g><title>(?:.+?): (\d+)</title>`)
)

// TestConsoleOverviewCountsToolCalls: in the running gateway, the overview's
// calls figure is the calls chart's total and counts the REST tool calls,
// not the admin API and console requests made around them. Every call is
// made just before the page is read, so each lands in the range's last
// bar or the one before, whatever the time.
func TestConsoleOverviewCountsToolCalls(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	for range 3 {
		if r := env.Tool(env.DemoToken, "demo", "crm", "crm_contacts", listInput()); r.Status != 200 {
			t.Fatalf("tool call: %d %s", r.Status, r.Body)
		}
	}
	o := newOperator(t, env)
	o.signIn(apptest.AdminKey)
	for range 3 {
		env.Admin("GET", "/admin/tenants", nil)
		o.get("/console/tenants")
		o.get("/console/audit")
	}
	for _, rng := range []string{"24h", "7d"} {
		_, page := o.get("/console/?range=" + rng)
		figure, chart := overviewCallsFigure.FindStringSubmatch(page), overviewCallsChart.FindString(page)
		if figure == nil || chart == "" {
			t.Fatalf("%s: no calls figure or chart: %s", rng, page)
		}
		total := 0
		for _, m := range overviewBar.FindAllStringSubmatch(chart, -1) {
			n, _ := strconv.Atoi(m[1])
			total += n
		}
		if figure[1] != strconv.Itoa(total) || total != 3 {
			t.Errorf("%s: calls figure %s, chart total %d; want both 3", rng, figure[1], total)
		}
	}
}
