package schedule

import (
	"testing"
	"time"
)

func mustParse(t *testing.T, expr, tz string) *Expression {
	t.Helper()
	e, err := Parse(expr, tz)
	if err != nil {
		t.Fatalf("Parse(%q, %q): %v", expr, tz, err)
	}
	return e
}

// TestNextAcrossDST walks schedules over Berlin's 2026 clock changes
// (29 March 02:00 → 03:00, 25 October 03:00 → 02:00) with a fixed clock.
func TestNextAcrossDST(t *testing.T) {
	utc := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		name, expr, tz string
		from           string
		want           []string
	}{
		{"Monday 8:00 keeps local time across spring forward", "0 8 * * MON", "Europe/Berlin", "2026-03-20T00:00:00Z",
			[]string{"2026-03-23T07:00:00Z", "2026-03-30T06:00:00Z", "2026-04-06T06:00:00Z"}},
		{"Monday 8:00 keeps local time across fall back", "0 8 * * MON", "Europe/Berlin", "2026-10-20T00:00:00Z",
			[]string{"2026-10-26T07:00:00Z", "2026-11-02T07:00:00Z"}},
		{"02:30 does not exist on spring-forward day: that day is skipped", "30 2 * * *", "Europe/Berlin", "2026-03-28T00:00:00Z",
			[]string{"2026-03-28T01:30:00Z", "2026-03-30T00:30:00Z"}},
		{"02:30 happens twice on fall-back day: it runs once", "30 2 * * *", "Europe/Berlin", "2026-10-24T12:00:00Z",
			[]string{"2026-10-25T00:30:00Z", "2026-10-26T01:30:00Z"}},
		{"hourly in New York is hourly in UTC across the change", "0 * * * *", "America/New_York", "2026-03-08T05:30:00Z",
			[]string{"2026-03-08T06:00:00Z", "2026-03-08T07:00:00Z", "2026-03-08T08:00:00Z"}},
		{"hourly ticks every real hour through the repeated hour", "0 * * * *", "Europe/Berlin", "2026-10-24T23:30:00Z",
			[]string{"2026-10-25T00:00:00Z", "2026-10-25T01:00:00Z", "2026-10-25T02:00:00Z"}},
		{"descriptor in UTC", "@daily", "", "2026-01-01T10:00:00Z", []string{"2026-01-02T00:00:00Z", "2026-01-03T00:00:00Z"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := mustParse(t, tc.expr, tc.tz)
			at := utc(tc.from)
			for _, w := range tc.want {
				at = e.Next(at)
				if !at.Equal(utc(w)) {
					t.Fatalf("next = %s, want %s", at.Format(time.RFC3339), w)
				}
			}
		})
	}
}

func TestParseRejects(t *testing.T) {
	for _, tc := range []struct{ expr, tz, want string }{
		{"", "", "cron is required"},
		{"61 * * * *", "", "not a cron expression"},
		{"* * * *", "", "not a cron expression"},
		{"CRON_TZ=Europe/Berlin 0 8 * * *", "", "timezone"},
		{"@every 1h", "", "@every"},
		{"0 8 * * MON", "Mars/Olympus", "timezone"},
		{"0 8 * * MON", "Local", "timezone"},
	} {
		_, err := Parse(tc.expr, tc.tz)
		if err == nil || !contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q, %q) = %v, want an error naming %q", tc.expr, tc.tz, err, tc.want)
		}
	}
	if Normalize("  0   8 *  * MON ") != "0 8 * * MON" {
		t.Error("Normalize does not collapse spaces")
	}
}

func contains(s, sub string) bool {
	return len(sub) == 0 || (len(s) >= len(sub) && indexOf(s, sub) >= 0)
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

func TestMissed(t *testing.T) {
	e := mustParse(t, "0 8 * * MON", "UTC")
	from := time.Date(2026, 3, 2, 8, 0, 0, 0, time.UTC)
	latest, earlier := e.Missed(from, time.Date(2026, 3, 20, 9, 0, 0, 0, time.UTC))
	if !latest.Equal(time.Date(2026, 3, 16, 8, 0, 0, 0, time.UTC)) || earlier != 2 {
		t.Errorf("Missed = %s, %d; want 16 March and 2 earlier ticks", latest, earlier)
	}
	latest, earlier = e.Missed(from, from.Add(time.Minute))
	if !latest.Equal(from) || earlier != 0 {
		t.Errorf("on time: Missed = %s, %d", latest, earlier)
	}
}
