// Package schedule runs tenants' recurring jobs: a cron expression in a time
// zone and what to run (an agent task or one tool call). A periodic River
// job on the elected leader turns due ticks into agent runs; a tick's run
// has an id derived from the schedule and the tick, and the store keeps one
// run per tick, so a tick runs once across replicas and restarts. It also
// serves the schedules' admin routes, POST /admin/run-cron and the
// agent_schedules tool.
package schedule

import (
	"fmt"
	"strings"
	"time"
	// Time zone names resolve without the host's zoneinfo (minimal images).
	_ "time/tzdata"

	"github.com/robfig/cron/v3"

	"github.com/gtmgate/gtmgate"
)

// parser reads standard five-field expressions and the @yearly, @monthly,
// @weekly, @daily and @hourly descriptors.
var parser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// Normalize returns an expression with single spaces between fields, the
// form schedules are stored and matched (POST /admin/run-cron) in.
func Normalize(expr string) string { return strings.Join(strings.Fields(expr), " ") }

// Expression is a parsed cron expression in its time zone.
type Expression struct {
	spec cron.Schedule
	loc  *time.Location
}

// Parse checks a cron expression and a time zone ("" = UTC). Errors are
// VALIDATION_ERRORs naming the field.
func Parse(expr, tz string) (*Expression, error) {
	expr = Normalize(expr)
	switch {
	case expr == "":
		return nil, gtmgate.Errorf(gtmgate.EValidation, "cron is required: five fields (minute hour day-of-month month day-of-week), e.g. \"0 8 * * MON\"")
	case strings.HasPrefix(expr, "CRON_TZ=") || strings.HasPrefix(expr, "TZ="):
		return nil, gtmgate.Errorf(gtmgate.EValidation, "cron: give the time zone in timezone, not in the expression")
	case strings.HasPrefix(expr, "@every"):
		return nil, gtmgate.Errorf(gtmgate.EValidation, "cron: @every is not supported; its ticks depend on when it was read, so replicas would disagree — use a cron expression")
	}
	spec, err := parser.Parse(expr)
	if err != nil {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "cron: %q is not a cron expression: %v", expr, err).
			WithHint("five fields: minute hour day-of-month month day-of-week, e.g. \"0 8 * * MON\" or @daily")
	}
	loc, err := Location(tz)
	if err != nil {
		return nil, err
	}
	return &Expression{spec: spec, loc: loc}, nil
}

// Location loads an IANA time zone ("" = UTC).
func Location(tz string) (*time.Location, error) {
	if tz == "" {
		return time.UTC, nil
	}
	loc, err := time.LoadLocation(tz)
	if err != nil || strings.EqualFold(tz, "local") {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "timezone: %q is not an IANA time zone name (e.g. Europe/Berlin, America/New_York, UTC)", tz)
	}
	return loc, nil
}

// Next returns the first tick strictly after t, in UTC (zero when there is
// none within five years). Across a clock change it behaves as cron does: a
// local time skipped by spring-forward has no tick that day, and a local
// time repeated by fall-back ticks once (the first), unless the hour field
// is * (an hourly schedule ticks every real hour).
func (e *Expression) Next(t time.Time) time.Time {
	n := e.spec.Next(t.In(e.loc))
	for !n.IsZero() && e.fixedHour() && repeatedWallClock(n) {
		n = e.spec.Next(n)
	}
	if n.IsZero() {
		return n
	}
	return n.UTC()
}

// starBit marks a cron field given as * (robfig/cron's encoding).
const starBit = 1 << 63

func (e *Expression) fixedHour() bool {
	s, ok := e.spec.(*cron.SpecSchedule)
	return ok && s.Hour&starBit == 0
}

// repeatedWallClock reports whether n's local time already happened earlier
// that day, before a fall-back clock change.
func repeatedWallClock(n time.Time) bool {
	_, off := n.Zone()
	_, before := n.Add(-3 * time.Hour).Zone()
	if before <= off {
		return false
	}
	earlier := n.Add(-time.Duration(before-off) * time.Second)
	return earlier.Format("2006-01-02 15:04") == n.Format("2006-01-02 15:04")
}

// maxCatchUp bounds the ticks counted when a schedule was missed for long.
const maxCatchUp = 100_000

// Missed returns, for a schedule whose next tick was from and is now due,
// the latest tick at or before now and how many ticks came before it.
func (e *Expression) Missed(from, now time.Time) (latest time.Time, earlier int) {
	latest = from
	for earlier < maxCatchUp {
		n := e.Next(latest)
		if n.IsZero() || n.After(now) {
			break
		}
		latest = n
		earlier++
	}
	return latest, earlier
}

// String describes the expression for messages.
func (e *Expression) String() string { return fmt.Sprintf("%v in %s", e.spec, e.loc) }
