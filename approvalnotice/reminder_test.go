package approvalnotice_test

import (
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/approvalnotice"
)

// TestRemindAt: a gate is reminded of when a fifth of its life remains,
// unless that is under a minute.
func TestRemindAt(t *testing.T) {
	t0 := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		ttl  time.Duration
		want time.Duration // after t0; 0: no reminder
	}{
		{"the default day: 4h48m before expiry", 24 * time.Hour, 19*time.Hour + 12*time.Minute},
		{"a week", 7 * 24 * time.Hour, 134*time.Hour + 24*time.Minute},
		{"an hour: 12 minutes before", time.Hour, 48 * time.Minute},
		{"five minutes: one minute before", 5 * time.Minute, 4 * time.Minute},
		{"just under five minutes: none", 5*time.Minute - time.Second, 0},
		{"a nanosecond: none", time.Nanosecond, 0},
		{"already expired: none", -time.Hour, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			at, ok := approvalnotice.RemindAt(t0, t0.Add(tc.ttl))
			if ok != (tc.want != 0) || ok && !at.Equal(t0.Add(tc.want)) {
				t.Errorf("RemindAt = %v, %v; want %v after", at, ok, tc.want)
			}
		})
	}
}
