// Package billing prices a tenant's usage under its plan: billing periods in
// the plan's time zone, the cost of tool calls and chat tokens, quotas and a
// projection to the end of the period. It computes; it stores nothing.
package billing

import (
	"fmt"
	"time"

	"github.com/gtmgate/gtmgate"
)

// Period is one billing period, [Start, End).
type Period struct {
	Start time.Time
	End   time.Time
}

// Label names a period by the month it starts in, YYYY-MM.
func (p Period) Label() string { return p.Start.Format("2006-01") }

// Location is the plan's time zone (UTC when unset or unknown; Validate
// refuses unknown ones).
func Location(plan *gtmgate.BillingPlan) *time.Location {
	if plan == nil || plan.Timezone == "" {
		return time.UTC
	}
	loc, err := time.LoadLocation(plan.Timezone)
	if err != nil {
		return time.UTC
	}
	return loc
}

// billingDay is the plan's day of the month, 1 when unset.
func billingDay(plan *gtmgate.BillingPlan) int {
	if plan == nil || plan.BillingDay < 1 {
		return 1
	}
	return plan.BillingDay
}

// start returns the period start in the month of year/month.
func start(plan *gtmgate.BillingPlan, year int, month time.Month) time.Time {
	return time.Date(year, month, billingDay(plan), 0, 0, 0, 0, Location(plan))
}

// PeriodAt returns the period containing t.
func PeriodAt(plan *gtmgate.BillingPlan, t time.Time) Period {
	local := t.In(Location(plan))
	s := start(plan, local.Year(), local.Month())
	if t.Before(s) {
		s = start(plan, local.Year(), local.Month()-1)
	}
	return Period{Start: s, End: start(plan, s.Year(), s.Month()+1)}
}

// PeriodOf returns the period starting in the month label ("2026-03").
func PeriodOf(plan *gtmgate.BillingPlan, label string) (Period, error) {
	m, err := time.Parse("2006-01", label)
	if err != nil {
		return Period{}, gtmgate.Errorf(gtmgate.EValidation, "period %q is not a month such as 2026-03", label)
	}
	s := start(plan, m.Year(), m.Month())
	return Period{Start: s, End: start(plan, s.Year(), s.Month()+1)}, nil
}

// String is the period as shown in messages.
func (p Period) String() string {
	return fmt.Sprintf("%s to %s", p.Start.Format(time.RFC3339), p.End.Format(time.RFC3339))
}
