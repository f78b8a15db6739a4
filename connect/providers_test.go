package connect

import (
	"net/url"
	"strings"
	"testing"
)

func TestFamily(t *testing.T) {
	t.Parallel()
	tests := []struct {
		key, want string
	}{
		{"google_ads", Google}, {"ga4", Google}, {"search_console", Google}, {"gmail", Google},
		{"google_calendar", Google}, {"bigquery", Google}, {"sheets", Google},
		{"hubspot", HubSpot}, {"meta_ads", Meta}, {"linkedin_ads", LinkedIn},
		{"brave", ""}, {"", ""},
	}
	for _, tt := range tests {
		p, ok := Family(tt.key)
		if ok != (tt.want != "") || p.Name != tt.want {
			t.Errorf("Family(%q) = %q, %v; want %q", tt.key, p.Name, ok, tt.want)
		}
	}
}

// TestCatalogue checks each entry is complete and its endpoints are https
// URLs, and that every provider key is in exactly one family.
func TestCatalogue(t *testing.T) {
	t.Parallel()
	seen := map[string]string{}
	c := &Client{}
	for _, p := range Providers() {
		if q, ok := Lookup(p.Name); !ok || q.Name != p.Name {
			t.Errorf("Lookup(%q) failed", p.Name)
		}
		if p.Title == "" || len(p.Covers) == 0 || p.ScopeSeparator == "" || p.AppDocs == "" || p.RedirectSetting == "" {
			t.Errorf("%s: incomplete entry %+v", p.Name, p)
		}
		for _, raw := range []string{p.Authorize.URL(nil, c.version(p.VersionKey)), c.TokenURL(p)} {
			u, err := url.Parse(raw)
			if err != nil || u.Scheme != "https" || strings.Contains(raw, "{") {
				t.Errorf("%s: endpoint %q", p.Name, raw)
			}
		}
		for _, k := range p.Covers {
			if other, dup := seen[k]; dup {
				t.Errorf("%s is in %s and %s", k, other, p.Name)
			}
			seen[k] = p.Name
		}
	}
	if _, ok := Lookup("brave"); ok {
		t.Error("brave has no OAuth")
	}
}

func TestEndpointOverride(t *testing.T) {
	t.Parallel()
	p := mustLookup(t, Meta)
	c := &Client{Bases: map[string]string{"meta_ads": "http://127.0.0.1:9/"}, Version: func(string) string { return "v27.0" }}
	if got, want := c.TokenURL(p), "http://127.0.0.1:9/v27.0/oauth/access_token"; got != want {
		t.Errorf("TokenURL = %s, want %s", got, want)
	}
}
