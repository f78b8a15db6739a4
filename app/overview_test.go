package app_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
)

var (
	overviewCallsFigure = regexp.MustCompile(`<span class="big">(\d+)</span><span>tool and chat calls in`)
	overviewCallsChart  = regexp.MustCompile(`(?s)<svg class="chart"[^>]*aria-label="Tool and chat calls per (?:hour|day)[^"]*".*?</svg>`)
	overviewBar         = regexp.MustCompile(`<g [^>]*><title>(?:.+?): (\d+) calls(?:, \d+ of them errors)?</title>`)
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

// TestConsoleOverviewOnAFreshInstall: right after start, the overview's
// default range (7 days) says why its charts are empty and where calls will
// show; each bar, empty or not, is focusable and named by its value, which
// its tooltip repeats. After a call the note is gone and the day's bar
// names it.
func TestConsoleOverviewOnAFreshInstall(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	o := newOperator(t, env)
	o.signIn(apptest.AdminKey)
	_, page := o.get("/console/")
	if !strings.Contains(page, "No tool or chat calls in the last 7 days (UTC) yet") {
		t.Errorf("a fresh overview does not say why it is empty: %s", page)
	}
	bars := regexp.MustCompile(`<g tabindex="0" role="img" aria-label="([^"]+)"><title>([^<]+)</title>`).FindAllStringSubmatch(overviewCallsChart.FindString(page), -1)
	if len(bars) != 7 {
		t.Fatalf("%d focusable bars in the 7-day calls chart, want 7", len(bars))
	}
	for _, b := range bars {
		if b[1] != b[2] || !strings.HasSuffix(b[1], ": 0 calls") {
			t.Errorf("bar named %q with tooltip %q, want one value of 0 calls", b[1], b[2])
		}
	}
	if r := env.Tool(env.DemoToken, "demo", "crm", "crm_contacts", listInput()); r.Status != 200 {
		t.Fatalf("tool call: %d %s", r.Status, r.Body)
	}
	_, page = o.get("/console/")
	if strings.Contains(page, "No tool or chat calls") || !regexp.MustCompile(`aria-label="\d\d-\d\d: 1 call"`).MatchString(overviewCallsChart.FindString(page)) {
		t.Errorf("after a call the overview still says it has none, or today's bar does not name it")
	}
}
