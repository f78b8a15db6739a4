package console_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/admin"
	"github.com/gtmgate/gtmgate/audit"
	"github.com/gtmgate/gtmgate/console"
	"github.com/gtmgate/gtmgate/registry"
	"github.com/gtmgate/gtmgate/store/sqlite"
	"github.com/gtmgate/gtmgate/store/sqlstore"
	"github.com/gtmgate/gtmgate/store/storetest"
	"github.com/gtmgate/gtmgate/toolrun"
)

const adminKey = "overview-test-admin-key-0123456789"

// overviewNow is the clock of every overview test: 15:20 UTC, so the 24 h
// view's first hour is 16:00 the day before.
var overviewNow = time.Date(2026, 11, 25, 15, 20, 0, 0, time.UTC)

// overviewEnv is the console over the real admin API and a SQLite store,
// both on a fixed clock, served as the gateway serves them.
type overviewEnv struct {
	t        *testing.T
	url      string
	recorder *audit.Writer
	browser  *http.Client
}

func startOverview(t *testing.T) *overviewEnv {
	t.Helper()
	st, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "gtmgate.db"), &sqlstore.Options{Sealer: storetest.NewSealer(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	rec, err := audit.NewWriter(st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rec.Close)
	now := func() time.Time { return overviewNow }
	sum := sha256.Sum256([]byte(adminKey))
	keyHash := hex.EncodeToString(sum[:])
	reg, err := registry.New()
	if err != nil {
		t.Fatal(err)
	}
	runner := toolrun.New(toolrun.Options{Registry: reg, Store: st, Recorder: rec, Now: now})
	api := admin.New(admin.Options{Store: st, Recorder: rec, Runner: runner, KeyHash: keyHash, Now: now})
	c, err := console.New(console.Options{Admin: api, Sessions: st, Recorder: rec, KeyHash: keyHash,
		CSRFKey: []byte("overview-test-csrf-key"), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/admin/", api)
	mux.Handle("/console/", c)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	jar, _ := cookiejar.New(nil)
	e := &overviewEnv{t: t, url: srv.URL, recorder: rec, browser: &http.Client{Jar: jar}}
	if status, body := e.admin("PUT", "/admin/tenants/acme", `{"name": "Acme", "status": "active", "providers": {}}`); status >= 300 {
		t.Fatalf("put tenant: %d %s", status, body)
	}
	e.signIn()
	return e
}

// admin sends an admin API request with the admin key: an audited read or
// write that is no tool call.
func (e *overviewEnv) admin(method, path, body string) (int, string) {
	e.t.Helper()
	req, _ := http.NewRequest(method, e.url+path, strings.NewReader(body))
	req.Header.Set("X-Admin-Key", adminKey)
	req.Header.Set("Content-Type", "application/json")
	return e.send(http.DefaultClient, req)
}

func (e *overviewEnv) send(c *http.Client, req *http.Request) (int, string) {
	e.t.Helper()
	resp, err := c.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

func (e *overviewEnv) signIn() {
	e.t.Helper()
	_, form := e.page("/console/signin")
	m := csrfField.FindStringSubmatch(form)
	if m == nil {
		e.t.Fatalf("sign-in form has no CSRF token: %s", form)
	}
	resp, err := e.browser.PostForm(e.url+"/console/signin", url.Values{"csrf": {m[1]}, "admin_key": {adminKey}})
	if err != nil {
		e.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.Request.URL.Path != "/console/" {
		e.t.Fatalf("sign in ended at %s (%d)", resp.Request.URL, resp.StatusCode)
	}
}

// page is a console page read: audited with source console, no tool call.
func (e *overviewEnv) page(path string) (int, string) {
	e.t.Helper()
	req, _ := http.NewRequest("GET", e.url+path, nil)
	return e.send(e.browser, req)
}

// call records one metered call at, as the tool runner and chat do.
func (e *overviewEnv) call(at time.Time, source, tool string, ok bool) {
	e.t.Helper()
	outcome := gtmgate.OutcomeOK
	if !ok {
		outcome = gtmgate.OutcomeError
	}
	entry := gtmgate.AuditEntry{Time: at, TenantID: "acme", Action: tool + ".list", Source: source, Outcome: outcome, Status: 200,
		RequestID: "req-" + strconv.FormatInt(at.UnixNano(), 36) + "-" + source}
	usage := &gtmgate.UsageEvent{Time: at, TenantID: "acme", Source: source, Tool: tool, Action: "list", OK: ok, UpstreamMS: 10}
	if err := e.recorder.Record(e.t.Context(), entry, usage); err != nil {
		e.t.Fatal(err)
	}
}

var (
	callsChart  = regexp.MustCompile(`(?is)<svg class="chart"[^>]*aria-label="[^"]*calls per (hour|day)[^"]*".*?</svg>`)
	barTitle    = regexp.MustCompile(`<g [^>]*><title>(.+?): (\d+)(?: calls?| ms)?(?:, \d+ of them (?:an error|errors))?</title>`)
	callsFigure = regexp.MustCompile(`<span class="big">(\d+)</span><span>([^<]*calls[^<]*)</span>`)
	errsFigure  = regexp.MustCompile(`<span class="big">(\d+)</span><span>[^<]*errors`)
)

// overviewPage is what the overview shows: the calls chart's bars and the
// figures beside it.
type overviewPage struct {
	per           string // "hour" or "day"
	labels        []string
	bars          []int
	calls, errors int
	label         string // the calls figure's
}

func (p overviewPage) barTotal() int {
	n := 0
	for _, b := range p.bars {
		n += b
	}
	return n
}

func (e *overviewEnv) overview(rng string) overviewPage {
	e.t.Helper()
	status, body := e.page("/console/?range=" + rng)
	if status != 200 {
		e.t.Fatalf("overview %s: %d %s", rng, status, body)
	}
	chart := callsChart.FindStringSubmatch(body)
	calls, errs := callsFigure.FindStringSubmatch(body), errsFigure.FindStringSubmatch(body)
	if chart == nil || calls == nil || errs == nil {
		e.t.Fatalf("overview %s has no calls chart or figures: %s", rng, body)
	}
	p := overviewPage{per: chart[1], label: calls[2]}
	p.calls, _ = strconv.Atoi(calls[1])
	p.errors, _ = strconv.Atoi(errs[1])
	for _, m := range barTitle.FindAllStringSubmatch(chart[0], -1) {
		n, _ := strconv.Atoi(m[2])
		p.labels, p.bars = append(p.labels, m[1]), append(p.bars, n)
	}
	return p
}

// TestOverviewFiguresCountTheChart: the calls figure is the calls chart's
// total, however many admin API and console requests are audited beside the
// tool and chat calls; the errors figure counts the calls that failed.
func TestOverviewFiguresCountTheChart(t *testing.T) {
	e := startOverview(t)
	h := time.Hour
	e.call(overviewNow.Add(-15*time.Minute), gtmgate.SourceREST, "crm_contacts", true)
	e.call(overviewNow.Add(-10*time.Minute), gtmgate.SourceMCP, "crm_contacts", false)
	e.call(overviewNow.Add(-5*h), gtmgate.SourceChat, gtmgate.ChatUsageTool, true)
	e.call(overviewNow.Add(-3*24*h), gtmgate.SourceREST, "crm_deals", true)
	for range 5 {
		e.admin("GET", "/admin/tenants", "")
		e.admin("GET", "/admin/audit?limit=10", "")
		e.page("/console/tenants")
		e.page("/console/audit")
	}
	for _, tc := range []struct {
		rng           string
		calls, errors int
		label         string
	}{
		{"24h", 3, 1, "tool and chat calls in the last 24 hours"},
		{"7d", 4, 1, "tool and chat calls in the last 7 days (UTC)"},
		{"30d", 4, 1, "tool and chat calls in the last 30 days (UTC)"},
	} {
		t.Run(tc.rng, func(t *testing.T) {
			p := e.overview(tc.rng)
			if p.calls != p.barTotal() {
				t.Errorf("calls figure %d, calls chart's total %d", p.calls, p.barTotal())
			}
			if p.calls != tc.calls || p.errors != tc.errors {
				t.Errorf("figures: %d calls, %d errors; want %d, %d", p.calls, p.errors, tc.calls, tc.errors)
			}
			if p.label != tc.label {
				t.Errorf("calls figure says %q, want %q", p.label, tc.label)
			}
		})
	}
}

// TestOverviewBuckets: the 24 h view draws the 24 hours up to the current
// one, each labelled by its hour, and a call in the bar of its hour; the
// 7 d view draws the 7 UTC days up to today.
func TestOverviewBuckets(t *testing.T) {
	e := startOverview(t)
	e.call(time.Date(2026, 11, 25, 15, 5, 0, 0, time.UTC), gtmgate.SourceREST, "crm_contacts", true)
	e.call(time.Date(2026, 11, 25, 15, 6, 0, 0, time.UTC), gtmgate.SourceREST, "crm_contacts", true)
	e.call(time.Date(2026, 11, 25, 9, 30, 0, 0, time.UTC), gtmgate.SourceMCP, "crm_contacts", true)
	e.call(time.Date(2026, 11, 24, 16, 0, 0, 0, time.UTC), gtmgate.SourceREST, "crm_contacts", true)  // the 24 h's first hour
	e.call(time.Date(2026, 11, 24, 15, 59, 0, 0, time.UTC), gtmgate.SourceREST, "crm_contacts", true) // before it
	e.call(time.Date(2026, 11, 19, 0, 0, 0, 0, time.UTC), gtmgate.SourceREST, "crm_contacts", true)   // the 7 d's first day
	e.call(time.Date(2026, 11, 18, 23, 59, 0, 0, time.UTC), gtmgate.SourceREST, "crm_contacts", true) // before it

	hourly := e.overview("24h")
	var hours []string
	for h := 16; h < 16+24; h++ {
		hours = append(hours, fmt.Sprintf("%02d:00", h%24))
	}
	wantHourly := make([]int, 24)
	wantHourly[0], wantHourly[17], wantHourly[23] = 1, 1, 2 // 16:00, 09:00, 15:00
	if hourly.per != "hour" || !slices.Equal(hourly.labels, hours) || !slices.Equal(hourly.bars, wantHourly) {
		t.Errorf("24h chart per %s:\n labels %v\n bars %v\nwant labels %v\n bars %v", hourly.per, hourly.labels, hourly.bars, hours, wantHourly)
	}

	daily := e.overview("7d")
	wantDays := []string{"11-19", "11-20", "11-21", "11-22", "11-23", "11-24", "11-25"}
	wantDaily := []int{1, 0, 0, 0, 0, 2, 3}
	if daily.per != "day" || !slices.Equal(daily.labels, wantDays) || !slices.Equal(daily.bars, wantDaily) {
		t.Errorf("7d chart per %s:\n labels %v\n bars %v\nwant labels %v\n bars %v", daily.per, daily.labels, daily.bars, wantDays, wantDaily)
	}
}
