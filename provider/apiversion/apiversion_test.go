package apiversion

import (
	"strings"
	"testing"
	"time"
)

// TestDefaultsAreLive is a deliberate alarm: it fails from the day a default
// version is past its sunset, so that no release ships a version its
// provider refuses, and logs one within WarnBefore of it. CONTRIBUTING says
// how to move a version.
func TestDefaultsAreLive(t *testing.T) {
	now := time.Now()
	for _, p := range All() {
		v, ok := p.Lookup(p.Default)
		if !ok {
			t.Errorf("%s: default %s is not in its catalogue", p.Key, p.Default)
			continue
		}
		if s := p.Status(p.Default, now); s.Level == LevelWarning {
			t.Logf("%s: %s", p.Key, s.Message)
		}
		if !p.Live(p.Default, now) {
			t.Errorf("%s: default version %s is sunset on %s; move it (see CONTRIBUTING.md, Moving a provider API version)",
				p.Key, p.Default, v.Sunset.Format(time.DateOnly))
		}
	}
}

// TestCatalogue: every entry is complete, its versions are in order and
// shaped as the provider spells them, and each cites its source.
func TestCatalogue(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range All() {
		if p.Key == "" || p.Name == "" || !strings.HasPrefix(p.Setting, "GTMGATE_") || p.Pattern == nil || p.Where == "" || p.Policy == "" || len(p.Versions) == 0 {
			t.Errorf("incomplete entry: %+v", p)
			continue
		}
		if seen[p.Key] {
			t.Errorf("%s listed twice", p.Key)
		}
		seen[p.Key] = true
		for i, v := range p.Versions {
			if !p.Pattern.MatchString(v.Name) {
				t.Errorf("%s: version %q does not match its pattern", p.Key, v.Name)
			}
			if !strings.HasPrefix(v.Source, "https://") || v.Released.IsZero() {
				t.Errorf("%s %s: no source or release date", p.Key, v.Name)
			}
			if !v.Sunset.IsZero() && !v.Sunset.After(v.Released) {
				t.Errorf("%s %s: sunset before release", p.Key, v.Name)
			}
			if i > 0 && v.Released.Before(p.Versions[i-1].Released) {
				t.Errorf("%s: %s is listed after %s but released before it", p.Key, v.Name, p.Versions[i-1].Name)
			}
		}
	}
}

func TestStatus(t *testing.T) {
	p := Provider{Key: "x", Name: "X API", Setting: "GTMGATE_X_API_VERSION", Default: "v2", Versions: []Version{
		{Name: "v1", Released: day("2025-01-01"), Sunset: day("2026-01-01"), Source: "https://example.com"},
		{Name: "v2", Released: day("2025-06-01"), Sunset: day("2027-01-01"), Source: "https://example.com"},
		{Name: "v3", Released: day("2026-06-01"), Source: "https://example.com"},
	}}
	tests := []struct {
		name, version, now string
		level              Level
		days               int
		live               bool
		says               string
	}{
		{"default, far from sunset", "", "2026-06-01", LevelOK, 214, true, "supported until 2027-01-01"},
		{"91 days before", "v2", "2026-10-02", LevelOK, 91, true, "supported until"},
		{"90 days before", "v2", "2026-10-03", LevelWarning, 90, true, "GTMGATE_X_API_VERSION"},
		{"the day before", "v2", "2026-12-31", LevelWarning, 1, true, "(1 days)"},
		{"the sunset day", "v2", "2027-01-01", LevelSunset, 0, false, "was sunset on 2027-01-01"},
		{"long past", "v1", "2026-11-25", LevelSunset, -328, false, "newest known: v3"},
		{"no sunset announced", "v3", "2026-11-25", LevelOK, 0, true, "no sunset announced"},
		{"unknown version", "v9", "2026-11-25", LevelUnknown, 0, true, "not in this release's catalogue"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := p.Status(tt.version, day(tt.now))
			if s.Level != tt.level || s.DaysLeft != tt.days || !strings.Contains(s.Message, tt.says) {
				t.Errorf("got %s, %d days: %q", s.Level, s.DaysLeft, s.Message)
			}
			if got := p.Live(s.Version, day(tt.now)); got != tt.live {
				t.Errorf("Live = %v", got)
			}
		})
	}
	if got := NeedAttention([]Status{{Level: LevelOK}, {Level: LevelWarning}, {Level: LevelUnknown}, {Level: LevelSunset}}); len(got) != 2 {
		t.Errorf("NeedAttention kept %d", len(got))
	}
}

// TestLinkedInMonths: LinkedIn's catalogue has one version a month but
// December, without a gap, and each is served for at least a year (its
// versioning page's policy, from which the newest months' dates follow).
func TestLinkedInMonths(t *testing.T) {
	p := MustOf("linkedin_ads")
	for i, v := range p.Versions {
		if v.Released.Month() == time.December {
			t.Errorf("%s: LinkedIn releases no version in December", v.Name)
		}
		if v.Sunset.Before(v.Released.AddDate(1, 0, 0)) {
			t.Errorf("%s: sunset %s is within a year of its release", v.Name, v.Sunset.Format(time.DateOnly))
		}
		if i == 0 {
			continue
		}
		want := p.Versions[i-1].Released.AddDate(0, 1, 0)
		if want.Month() == time.December {
			want = want.AddDate(0, 1, 0)
		}
		if !v.Released.Equal(want) {
			t.Errorf("%s follows %s: a month is missing or repeated", v.Name, p.Versions[i-1].Name)
		}
	}
}
