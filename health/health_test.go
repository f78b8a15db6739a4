package health_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/health"
	"github.com/gtmgate/gtmgate/jobs"
	"github.com/gtmgate/gtmgate/provider/apiversion"
	"github.com/gtmgate/gtmgate/store/sqlite"
	"github.com/gtmgate/gtmgate/store/sqlstore"
	"github.com/gtmgate/gtmgate/store/storetest"
)

func openStore(t *testing.T) gtmgate.Store {
	t.Helper()
	dir := t.TempDir()
	s, err := sqlite.Open(t.Context(), filepath.Join(dir, "gtmgate.db"), &sqlstore.Options{Sealer: storetest.NewSealer(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// downStore is a store whose database is gone.
type downStore struct{ gtmgate.Store }

func (downStore) Ping(context.Context) error { return errors.New("connection refused") }

func sources(st gtmgate.Store, dir string, now time.Time, queues []jobs.QueueStat) health.Sources {
	return health.Sources{Store: st, Backend: "sqlite", DataDir: dir, Started: now.Add(-time.Hour), Now: func() time.Time { return now },
		WebhookKind: "webhook_delivery",
		ProviderOf: func(tool string) string {
			if tool == "crm_contacts" {
				return "hubspot"
			}
			return ""
		},
		Jobs: func(context.Context, time.Time) ([]jobs.QueueStat, error) { return queues, nil }}
}

func TestSnapshotShowsEachFailure(t *testing.T) {
	now := time.Now()
	st := openStore(t)
	dir := t.TempDir()

	healthy := health.Take(t.Context(), sources(st, dir, now, nil))
	if healthy.Status != health.StatusOK || len(healthy.Reasons) != 0 || !healthy.Store.Reachable || healthy.Store.MigrationVersion < 8 ||
		healthy.Process.Goroutines == 0 || healthy.Disk.TotalBytes == 0 {
		t.Fatalf("healthy snapshot: %+v", healthy)
	}

	for name, tc := range map[string]struct {
		prepare func(t *testing.T) (gtmgate.Store, []jobs.QueueStat)
		status  string
		reason  string
	}{
		"store down": {func(t *testing.T) (gtmgate.Store, []jobs.QueueStat) { return downStore{openStore(t)}, nil },
			health.StatusDown, "the store is unreachable"},
		"provider failing": {func(t *testing.T) (gtmgate.Store, []jobs.QueueStat) {
			s := openStore(t)
			var events []gtmgate.UsageEvent
			for i := range 12 {
				events = append(events, gtmgate.UsageEvent{Time: now.Add(-time.Minute), TenantID: "acme", Source: "rest",
					Tool: "crm_contacts", Action: "list", OK: i%2 == 0, UpstreamMS: float64(100 + i)})
			}
			if err := s.WriteCalls(t.Context(), nil, events); err != nil {
				t.Fatal(err)
			}
			return s, nil
		}, health.StatusDegraded, "hubspot calls fail at 50% over the last 15 minutes"},
		"job queue stuck": {func(t *testing.T) (gtmgate.Store, []jobs.QueueStat) {
			return openStore(t), []jobs.QueueStat{{Queue: jobs.QueueGrading, Kind: "grade_trace", Available: 40, OldestAvailableSeconds: 2400}}
		}, health.StatusDegraded, "grade_trace jobs wait unworked (the oldest for 40m0s; the grading queue's threshold is 30m0s)"},
		"schedule queue behind": {func(t *testing.T) (gtmgate.Store, []jobs.QueueStat) {
			return openStore(t), []jobs.QueueStat{{Queue: jobs.QueueSchedules, Kind: "schedule_tick", Available: 1, OldestAvailableSeconds: 75}}
		}, health.StatusDegraded, "schedule_tick jobs wait unworked (the oldest for 1m15s; the schedules queue's threshold is 1m0s)"},
		"webhooks failing": {func(t *testing.T) (gtmgate.Store, []jobs.QueueStat) {
			return openStore(t), []jobs.QueueStat{{Kind: "webhook_delivery", Retryable: 3, Discarded: 2}}
		}, health.StatusDegraded, "2 alert webhook deliveries failed for good this week"},
		"account needs reauth": {func(t *testing.T) (gtmgate.Store, []jobs.QueueStat) {
			s := openStore(t)
			if _, err := s.PutTenant(t.Context(), &gtmgate.Tenant{ID: "acme", Name: "Acme", Status: gtmgate.TenantActive}); err != nil {
				t.Fatal(err)
			}
			if err := s.PutProviderOAuth(t.Context(), &gtmgate.ProviderOAuth{TenantID: "acme", Provider: "hubspot", AccountID: "1",
				ClientID: "c", TokenEndpoint: "https://x", RefreshToken: "r", NeedsReauth: true, LastError: "invalid_grant"}); err != nil {
				t.Fatal(err)
			}
			return s, nil
		}, health.StatusDegraded, "1 provider account(s) need re-authorisation"},
	} {
		t.Run(name, func(t *testing.T) {
			s, queues := tc.prepare(t)
			r := health.Take(t.Context(), sources(s, dir, now, queues))
			if r.Status != tc.status || !slicesContain(r.Reasons, tc.reason) {
				t.Errorf("status %s, reasons %q; want %s with %q", r.Status, r.Reasons, tc.status, tc.reason)
			}
		})
	}
}

func slicesContain(list []string, s string) bool {
	for _, v := range list {
		if strings.Contains(v, s) {
			return true
		}
	}
	return false
}

// TestSnapshotAPIVersions: a version nearing its sunset is a reason that
// leaves the status ok (nothing fails yet); one past it degrades the status.
func TestSnapshotAPIVersions(t *testing.T) {
	now := time.Now()
	st := openStore(t)
	for _, tc := range []struct {
		name   string
		level  apiversion.Level
		status string
	}{
		{"ok", apiversion.LevelOK, health.StatusOK},
		{"unknown", apiversion.LevelUnknown, health.StatusOK},
		{"warning", apiversion.LevelWarning, health.StatusOK},
		{"sunset", apiversion.LevelSunset, health.StatusDegraded},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := sources(st, t.TempDir(), now, nil)
			src.APIVersions = func(time.Time) []apiversion.Status {
				return []apiversion.Status{{Provider: "x", Level: tc.level, Message: "X API version v1: " + string(tc.level)}}
			}
			r := health.Take(t.Context(), src)
			warned := slicesContain(r.Reasons, "X API version v1")
			if r.Status != tc.status || len(r.APIVersions) != 1 || warned != (tc.level == apiversion.LevelWarning || tc.level == apiversion.LevelSunset) {
				t.Errorf("status %s, reasons %q, versions %v", r.Status, r.Reasons, r.APIVersions)
			}
		})
	}
}
