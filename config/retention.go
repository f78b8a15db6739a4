package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Retention is how long each kind of record is kept; zero keeps it forever.
type Retention struct {
	Audit, UsageEvents, Ledger, Verdicts, HealthSnapshots, WebhookDeliveries, OAuth, Jobs time.Duration
}

const day = 24 * time.Hour

// Forever is the retention value that keeps records until deleted by hand.
const Forever = "forever"

type retentionSetting struct {
	Setting
	dst *time.Duration
	// least is the shortest retention accepted: what other features read back.
	least time.Duration
}

func retentionSettings(r *Retention) []retentionSetting {
	return []retentionSetting{
		{Setting{"GTMGATE_RETAIN_AUDIT", "", "400d", "how long audit entries are kept (at least 31d: the audit stats read 30 days back)"}, &r.Audit, 31 * day},
		{Setting{"GTMGATE_RETAIN_USAGE_EVENTS", "", "90d", "how long raw usage events are kept (at least 2d); usage counts, tokens and billing read the hourly rollups, kept forever, and only latency percentiles need the raw events"}, &r.UsageEvents, 2 * day},
		{Setting{"GTMGATE_RETAIN_LEDGER", "", "90d", "how long error ledger entries and resolved incidents are kept; open incidents stay"}, &r.Ledger, day},
		{Setting{"GTMGATE_RETAIN_VERDICTS", "", "180d", "how long judges' verdicts are kept; verdicts an operator labelled stay"}, &r.Verdicts, day},
		{Setting{"GTMGATE_RETAIN_HEALTH", "", "7d", "how long system health snapshots are kept"}, &r.HealthSnapshots, time.Hour},
		{Setting{"GTMGATE_RETAIN_WEBHOOK_DELIVERIES", "", "30d", "how long the log of webhook delivery attempts is kept"}, &r.WebhookDeliveries, time.Hour},
		{Setting{"GTMGATE_RETAIN_OAUTH", "", "7d", "how long OAuth codes and tokens are kept after they expire"}, &r.OAuth, time.Hour},
		{Setting{"GTMGATE_RETAIN_JOBS", "", "1d", "how long finished background jobs are kept (jobs that failed for good: at least 7d, which system health counts)"}, &r.Jobs, time.Hour},
	}
}

// defaultRetention is the defaults the settings table documents.
func defaultRetention() Retention {
	var r Retention
	for _, s := range retentionSettings(&r) {
		d, err := ParseRetention(s.Default)
		if err != nil {
			panic("config: default " + s.Env + ": " + err.Error())
		}
		*s.dst = d
	}
	return r
}

// ParseRetention reads a retention: a Go duration ("36h"), days ("90d"), or
// "forever" (zero).
func ParseRetention(s string) (time.Duration, error) {
	switch v := strings.TrimSpace(strings.ToLower(s)); {
	case v == Forever || v == Off:
		return 0, nil
	case strings.HasSuffix(v, "d"):
		n, err := strconv.Atoi(strings.TrimSuffix(v, "d"))
		if err != nil || n <= 0 || n > 100*365 {
			return 0, fmt.Errorf("%q is not a number of days such as 90d", s)
		}
		return time.Duration(n) * day, nil
	default:
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return 0, fmt.Errorf("%q is not a retention such as 90d, 36h or %s", s, Forever)
		}
		return d, nil
	}
}

// readRetention fills r from the environment and checks each value's floor.
func readRetention(r *Retention, env *envReader) error {
	for _, s := range retentionSettings(r) {
		v := env.str(s.Env, "")
		if v == "" {
			continue
		}
		d, err := ParseRetention(v)
		if err != nil {
			return fmt.Errorf("%s: %w", s.Env, err)
		}
		*s.dst = d
	}
	return nil
}

// validate checks each retention against its floor.
func (r *Retention) validate() error {
	for _, s := range retentionSettings(r) {
		if *s.dst != 0 && *s.dst < s.least {
			return fmt.Errorf("%s: %s is shorter than the least it may be, %s", s.Env, formatAge(*s.dst), formatAge(s.least))
		}
	}
	return nil
}

func formatAge(d time.Duration) string {
	if d%day == 0 {
		return strconv.Itoa(int(d/day)) + "d"
	}
	return d.String()
}
