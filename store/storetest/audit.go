package storetest

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/gtmgate/gtmgate"
)

func auditEntry(i int, tenant, action, source, key, outcome string, at time.Time) gtmgate.AuditEntry {
	return gtmgate.AuditEntry{Time: at, TenantID: tenant, Action: action, Source: source, Key: key,
		Outcome: outcome, Status: 200, DurationMS: 1.5, RequestID: fmt.Sprintf("req-%d", i), Detail: "d",
		TraceID: fmt.Sprintf("%032x", i+1)}
}

func testQueryAudit(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	in := []gtmgate.AuditEntry{
		auditEntry(0, "acme", "crm_contacts.list", gtmgate.SourceREST, "tok1", gtmgate.OutcomeOK, t0),
		auditEntry(1, "acme", "email_send.send", gtmgate.SourceMCP, "tok1", gtmgate.OutcomeError, t0.Add(timeStep(1))),
		auditEntry(2, "beta", "crm_contacts.list", gtmgate.SourceMCP, "tok2", gtmgate.OutcomeDenied, t0.Add(timeStep(2))),
		auditEntry(3, "", "tenants.put", gtmgate.SourceAdmin, "admin", gtmgate.OutcomeOK, t0.Add(timeStep(3))),
	}
	in[1].ErrorCode, in[1].Status = gtmgate.EUpstream, 502
	in[2].ParentRequestID = "req-run"
	// Two tenants' clients sent the same X-Request-Id.
	in[0].CorrelationID, in[1].CorrelationID, in[2].CorrelationID = "client-7", "client-8", "client-7"
	must(t, s.WriteCalls(ctx, in, nil))
	must(t, s.WriteCalls(ctx, nil, nil))

	all, next, err := s.QueryAudit(ctx, gtmgate.AuditFilter{})
	must(t, err)
	if next != 0 {
		t.Errorf("next = %d with everything on one page", next)
	}
	want := []gtmgate.AuditEntry{in[3], in[2], in[1], in[0]}
	if diff := cmp.Diff(want, all, cmpopts.IgnoreFields(gtmgate.AuditEntry{}, "ID")); diff != "" {
		t.Errorf("QueryAudit newest first (-want +got):\n%s", diff)
	}
	for i := 1; i < len(all); i++ {
		if all[i].ID >= all[i-1].ID || all[i].ID == 0 {
			t.Errorf("ids not descending: %d then %d", all[i-1].ID, all[i].ID)
		}
	}

	for _, tc := range []struct {
		name string
		f    gtmgate.AuditFilter
		want []string // request ids
	}{
		{"tenant", gtmgate.AuditFilter{TenantID: "acme"}, []string{"req-1", "req-0"}},
		{"action", gtmgate.AuditFilter{Action: "crm_contacts.list"}, []string{"req-2", "req-0"}},
		{"source", gtmgate.AuditFilter{Source: gtmgate.SourceMCP}, []string{"req-2", "req-1"}},
		{"key", gtmgate.AuditFilter{Key: "tok2"}, []string{"req-2"}},
		{"parent", gtmgate.AuditFilter{Parent: "req-run"}, []string{"req-2"}},
		{"since", gtmgate.AuditFilter{Since: t0.Add(timeStep(2))}, []string{"req-3", "req-2"}},
		{"combined", gtmgate.AuditFilter{TenantID: "acme", Source: gtmgate.SourceREST}, []string{"req-0"}},
		{"correlation", gtmgate.AuditFilter{TenantID: "acme", CorrelationID: "client-7"}, []string{"req-0"}},
		{"correlation other tenant", gtmgate.AuditFilter{TenantID: "beta", CorrelationID: "client-7"}, []string{"req-2"}},
		{"correlation none", gtmgate.AuditFilter{TenantID: "beta", CorrelationID: "client-8"}, nil},
		{"before", gtmgate.AuditFilter{Before: all[1].ID}, []string{"req-1", "req-0"}},
		{"limit", gtmgate.AuditFilter{Limit: 1}, []string{"req-3"}},
		{"none", gtmgate.AuditFilter{TenantID: "nobody"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _, err := s.QueryAudit(ctx, tc.f)
			must(t, err)
			var ids []string
			for _, e := range got {
				ids = append(ids, e.RequestID)
			}
			if diff := cmp.Diff(tc.want, ids); diff != "" {
				t.Errorf("request ids (-want +got):\n%s", diff)
			}
		})
	}

	// A correlation id alone would join tenants' entries: refused, both ways of reading.
	lone := gtmgate.AuditFilter{CorrelationID: "client-7"}
	if _, _, err := s.QueryAudit(ctx, lone); gtmgate.ErrorCode(err) != gtmgate.EValidation {
		t.Errorf("QueryAudit by correlation id without tenant: err %v, want VALIDATION_ERROR", err)
	}
	if _, _, err := s.FollowAudit(ctx, lone, ""); gtmgate.ErrorCode(err) != gtmgate.EValidation {
		t.Errorf("FollowAudit by correlation id without tenant: err %v, want VALIDATION_ERROR", err)
	}
	followed := followSome(t, s, gtmgate.AuditFilter{TenantID: "beta", CorrelationID: "client-7"})
	if len(followed) != 1 || followed[0].RequestID != "req-2" {
		t.Errorf("FollowAudit by tenant and correlation id = %+v, want req-2 only", followed)
	}
}

func testAuditCursor(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	const n = 1005
	in := make([]gtmgate.AuditEntry, n)
	for i := range in {
		in[i] = auditEntry(i, "acme", "a", gtmgate.SourceREST, "k", gtmgate.OutcomeOK, t0.Add(time.Duration(i)*time.Second))
	}
	must(t, s.WriteCalls(ctx, in, nil))

	page, next, err := s.QueryAudit(ctx, gtmgate.AuditFilter{})
	must(t, err)
	if len(page) != 100 || next != page[99].ID {
		t.Errorf("default page: %d entries, next %d (last id %d)", len(page), next, page[len(page)-1].ID)
	}
	page, _, err = s.QueryAudit(ctx, gtmgate.AuditFilter{Limit: 5000})
	must(t, err)
	if len(page) != 1000 {
		t.Errorf("limit 5000 returned %d entries, want the maximum 1000", len(page))
	}

	// Walk every page of 300: each entry once, newest first, and a final page without cursor.
	var seen []string
	var before int64
	for pages := 0; ; pages++ {
		if pages > 10 {
			t.Fatal("cursor does not end")
		}
		page, next, err := s.QueryAudit(ctx, gtmgate.AuditFilter{Limit: 300, Before: before})
		must(t, err)
		for _, e := range page {
			seen = append(seen, e.RequestID)
		}
		if next == 0 {
			break
		}
		before = next
	}
	if len(seen) != n || seen[0] != fmt.Sprintf("req-%d", n-1) || seen[n-1] != "req-0" {
		t.Errorf("walked %d entries, first %s, last %s", len(seen), seen[0], seen[len(seen)-1])
	}
}

func testAuditStats(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	now := t0.Add(40 * 24 * time.Hour)
	ago := func(d time.Duration) time.Time { return now.Add(-d) }
	h, d := time.Hour, 24*time.Hour
	in := []gtmgate.AuditEntry{
		auditEntry(0, "acme", "x.list", gtmgate.SourceREST, "k", gtmgate.OutcomeOK, ago(h)),
		auditEntry(1, "acme", "x.list", gtmgate.SourceREST, "k", gtmgate.OutcomeError, ago(2*h)),
		auditEntry(2, "beta", "y.send", gtmgate.SourceMCP, "k", gtmgate.OutcomePending, ago(3*h)),
		auditEntry(3, "beta", "y.send", gtmgate.SourceMCP, "k", gtmgate.OutcomeDenied, ago(2*d)),
		auditEntry(4, "acme", "x.list", gtmgate.SourceMCP, "k", gtmgate.OutcomeOK, ago(10*d)),
		auditEntry(5, "", "admin.x", gtmgate.SourceAdmin, "admin", gtmgate.OutcomeError, ago(20*d)),
		auditEntry(6, "acme", "x.list", gtmgate.SourceREST, "k", gtmgate.OutcomeError, ago(31*d)),  // outside
		auditEntry(7, "acme", "x.list", gtmgate.SourceREST, "k", gtmgate.OutcomeError, now.Add(h)), // future
	}
	must(t, s.WriteCalls(ctx, in, nil))

	st, err := s.AuditStats(ctx, now)
	must(t, err)
	c := func(total, errs int64) gtmgate.AuditCounts {
		return gtmgate.AuditCounts{Total: total, Errors: errs, ErrorRate: float64(errs) / float64(total)}
	}
	want := &gtmgate.AuditStats{GeneratedAt: now, Windows: map[string]gtmgate.AuditWindow{
		"24h": {Since: ago(d), Total: 3, Errors: 1, ErrorRate: 1.0 / 3,
			ByTenant: map[string]gtmgate.AuditCounts{"acme": c(2, 1), "beta": c(1, 0)},
			BySource: map[string]gtmgate.AuditCounts{"rest": c(2, 1), "mcp": c(1, 0)},
			ByAction: map[string]gtmgate.AuditCounts{"x.list": c(2, 1), "y.send": c(1, 0)}},
		"7d": {Since: ago(7 * d), Total: 4, Errors: 2, ErrorRate: 0.5,
			ByTenant: map[string]gtmgate.AuditCounts{"acme": c(2, 1), "beta": c(2, 1)},
			BySource: map[string]gtmgate.AuditCounts{"rest": c(2, 1), "mcp": c(2, 1)},
			ByAction: map[string]gtmgate.AuditCounts{"x.list": c(2, 1), "y.send": c(2, 1)}},
		"30d": {Since: ago(30 * d), Total: 6, Errors: 3, ErrorRate: 0.5,
			ByTenant: map[string]gtmgate.AuditCounts{"acme": c(3, 1), "beta": c(2, 1)},
			BySource: map[string]gtmgate.AuditCounts{"rest": c(2, 1), "mcp": c(3, 1), "admin": c(1, 1)},
			ByAction: map[string]gtmgate.AuditCounts{"x.list": c(3, 1), "y.send": c(2, 1), "admin.x": c(1, 1)}},
	}}
	if diff := cmp.Diff(want, st, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
		t.Errorf("AuditStats (-want +got):\n%s", diff)
	}

	empty, err := open(t).AuditStats(ctx, now)
	must(t, err)
	if w := empty.Windows["24h"]; w.Total != 0 || w.ErrorRate != 0 || w.ByTenant == nil {
		t.Errorf("empty stats = %+v", w)
	}
}

func testUsage(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	ev := func(tenant string, at time.Time, ok bool) gtmgate.UsageEvent {
		return gtmgate.UsageEvent{Time: at, TenantID: tenant, Source: gtmgate.SourceChat, Tool: "chat", Action: "gpt-4o",
			OK: ok, DurationMS: 12.5, UpstreamMS: 10.25, PromptTokens: 100, CompletionTokens: 20}
	}
	day := 24 * time.Hour
	in := []gtmgate.UsageEvent{
		ev("acme", t0.Add(-time.Microsecond), true),
		ev("acme", t0, true),
		ev("acme", t0.Add(day-time.Microsecond), false),
		ev("acme", t0.Add(day), true),
		ev("beta", t0.Add(time.Hour), true),
	}
	audit := []gtmgate.AuditEntry{auditEntry(0, "acme", "chat", gtmgate.SourceChat, "k", gtmgate.OutcomeOK, t0)}
	must(t, s.WriteCalls(ctx, audit, in))

	got, err := s.ListUsage(ctx, gtmgate.UsageQuery{TenantID: "acme", From: t0, To: t0.Add(day)})
	must(t, err)
	if diff := cmp.Diff([]gtmgate.UsageEvent{in[1], in[2]}, got); diff != "" {
		t.Errorf("ListUsage [From, To) (-want +got):\n%s", diff)
	}
	got, err = s.ListUsage(ctx, gtmgate.UsageQuery{TenantID: "nobody", From: t0, To: t0.Add(day)})
	must(t, err)
	if len(got) != 0 {
		t.Errorf("unknown tenant has %d events", len(got))
	}
	entries, _, err := s.QueryAudit(ctx, gtmgate.AuditFilter{})
	must(t, err)
	if len(entries) != 1 {
		t.Errorf("WriteCalls wrote %d audit entries with the usage, want 1", len(entries))
	}
}

// testUsageByAgent: a usage event keeps the agent that made the call, by
// WriteCalls and by ApplyJournal, and ListUsage selects one agent's events
// within the tenant; rollups, the tenant's as a whole, refuse a key.
func testUsageByAgent(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	ev := func(tenant, key string, step int, ok bool) gtmgate.UsageEvent {
		return gtmgate.UsageEvent{Time: t0.Add(timeStep(step)), TenantID: tenant, Key: key, Source: gtmgate.SourceMCP,
			Tool: "crm_contacts", Action: "list", OK: ok, DurationMS: 3, UpstreamMS: 2}
	}
	in := []gtmgate.UsageEvent{
		ev("acme", "tok_a", 1, true),
		ev("acme", "tok_b", 2, false),
		ev("acme", "oauth:grt_1", 3, true),
		ev("acme", "", 4, true),
		ev("beta", "tok_a", 5, true), // no key is two tenants', but the tenant still bounds a read
	}
	must(t, s.WriteCalls(ctx, nil, in[:3]))
	must(t, s.ApplyJournal(ctx, "usage-by-agent", 0, 10, nil, in[3:]))
	want := map[string][]gtmgate.UsageEvent{
		"":            in[:4],
		"tok_a":       {in[0]},
		"tok_b":       {in[1]},
		"oauth:grt_1": {in[2]},
		"tok_nobody":  {},
	}
	for key, w := range want {
		got, err := s.ListUsage(ctx, gtmgate.UsageQuery{TenantID: "acme", Key: key, From: t0})
		must(t, err)
		if diff := cmp.Diff(w, got); diff != "" {
			t.Errorf("ListUsage key %q (-want +got):\n%s", key, diff)
		}
	}
	recent, err := s.RecentUsage(ctx, t0, 10)
	must(t, err)
	if len(recent) != 5 || recent[0].Key != "tok_a" || recent[0].TenantID != "beta" {
		t.Errorf("RecentUsage = %+v, want the newest first with its key", recent)
	}
	_, err = s.ListUsageRollups(ctx, gtmgate.UsageQuery{TenantID: "acme", Key: "tok_a", From: t0})
	if gtmgate.ErrorCode(err) != gtmgate.EValidation {
		t.Errorf("ListUsageRollups with a key: %v, want VALIDATION_ERROR", err)
	}
}

// followSome follows the log from its start until f matches something. An
// entry just written may be held back a moment by other tests'
// transactions in the same database (PostgreSQL's follow waits for the
// transactions older than it); the deadline only bounds a failure.
func followSome(t *testing.T, s gtmgate.Store, f gtmgate.AuditFilter) []gtmgate.AuditEntry {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		page, _, err := s.FollowAudit(t.Context(), f, "")
		must(t, err)
		if len(page) > 0 || time.Now().After(deadline) {
			return page
		}
	}
}

// testFollowAudit: following the log forward returns every entry once, in
// order, while several writers commit concurrently; a bad cursor is refused.
func testFollowAudit(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	_, _, err := s.FollowAudit(ctx, gtmgate.AuditFilter{}, "nonsense")
	wantErr(t, err, gtmgate.ErrInvalidCursor)

	const writers, batches, perBatch = 4, 25, 3
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for b := range batches {
				batch := make([]gtmgate.AuditEntry, perBatch)
				for i := range batch {
					n := (w*batches+b)*perBatch + i
					batch[i] = auditEntry(n, "acme", "a", gtmgate.SourceREST, "k", gtmgate.OutcomeOK, t0.Add(time.Duration(n)*time.Second))
				}
				if err := s.WriteCalls(ctx, batch, nil); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()

	seen := map[string]int{}
	var lastID int64
	cursor, total := "", writers*batches*perBatch
	// Once the writers are done, follow until every entry has come: a
	// transaction elsewhere in the database (another test's) can hold the
	// follow back for a while, never lose an entry. The deadline only
	// bounds a failure.
	deadline := time.Now().Add(30 * time.Second)
	for finished := false; ; {
		select {
		case <-done:
			finished = true
		default:
		}
		page, next, err := s.FollowAudit(ctx, gtmgate.AuditFilter{Limit: 7}, cursor)
		must(t, err)
		for _, e := range page {
			seen[e.RequestID]++
			lastID = e.ID
		}
		if next == "" {
			t.Fatal("no next cursor")
		}
		cursor = next
		if finished && len(page) == 0 && (len(seen) >= total || time.Now().After(deadline)) {
			break
		}
		if len(page) == 0 {
			time.Sleep(5 * time.Millisecond)
		}
	}
	if len(seen) != total {
		t.Errorf("followed %d distinct entries, want %d", len(seen), total)
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s returned %d times", id, n)
		}
	}
	// Nothing new: the same cursor comes back.
	page, again, err := s.FollowAudit(ctx, gtmgate.AuditFilter{}, cursor)
	must(t, err)
	if len(page) != 0 || again != cursor || !strings.HasSuffix(cursor, fmt.Sprintf(".%d", lastID)) {
		t.Errorf("idle follow: %d entries, cursor %q → %q (last id %d)", len(page), cursor, again, lastID)
	}
	// Filters apply. The entry may be held back a moment by other tests'
	// transactions in the same database; the deadline only bounds a failure.
	must(t, s.WriteCalls(ctx, []gtmgate.AuditEntry{auditEntry(9999, "beta", "a", gtmgate.SourceMCP, "k", gtmgate.OutcomeOK, t0)}, nil))
	page = followSome(t, s, gtmgate.AuditFilter{TenantID: "beta"})
	if len(page) != 1 || page[0].TenantID != "beta" {
		t.Errorf("tenant filter: %+v", page)
	}
}
