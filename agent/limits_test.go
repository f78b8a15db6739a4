package agent

import (
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
)

func TestFairPriority(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		base, queued, workers int
		want                  int
	}{
		{"first runs of a tenant", 1, 0, 4, 1},
		{"fewer queued than workers", 1, 3, 4, 1},
		{"as many queued as workers", 1, 4, 4, 2},
		{"four times the workers", 1, 16, 4, 3},
		{"a backlog", 1, 64, 4, 4},
		{"a huge backlog stays at River's last", 1, 100_000, 4, 4},
		{"scheduled runs start behind the tick", 2, 0, 4, 2},
		{"a scheduled backlog", 2, 400, 4, 4},
		{"one worker", 1, 1, 1, 2},
		{"no workers counts as one", 1, 0, 0, 1},
	} {
		if got := fairPriority(tc.base, tc.queued, tc.workers); got != tc.want {
			t.Errorf("%s: fairPriority(%d, %d, %d) = %d, want %d", tc.name, tc.base, tc.queued, tc.workers, got, tc.want)
		}
	}
}

func TestTenantLimitsOrAndValidate(t *testing.T) {
	def := DefaultTenantLimits
	for _, tc := range []struct {
		name    string
		limits  *gtmgate.TenantLimits
		want    gtmgate.TenantLimits
		invalid string
	}{
		{"none: the defaults", nil, def, ""},
		{"one field", &gtmgate.TenantLimits{RunsQueued: 5}, gtmgate.TenantLimits{RunsInFlight: 8, RunsQueued: 5, Schedules: 50, StepsPerMinute: 120}, ""},
		{"all fields", &gtmgate.TenantLimits{RunsInFlight: 1, RunsQueued: 2, Schedules: 3, StepsPerMinute: 4}, gtmgate.TenantLimits{RunsInFlight: 1, RunsQueued: 2, Schedules: 3, StepsPerMinute: 4}, ""},
		{"negative", &gtmgate.TenantLimits{Schedules: -1}, gtmgate.TenantLimits{}, "limits.schedules"},
		{"too large", &gtmgate.TenantLimits{StepsPerMinute: 1_000_001}, gtmgate.TenantLimits{}, "limits.steps_per_minute"},
	} {
		err := tc.limits.Validate()
		if tc.invalid != "" {
			if gtmgate.ErrorCode(err) != gtmgate.EValidation || !strings.Contains(err.Error(), tc.invalid) {
				t.Errorf("%s: Validate = %v, want a VALIDATION_ERROR naming %s", tc.name, err, tc.invalid)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: Validate = %v", tc.name, err)
		}
		if got := tc.limits.Or(def); got != tc.want {
			t.Errorf("%s: Or = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
