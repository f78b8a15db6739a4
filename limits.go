package gtmgate

import (
	"context"
	"database/sql"
)

// TenantLimits bound one tenant's background work, so that no tenant can
// hold the others up. A zero field takes the gateway's default (the
// GTMGATE_TENANT_* settings).
type TenantLimits struct {
	// RunsInFlight is the most runs of the tenant being worked at once
	// (status running) over all replicas. A queued run past it stays
	// queued, and says so, until one of the tenant's runs finishes or parks.
	RunsInFlight int `json:"runs_in_flight,omitempty"`
	// RunsQueued is the most runs of the tenant waiting to start (status
	// queued). A run start past it is refused with RATE_LIMITED.
	RunsQueued int `json:"runs_queued,omitempty"`
	// Schedules is the most enabled schedules of the tenant. Putting one
	// more is refused with QUOTA_EXCEEDED.
	Schedules int `json:"schedules,omitempty"`
	// StepsPerMinute is the most tool calls the tenant's runs (agent
	// steps and scheduled calls) make in a minute, over all replicas. A
	// step past it waits, and its run says so, until the minute allows it.
	StepsPerMinute int `json:"steps_per_minute,omitempty"`
}

// Or returns l with its zero fields taken from def.
func (l *TenantLimits) Or(def TenantLimits) TenantLimits {
	if l == nil {
		return def
	}
	out := *l
	for _, f := range []struct {
		v *int
		d int
	}{{&out.RunsInFlight, def.RunsInFlight}, {&out.RunsQueued, def.RunsQueued},
		{&out.Schedules, def.Schedules}, {&out.StepsPerMinute, def.StepsPerMinute}} {
		if *f.v == 0 {
			*f.v = f.d
		}
	}
	return out
}

// TenantRuns counts a tenant's runs that have not finished.
type TenantRuns struct {
	Queued  int
	Running int
}

// RunAdmission decides, inside the transaction that creates a run, whether
// the run may be stored, and enqueues its job in that transaction (tx is
// the store's). runs counts the tenant's runs before this one, read in
// the transaction under a lock on the tenant, so concurrent starts of one
// tenant are counted one after the other on every replica. An error rolls
// the run back and is returned as it is.
type RunAdmission func(ctx context.Context, tx *sql.Tx, runs TenantRuns) error

// Validate checks a tenant's limits; errors are VALIDATION_ERRORs naming
// the field. Zero keeps the gateway's default.
func (l *TenantLimits) Validate() error {
	if l == nil {
		return nil
	}
	for _, f := range []struct {
		name    string
		v, most int
	}{{"runs_in_flight", l.RunsInFlight, 10_000}, {"runs_queued", l.RunsQueued, 1_000_000},
		{"schedules", l.Schedules, 100_000}, {"steps_per_minute", l.StepsPerMinute, 1_000_000}} {
		if f.v < 0 || f.v > f.most {
			return Errorf(EValidation, "limits.%s: %d is not from 1 to %d (0 or absent takes the gateway's default)", f.name, f.v, f.most).
				AtField("limits." + f.name)
		}
	}
	return nil
}
