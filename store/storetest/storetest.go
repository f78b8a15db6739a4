// Package storetest is the behavioural test suite every gtmgate.Store
// implementation passes (after riverqueue/river's riverdrivertest). Each
// backend's tests call Exercise with a function opening a store on a fresh,
// empty database.
package storetest

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/secret"
)

// RawQuerier must be implemented by the stores under test: the suite reads
// columns as stored to check that secrets are sealed at rest. Queries use "?"
// placeholders.
type RawQuerier interface {
	RawQueryRow(ctx context.Context, query string, args ...any) *sql.Row
}

// FreshOpener may be implemented by the stores under test. FreshDatabase
// returns a function that opens (and migrates) a store on one new, empty
// database, the same database on every call; the suite opens several at once
// to check that migrations apply exactly once.
type FreshOpener interface {
	FreshDatabase(t *testing.T) func(ctx context.Context) (gtmgate.Store, error)
}

// Exercise runs every behaviour of gtmgate.Store as subtests. open returns a
// store on a fresh, empty database and arranges for it to be closed when the
// test ends.
func Exercise(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	t.Helper()
	for _, tc := range []struct {
		name string
		fn   func(t *testing.T, open func(t *testing.T) gtmgate.Store)
	}{
		{"Tenants", testTenants},
		{"TenantTokens", testTenantTokens},
		{"ProviderTokens", testProviderTokens},
		{"WriteCallsAndQueryAudit", testQueryAudit},
		{"AuditCursor", testAuditCursor},
		{"FollowAudit", testFollowAudit},
		{"AuditStats", testAuditStats},
		{"Usage", testUsage},
		{"UsageByAgent", testUsageByAgent},
		{"AuditJournal", testAuditJournal},
		{"Ledger", testLedger},
		{"LedgerWithCalls", testLedgerWithCalls},
		{"LedgerReplay", testLedgerReplay},
		{"LedgerReplayConcurrent", testLedgerReplayConcurrent},
		{"Feedback", testFeedback},
		{"Approvals", testApprovals},
		{"ApprovalExpiry", testApprovalExpiry},
		{"ApprovalExpiryOnRead", testApprovalExpiryOnRead},
		{"ApprovalConcurrent", testApprovalConcurrent},
		{"ApprovalWithdraw", testApprovalWithdraw},
		{"ApprovalBefore", testApprovalBefore},
		{"ApprovalTwoApprovers", testApprovalTwoApprovers},
		{"ApprovalTwoApproversConcurrent", testApprovalTwoApproversConcurrent},
		{"ProviderOAuth", testProviderOAuth},
		{"RefreshLease", testRefreshLease},
		{"ConcurrentOpen", testConcurrentOpen},
		{"VerdictsAndIncidents", testVerdictsAndIncidents},
		{"ResolveIncident", testResolveIncident},
		{"VerdictsConcurrent", testVerdictsConcurrent},
		{"Deliveries", testDeliveries},
		{"ApprovalRouteWebhooks", testApprovalRouteWebhooks},
		{"AgentRuns", testAgentRuns},
		{"TenantWork", testTenantWork},
		{"Schedules", testSchedules},
		{"SchedulesPerTenant", testSchedulesPerTenant},
		{"ScheduleCredentials", testScheduleCredentials},
		{"CredentialRevoked", testCredentialRevoked},
		{"DailyBriefs", testDailyBriefs},
		{"BillingPlans", testBillingPlans},
		{"UsageRollups", testUsageRollups},
		{"QuotaCounters", testQuotaCounters},
		{"ReplicasAndHealth", testReplicasAndHealth},
		{"Retention", testRetention},
		{"RollupsPreserveTotals", testRollupsPreserveTotals},
		{"ConsoleSessions", testConsoleSessions},
		{"IdPs", testIdPs},
		{"PeopleAndGrants", testPeopleAndGrants},
		{"SignIns", testSignIns},
		{"AdminKeys", testAdminKeys},
		{"ProviderTokenList", testProviderTokenList},
		{"OAuthGrants", testOAuthGrants},
		{"RequestFilters", testRequestFilters},
		{"OAuthApps", testOAuthApps},
		{"ConnectLinks", testConnectLinks},
		{"ConnectLinkConcurrent", testConnectLinkConcurrent},
		{"MCPServers", testMCPServers},
		{"MCPServerState", testMCPServerState},
		{"MCPServerErrors", testMCPServerErrors},
		{"MCPServerList", testMCPServerList},
		{"MCPAcceptedTools", testMCPAcceptedTools},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open) })
	}
}

// t0 is the suite's reference time, at the stores' microsecond precision.
var t0 = time.Date(2026, 3, 1, 12, 0, 0, 123456000, time.UTC)

func wantErr(t *testing.T, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("error = %v, want %v", err, target)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func rawString(t *testing.T, s gtmgate.Store, query string, args ...any) string {
	t.Helper()
	rq, ok := s.(RawQuerier)
	if !ok {
		t.Fatalf("%T does not implement storetest.RawQuerier", s)
	}
	var v sql.NullString
	if err := rq.RawQueryRow(t.Context(), query, args...).Scan(&v); err != nil {
		t.Fatalf("raw query: %v", err)
	}
	return v.String
}

// putTenant stores a minimal active tenant.
func putTenant(t *testing.T, s gtmgate.Store, id string) {
	t.Helper()
	if _, err := s.PutTenant(t.Context(), &gtmgate.Tenant{ID: id, Name: id, Status: gtmgate.TenantActive}); err != nil {
		t.Fatal(err)
	}
}

// timeStep returns n minutes, the suite's unit of time between events.
func timeStep(n int) time.Duration { return time.Duration(n) * time.Minute }

// NewSealer returns a Sealer with a fixed test key.
func NewSealer(t testing.TB) *secret.Sealer {
	t.Helper()
	s, err := secret.NewSealer([]byte("gtmgate-storetest-key-32-bytes!!"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// AuditRecorder is a gtmgate.Recorder for tests of handlers that audit:
// it keeps the entries in memory.
type AuditRecorder struct {
	mu      sync.Mutex
	entries []gtmgate.AuditEntry
}

// Record keeps a.
func (r *AuditRecorder) Record(_ context.Context, a gtmgate.AuditEntry, _ *gtmgate.UsageEvent) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.entries = append(r.entries, a)
	return nil
}

// Flush and Check have nothing to do: entries are kept as they come.
func (r *AuditRecorder) Flush(context.Context) error { return nil }
func (r *AuditRecorder) Check() error                { return nil }

// Entries returns the entries kept so far, oldest first.
func (r *AuditRecorder) Entries() []gtmgate.AuditEntry {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.entries)
}

// Last returns the newest entry kept.
func (r *AuditRecorder) Last() gtmgate.AuditEntry {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.entries[len(r.entries)-1]
}
