package storetest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
)

// count returns the rows of a table.
func count(t *testing.T, s gtmgate.Store, table string) int {
	t.Helper()
	n, err := strconv.Atoi(rawString(t, s, "SELECT COUNT(*) FROM "+table))
	must(t, err)
	return n
}

// pruneAll prunes kind before cut in batches of batch until a batch comes
// back short, and returns the total and the number of statements.
func pruneAll(t *testing.T, s gtmgate.Store, kind string, cut time.Time, batch int) (total int64, statements int) {
	t.Helper()
	for {
		n, err := s.PruneRecords(t.Context(), kind, cut, batch)
		must(t, err)
		total += n
		statements++
		if n < int64(batch) {
			return total, statements
		}
	}
}

// testRetention: each kind loses exactly its rows older than the cut, at
// most a batch per statement; open incidents and labelled verdicts stay.
func testRetention(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	old, cut, recent := t0.Add(-time.Hour), t0, t0.Add(time.Minute)

	var audit []gtmgate.AuditEntry
	var usage []gtmgate.UsageEvent
	for i, at := range []time.Time{old, old.Add(time.Second), old.Add(2 * time.Second), recent} {
		audit = append(audit, auditEntry(i, "acme", "crm_contacts.list", gtmgate.SourceREST, "k", gtmgate.OutcomeOK, at))
		usage = append(usage, gtmgate.UsageEvent{Time: at, TenantID: "acme", Source: gtmgate.SourceREST, Tool: "crm_contacts",
			Action: "list", OK: true, DurationMS: 3, UpstreamMS: 2})
	}
	must(t, s.WriteCalls(ctx, audit, usage))
	for _, kind := range []string{gtmgate.RecordAudit, gtmgate.RecordUsageEvents} {
		if n, stmts := pruneAll(t, s, kind, cut, 2); n != 3 || stmts != 2 {
			t.Errorf("%s: pruned %d in %d statements, want 3 in 2", kind, n, stmts)
		}
	}
	if a, u := count(t, s, "audit_log"), count(t, s, "usage_events"); a != 1 || u != 1 {
		t.Errorf("left %d audit entries and %d usage events, want the recent one of each", a, u)
	}
	rollups, err := s.ListUsageRollups(ctx, gtmgate.UsageQuery{TenantID: "acme", From: old.Add(-time.Hour)})
	must(t, err)
	var calls int64
	for _, r := range rollups {
		calls += r.Calls
	}
	if calls != 4 {
		t.Errorf("rollups count %d calls after the events went, want 4", calls)
	}

	for _, e := range []*gtmgate.LedgerEntry{
		{ID: "err_old", Kind: gtmgate.LedgerFailure, Time: old, TenantID: "acme"},
		{ID: "err_new", Kind: gtmgate.LedgerFailure, Time: recent, TenantID: "acme"},
		{ID: "inc_open", Kind: gtmgate.LedgerIncident, Time: old, TenantID: "acme", Tool: "a", Status: gtmgate.IncidentOpen},
		{ID: "inc_done", Kind: gtmgate.LedgerIncident, Time: old, TenantID: "acme", Tool: "b", Status: gtmgate.IncidentResolved},
	} {
		must(t, s.AddLedgerEntry(ctx, e))
	}
	if n, _ := pruneAll(t, s, gtmgate.RecordLedger, cut, 10); n != 2 {
		t.Errorf("ledger: pruned %d, want the old failure and the resolved incident", n)
	}
	for _, id := range []string{"err_new", "inc_open"} {
		if _, err := s.GetLedgerEntry(ctx, id); err != nil {
			t.Errorf("ledger entry %s: %v", id, err)
		}
	}

	for i := range 3 {
		v := gradedVerdict(fmt.Sprint("keep", i), "acme", 5, -120+i)
		_, err := s.RecordVerdict(ctx, v, pathRules)
		must(t, err)
	}
	_, err = s.LabelVerdict(ctx, "vrd_keep0", gtmgate.VerdictLabel{Correct: true, By: "op", At: t0})
	must(t, err)
	if n, _ := pruneAll(t, s, gtmgate.RecordVerdicts, cut, 10); n != 2 {
		t.Errorf("verdicts: pruned %d, want the two unlabelled", n)
	}
	if _, err := s.GetVerdict(ctx, "vrd_keep0"); err != nil {
		t.Errorf("labelled verdict pruned: %v", err)
	}

	for i, at := range []time.Time{old, recent} {
		must(t, s.AddDelivery(ctx, &gtmgate.WebhookDelivery{WebhookID: "alerts", Event: "e", Attempt: i + 1, Time: at, OK: true}))
		must(t, s.PutQuotaCounter(ctx, gtmgate.QuotaCounter{TenantID: "acme", PeriodStart: at, Replica: "r1", Calls: 1}))
	}
	for _, kind := range []string{gtmgate.RecordWebhookDeliveries, gtmgate.RecordQuotaCounters} {
		if n, _ := pruneAll(t, s, kind, cut, 10); n != 1 {
			t.Errorf("%s: pruned %d, want 1", kind, n)
		}
	}
	if d, q := count(t, s, "webhook_deliveries"), count(t, s, "quota_counters"); d != 1 || q != 1 {
		t.Errorf("left %d deliveries and %d quota counters, want 1 each", d, q)
	}

	for _, r := range []gtmgate.Replica{{ID: "gone", SeenAt: old}, {ID: "live", SeenAt: recent}} {
		r.Hostname, r.Version, r.StartedAt = "h", "v", old
		must(t, s.Heartbeat(ctx, r))
	}
	if n, _ := pruneAll(t, s, gtmgate.RecordReplicas, cut, 10); n != 1 {
		t.Errorf("replicas: pruned %d, want the one not seen since before the cut", n)
	}
	if live, err := s.ListReplicas(ctx, time.Time{}); err != nil || len(live) != 1 || live[0].ID != "live" {
		t.Errorf("replicas left: %+v, %v", live, err)
	}

	if _, err := s.PruneRecords(ctx, "tenants", cut, 10); err == nil {
		t.Error("an unknown record kind was accepted")
	}
}

// testRollupsPreserveTotals is a property test: for random usage written in
// random batches, the hourly rollups add up to exactly what the events did,
// by tenant, tool, action and day, and still do once every raw event is
// pruned.
func testRollupsPreserveTotals(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	type key struct{ tenant, tool, action, day string }
	type sums struct {
		calls, errors, prompt, completion int64
		duration, upstream                float64
	}
	for round := range 4 {
		tenants := []string{fmt.Sprintf("p%d-acme", round), fmt.Sprintf("p%d-beta", round)}
		tools := [][2]string{{"crm_contacts", "list"}, {"crm_contacts", "create"}, {"chat", "gpt-4o"}, {"email_send", "send"}}
		want := map[key]*sums{}
		n := 1 + rng.IntN(300)
		events := make([]gtmgate.UsageEvent, n)
		for i := range events {
			tt := tools[rng.IntN(len(tools))]
			e := gtmgate.UsageEvent{
				// Three days around midnight boundaries, at microsecond precision.
				Time:     t0.Add(time.Duration(rng.Int64N(int64(72*time.Hour))) - 36*time.Hour).Truncate(time.Microsecond),
				TenantID: tenants[rng.IntN(len(tenants))], Source: gtmgate.SourceREST, Tool: tt[0], Action: tt[1],
				OK: rng.IntN(5) > 0, DurationMS: float64(rng.IntN(5000)) / 4, UpstreamMS: float64(rng.IntN(4000)) / 4,
			}
			if tt[0] == gtmgate.ChatUsageTool {
				e.Source, e.PromptTokens, e.CompletionTokens = gtmgate.SourceChat, rng.Int64N(5000), rng.Int64N(2000)
			}
			events[i] = e
			k := key{e.TenantID, e.Tool, e.Action, e.Time.UTC().Format(time.DateOnly)}
			w := want[k]
			if w == nil {
				w = &sums{}
				want[k] = w
			}
			w.calls++
			if !e.OK {
				w.errors++
			}
			w.prompt += e.PromptTokens
			w.completion += e.CompletionTokens
			w.duration += e.DurationMS
			w.upstream += e.UpstreamMS
		}
		for len(events) > 0 { // random batch sizes, as the audit writer flushes them
			b := min(len(events), 1+rng.IntN(64))
			must(t, s.WriteCalls(ctx, nil, events[:b]))
			events = events[b:]
		}
		check := func(when string) {
			got := map[key]*sums{}
			for _, tenant := range tenants {
				rows, err := s.ListUsageRollups(ctx, gtmgate.UsageQuery{TenantID: tenant, From: t0.Add(-48 * time.Hour)})
				must(t, err)
				for _, r := range rows {
					k := key{r.TenantID, r.Tool, r.Action, r.Hour.UTC().Format(time.DateOnly)}
					g := got[k]
					if g == nil {
						g = &sums{}
						got[k] = g
					}
					g.calls += r.Calls
					g.errors += r.Errors
					g.prompt += r.PromptTokens
					g.completion += r.CompletionTokens
					g.duration += r.DurationMS
					g.upstream += r.UpstreamMS
				}
			}
			if len(got) != len(want) {
				t.Fatalf("round %d %s: %d rollup groups, want %d", round, when, len(got), len(want))
			}
			for k, w := range want {
				g := got[k]
				if g == nil || g.calls != w.calls || g.errors != w.errors || g.prompt != w.prompt || g.completion != w.completion ||
					math.Abs(g.duration-w.duration) > 1e-6 || math.Abs(g.upstream-w.upstream) > 1e-6 {
					t.Fatalf("round %d %s: %+v: rollups %+v, events %+v", round, when, k, g, w)
				}
			}
		}
		check("with the events")
		pruneAll(t, s, gtmgate.RecordUsageEvents, t0.Add(72*time.Hour), 97)
		if c := count(t, s, "usage_events"); c != 0 {
			t.Fatalf("round %d: %d usage events left after pruning all", round, c)
		}
		check("after the events were pruned")
	}
}
