package linkedinads

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// dayOfReview is a day on which 202511 and older are sunset and 202601 to
// 202611 are served.
var dayOfReview = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

func TestOptionsVersion(t *testing.T) {
	def := catalogue().Default
	tests := []struct{ name, configured, want string }{
		{"empty is the catalogue default", "", def},
		{"configured version", "202604", "202604"},
		{"patch version", "202604.01", "202604.01"},
		{"malformed falls back", "2024-10", def},
		{"Meta shape falls back", "v26.0", def},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := Options("http://x", tt.configured)
			if opts.APIVersion != tt.want || opts.Header.Get("LinkedIn-Version") != tt.want || opts.Header.Get("X-Restli-Protocol-Version") != "2.0.0" {
				t.Errorf("APIVersion %q, headers %v; want %q", opts.APIVersion, opts.Header, tt.want)
			}
		})
	}
	if def != "202606" {
		t.Errorf("default = %s: check the adapter against LinkedIn's recent changes up to that version before moving it", def)
	}
}

// TestVersions: the sandbox serves the versions LinkedIn serves on the day of
// review and refuses the others as LinkedIn does; the adapter's error names
// the setting.
func TestVersions(t *testing.T) {
	tests := []struct {
		name, version string
		refused       string // LinkedIn's message when refused
	}{
		{"default", "", ""},
		{"oldest still served", "202601", ""},
		{"newest known", "202611", ""},
		{"newer than the catalogue", "202701", ""},
		{"sunset 2025-10-15", "202410", "Requested version 20241001 is not active"},
		{"sunset 2026-11-16", "202511", "Requested version 20251101 is not active"},
		{"never released", "202512", "Requested version 20251201 is not active"},
		{"older than the catalogue", "202312", "Requested version 20231201 is not active"},
		{"patch of a sunset month", "202509.01", "Requested version 202509.01 is not active"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			psb := NewSandbox()
			psb.Handler.(*Sandbox).now = func() time.Time { return dayOfReview }
			opts := Options(providertest.Serve(t, psb), tt.version)
			e := providertest.NewKit(Tools(upstream.MustNew(opts)), psb.Accounts[0], SandboxToken)
			_, err := e.Run(t, "linkedin_ads_campaigns", listInput)
			if tt.refused == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			ge := providertest.WantCode(t, err, gtmgate.EUpstream)
			d := ge.Detail.(gtmgate.UpstreamDetail)
			if d.Status != 426 || !strings.Contains(d.Body, `"code":"NONEXISTENT_VERSION"`) || !strings.Contains(ge.Message, tt.refused) {
				t.Errorf("error %q, detail %+v", ge.Message, d)
			}
			if !strings.Contains(ge.Message, "GTMGATE_LINKEDIN_ADS_API_VERSION") || !strings.Contains(ge.Hint, catalogue().Default) {
				t.Errorf("error %q, hint %q", ge.Message, ge.Hint)
			}
		})
	}
}

// TestSandboxRequiresHeaders: without LinkedIn-Version the sandbox answers
// LinkedIn's VERSION_MISSING, and without the Rest.li 2.0 header a 400.
func TestSandboxRequiresHeaders(t *testing.T) {
	psb := NewSandbox()
	psb.Handler.(*Sandbox).now = func() time.Time { return dayOfReview }
	srv := httptest.NewServer(psb.Handler)
	t.Cleanup(srv.Close)
	tests := []struct {
		name            string
		version, restli string
		status          int
		code, message   string
	}{
		{"both", "202606", "2.0.0", 200, "", ""},
		{"no version", "", "2.0.0", 400, "VERSION_MISSING", "A version must be present. Please specify a version by adding the LinkedIn-Version header."},
		{"sunset version", "202410", "2.0.0", 426, "NONEXISTENT_VERSION", "Requested version 20241001 is not active"},
		{"malformed version", "2026-06", "2.0.0", 426, "NONEXISTENT_VERSION", "Requested version 2026-06 is not active"},
		{"no Rest.li 2.0", "202606", "", 400, "ILLEGAL_ARGUMENT", "Rest.li protocol version 2.0.0 is required (X-Restli-Protocol-Version)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, srv.URL+"/rest/adAccounts/508123456", nil)
			req.Header.Set("Authorization", "Bearer "+SandboxToken)
			if tt.version != "" {
				req.Header.Set("LinkedIn-Version", tt.version)
			}
			if tt.restli != "" {
				req.Header.Set("X-Restli-Protocol-Version", tt.restli)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var body struct {
				Status        int
				Code, Message string
			}
			_ = json.NewDecoder(resp.Body).Decode(&body)
			if resp.StatusCode != tt.status || body.Code != tt.code || body.Message != tt.message {
				t.Errorf("got %d %+v", resp.StatusCode, body)
			}
			if tt.code != "" && body.Status != tt.status {
				t.Errorf("body status %d", body.Status)
			}
		})
	}
}
