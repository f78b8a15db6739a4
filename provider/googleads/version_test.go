package googleads

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/apiversion"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

func TestCatalogue(t *testing.T) {
	p := apiversion.MustOf(Provider)
	if DefaultVersion() != p.Default || p.Default != "v25" {
		t.Fatalf("default = %q (catalogue %q), want v25", DefaultVersion(), p.Default)
	}
	if _, ok := p.Lookup("v21"); !ok || p.Live("v21", lateNow) {
		t.Errorf("v21 should be catalogued and sunset on %s", lateNow.Format(time.DateOnly))
	}
	if !p.Live(p.Default, lateNow) || p.Status(p.Default, lateNow).Level != apiversion.LevelOK {
		t.Errorf("default %s is not live and clear of warnings on %s", p.Default, lateNow.Format(time.DateOnly))
	}
	for i, v := range p.Versions {
		if !p.Pattern.MatchString(v.Name) || v.Released.IsZero() || v.Sunset.IsZero() || !strings.HasPrefix(v.Source, "https://") {
			t.Errorf("incomplete entry %+v", v)
		}
		if !v.Sunset.After(v.Released) {
			t.Errorf("%s: sunset %s is not after release %s", v.Name, v.Sunset, v.Released)
		}
		if i > 0 && !v.Released.After(p.Versions[i-1].Released) {
			t.Errorf("%s is not newer than %s", v.Name, p.Versions[i-1].Name)
		}
	}
}

func TestOptions(t *testing.T) {
	tests := []struct {
		name, token, version string
		wantVersion          string
		wantHeader           bool
	}{
		{"empty version is the default", "dev", "", "v25", true},
		{"configured version", "dev", "v26", "v26", true},
		{"no developer token, no header", "", "", "v25", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := Options(DefaultBaseURL, tt.token, tt.version)
			if o.APIVersion != tt.wantVersion {
				t.Errorf("APIVersion = %q, want %q", o.APIVersion, tt.wantVersion)
			}
			if _, ok := o.Header["Developer-Token"]; ok != tt.wantHeader {
				t.Errorf("developer-token header present = %v, want %v", ok, tt.wantHeader)
			}
			if o.Header.Get("login-customer-id") != "" {
				t.Error("login-customer-id belongs to the account, not the client")
			}
		})
	}
}

func TestPathsCarryTheClientVersion(t *testing.T) {
	e := newEnvWith(t, envOptions{now: lateNow, version: "v26"})
	e.MustRun(t, "google_ads_campaigns", listInput)
	e.MustRun(t, "google_ads_campaigns", `{"rationale":"r","action":"update_status","campaign_id":"21000100001","status":"PAUSED"}`)
	if len(e.log.paths) < 2 {
		t.Fatalf("paths = %v", e.log.paths)
	}
	for _, p := range e.log.paths {
		if !strings.HasPrefix(p, "/v26/customers/1234567890/") {
			t.Errorf("path %q does not carry v26", p)
		}
	}
}

func TestUnservedVersionNamesTheSetting(t *testing.T) {
	tests := []struct {
		name, version, want string
	}{
		{"sunset version", "v21", "sunset on 2026-08-05"},
		{"older than the catalogue", "v20", "v20"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnvWith(t, envOptions{now: lateNow, version: tt.version})
			_, err := e.Run(t, "google_ads_campaigns", listInput)
			ge := providertest.WantCode(t, err, gtmgate.EUpstream)
			if d := ge.Detail.(gtmgate.UpstreamDetail); d.Status != http.StatusNotFound {
				t.Errorf("status = %d, want 404", d.Status)
			}
			for _, s := range []string{"GTMGATE_GOOGLE_ADS_API_VERSION", tt.version, tt.want} {
				if !strings.Contains(ge.Message, s) {
					t.Errorf("message %q does not mention %q", ge.Message, s)
				}
			}
		})
	}
}

func TestSandboxAnswersSunsetVersionWithGooglesPage(t *testing.T) {
	e := newEnvWith(t, envOptions{now: lateNow})
	tests := []struct {
		version string
		status  int
	}{{"v21", 404}, {"v22", 404}, {"v23", 200}, {"v26", 200}, {"v27", 200}, {"v2x", 404}}
	for _, tt := range tests {
		t.Run(tt.version, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, e.url+"/"+tt.version+"/customers/1234567890/googleAds:search",
				strings.NewReader(`{"query":"SELECT customer.id FROM customer"}`))
			req.Header.Set("Authorization", "Bearer "+SandboxToken)
			req.Header.Set("developer-token", "t")
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.status {
				t.Fatalf("status = %d, want %d: %s", resp.StatusCode, tt.status, body)
			}
			if tt.status == 404 && (!strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || !strings.Contains(string(body), "was not found on this server")) {
				t.Errorf("404 is not Google's page: %s", body)
			}
		})
	}
}

func TestErrorDetailsTypeUsesRequestVersion(t *testing.T) {
	for _, v := range []string{"v24", "v26"} {
		t.Run(v, func(t *testing.T) {
			e := newEnvWith(t, envOptions{now: lateNow, version: v})
			_, err := e.Run(t, "google_ads_report", `{"rationale":"r","query":"SELECT campaign.colour FROM campaign"}`)
			ge := providertest.WantCode(t, err, gtmgate.EUpstream)
			want := "google.ads.googleads." + v + ".errors.GoogleAdsFailure"
			if d := ge.Detail.(gtmgate.UpstreamDetail); !strings.Contains(d.Body, want) {
				t.Errorf("body %s lacks %s", d.Body, want)
			}
		})
	}
}
