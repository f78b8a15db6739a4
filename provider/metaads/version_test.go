package metaads

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// dayOfReview is a day on which v24.0 and older have expired and v25.0 to
// v27.0 are served.
var dayOfReview = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

func TestOptionsVersion(t *testing.T) {
	tests := []struct{ name, configured, want string }{
		{"empty is the catalogue default", "", catalogue().Default},
		{"configured version", "v25.0", "v25.0"},
		{"version newer than the catalogue", "v28.0", "v28.0"},
		{"not a Graph version falls back", "v26.0/../act_1", catalogue().Default},
		{"LinkedIn shape falls back", "202606", catalogue().Default},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Options("http://x", tt.configured).APIVersion; got != tt.want {
				t.Errorf("APIVersion = %q, want %q", got, tt.want)
			}
		})
	}
	if d := catalogue().Default; d != "v26.0" {
		t.Errorf("default = %s: check the adapter against that version's changelog and SDK field lists before moving it", d)
	}
}

// versionEnv is a test environment whose client speaks version and whose
// sandbox records the paths it is asked for.
func versionEnv(t *testing.T, version string, now time.Time) (*env, *[]string) {
	t.Helper()
	psb := NewSandbox()
	sb := psb.Handler.(*Sandbox)
	sb.now = func() time.Time { return now }
	var paths []string
	psb.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.URL.Path)
		sb.ServeHTTP(w, r)
	})
	opts := Options(providertest.Serve(t, psb), version)
	opts.Backoff = time.Millisecond
	return &env{Kit: providertest.NewKit(Tools(upstream.MustNew(opts)), psb.Accounts[0], SandboxToken), sb: sb}, &paths
}

func TestVersions(t *testing.T) {
	tests := []struct {
		name, version string
		refused       bool
	}{
		{"default", "", false},
		{"oldest still served", "v25.0", false},
		{"newest known", "v27.0", false},
		{"newer than the catalogue", "v28.0", false},
		{"expired 2025-09-09", "v21.0", true},
		{"expired 2026-11-10", "v24.0", true},
		{"older than the catalogue", "v20.0", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, paths := versionEnv(t, tt.version, dayOfReview)
			want := Options("http://x", tt.version).APIVersion
			_, err := e.Run(t, "meta_ads_campaigns", `{"rationale":"r","action":"list"}`)
			for _, p := range *paths {
				if !strings.HasPrefix(p, "/"+want+"/") {
					t.Errorf("path %s does not start with /%s/", p, want)
				}
			}
			if !tt.refused {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			ge := providertest.WantCode(t, err, gtmgate.EUpstream)
			d := ge.Detail.(gtmgate.UpstreamDetail)
			if d.Status != 400 || !strings.Contains(d.Body, `"code":2635`) || !strings.Contains(d.Body, "You are calling a deprecated version of the Ads API") {
				t.Errorf("detail = %+v", d)
			}
			if !strings.Contains(ge.Message, "GTMGATE_META_ADS_API_VERSION") || !strings.Contains(ge.Message, want) ||
				!strings.Contains(ge.Hint, catalogue().Default) {
				t.Errorf("error = %q, hint %q", ge.Message, ge.Hint)
			}
		})
	}
}

// TestSandboxGraphErrors: the sandbox answers a version and fields the way
// Graph does, in Graph's error envelope.
func TestSandboxGraphErrors(t *testing.T) {
	sb := newSandbox(func() time.Time { return dayOfReview })
	srv := httptest.NewServer(sb)
	t.Cleanup(srv.Close)
	tests := []struct {
		name, path string
		status     int
		code       int
		message    string
	}{
		{"expired version", "/v23.0/act_1012345678901234?fields=currency", 400, 2635,
			"(#2635) You are calling a deprecated version of the Ads API. Please update to the latest version: v27.0."},
		{"no version", "/act_1012345678901234?fields=currency", 400, 2500, "Unknown path components: /act_1012345678901234"},
		{"unknown insights field", "/v26.0/act_1012345678901234/insights?fields=impressions,bogus_metric", 400, 100,
			"(#100) bogus_metric is not valid for fields param. please check https://developers.facebook.com/docs/marketing-api/reference/ads-insights/ for all valid values"},
		{"fields removed in v19.0", "/v26.0/act_1012345678901234/insights?fields=age_targeting,labels", 400, 100,
			"(#100) age_targeting, labels are not valid for fields param after V19.0"},
		{"field removed in v26.0", "/v26.0/act_1012345678901234/insights?fields=marketing_messages_website_purchase", 400, 100,
			"(#100) marketing_messages_website_purchase is not valid for fields param after V26.0"},
		{"that field on v25.0", "/v25.0/act_1012345678901234/insights?fields=marketing_messages_website_purchase", 200, 0, ""},
		{"valid field the sandbox does not compute", "/v26.0/act_1012345678901234/insights?fields=inline_link_clicks", 200, 0, ""},
		{"unknown breakdown", "/v26.0/act_1012345678901234/insights?fields=impressions&breakdowns=creative_fingerprint", 400, 100,
			"(#100) creative_fingerprint is not valid for breakdowns param. please check https://developers.facebook.com/docs/marketing-api/insights/breakdowns/ for all valid values"},
		{"unknown campaign field", "/v26.0/236100000000000?fields=name,bogus", 400, 100,
			"(#100) Tried accessing nonexisting field (bogus) on node type (Campaign)"},
		{"unknown field on the campaigns edge", "/v26.0/act_1012345678901234/campaigns?fields=id,objective_type", 400, 100,
			"(#100) Tried accessing nonexisting field (objective_type) on node type (Campaign)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var body graphErrorBody
			status := sandboxGet(t, srv.URL+tt.path, &body)
			if status != tt.status || body.Error.Code != tt.code || body.Error.Message != tt.message {
				t.Fatalf("got %d %+v", status, body.Error)
			}
			if tt.code != 0 && body.Error.Type != "OAuthException" {
				t.Errorf("type = %s", body.Error.Type)
			}
		})
	}
}

func sandboxGet(t *testing.T, url string, out any) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Authorization", "Bearer "+SandboxToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return resp.StatusCode
}

func TestPagingNextRepeatsTheVersionedPath(t *testing.T) {
	srv := httptest.NewServer(newSandbox(func() time.Time { return dayOfReview }))
	t.Cleanup(srv.Close)
	var page struct {
		Paging struct {
			Next string `json:"next"`
		} `json:"paging"`
	}
	sandboxGet(t, srv.URL+"/v25.0/act_1012345678901234/campaigns?fields=id&limit=2", &page)
	if !strings.HasPrefix(page.Paging.Next, "https://graph.facebook.com/v25.0/act_1012345678901234/campaigns?") {
		t.Errorf("next = %s", page.Paging.Next)
	}
}

// TestAdapterFieldsExistInV26: every field the adapter asks for is one the
// SDK generates for the default version.
func TestAdapterFieldsExistInV26(t *testing.T) {
	for _, f := range strings.Split(campaignFields, ",") {
		if !slices.Contains(graphCampaignFields, f) {
			t.Errorf("campaign field %s", f)
		}
	}
	for _, f := range append(append(slices.Clone(defaultInsightFields), textFields...), "account_currency") {
		if f != "action_type" && !slices.Contains(graphInsightsFields, f) {
			t.Errorf("insights field %s", f)
		}
	}
}

func TestReachWithheldWithOldBreakdowns(t *testing.T) {
	now := time.Now().UTC()
	old := now.AddDate(0, -reachMonths-1, 0).Format(time.DateOnly)
	recent := now.AddDate(0, 0, -20).Format(time.DateOnly)
	until := now.AddDate(0, 0, -1).Format(time.DateOnly)
	tests := []struct {
		name, input string
		withheld    bool
	}{
		{"old range with breakdowns", `"since":"` + old + `","until":"` + until + `","breakdowns":["gender"]`, true},
		{"maximum with breakdowns", `"date_preset":"maximum","breakdowns":["age"]`, true},
		{"old range without breakdowns", `"since":"` + old + `","until":"` + until + `"`, false},
		{"recent range with breakdowns", `"since":"` + recent + `","until":"` + until + `","breakdowns":["gender"]`, false},
		{"old range, reach not asked for", `"since":"` + old + `","until":"` + until + `","breakdowns":["gender"],"fields":["spend"]`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.sb.now = time.Now
			out := e.MustRun(t, "meta_ads_insights", `{"rationale":"r",`+tt.input+`}`)
			rows := providertest.Items(t, out)
			if len(rows) == 0 {
				t.Fatal("no rows")
			}
			_, hasReach := rows[0]["reach"]
			_, noted := out["notes"]
			if noted != tt.withheld || (tt.withheld && hasReach) {
				t.Errorf("notes %v, reach %v", out["notes"], rows[0]["reach"])
			}
		})
	}
}
