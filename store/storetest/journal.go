package storetest

import (
	"context"
	"sync"
	"testing"

	"github.com/gtmgate/gtmgate"
)

// testAuditJournal checks that a journal's mark moves with the rows it covers
// and that a range is never applied twice.
func testAuditJournal(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	count := func() int {
		t.Helper()
		entries, _, err := s.QueryAudit(ctx, gtmgate.AuditFilter{TenantID: "acme", Limit: 1000})
		must(t, err)
		return len(entries)
	}
	batch := func(i int) []gtmgate.AuditEntry {
		return []gtmgate.AuditEntry{auditEntry(i, "acme", "x.list", gtmgate.SourceREST, "k", gtmgate.OutcomeOK, t0)}
	}
	usage := []gtmgate.UsageEvent{{Time: t0, TenantID: "acme", Source: gtmgate.SourceREST, Tool: "x", Action: "list", OK: true}}

	mark, err := s.JournalMark(ctx, "j1")
	must(t, err)
	if mark != 0 {
		t.Fatalf("mark of an unknown journal = %d", mark)
	}
	steps := []struct {
		name     string
		from, to int64
		wantErr  error
		rows     int // audit rows after the step
		mark     int64
	}{
		{"first range", 0, 100, nil, 1, 100},
		{"same range again is a no-op", 0, 100, nil, 1, 100},
		{"next range", 100, 250, nil, 2, 250},
		{"an older range is a no-op", 100, 250, nil, 2, 250},
		{"a gap is refused", 300, 400, gtmgate.ErrConflict, 2, 250},
		{"overlap past the mark is refused", 200, 400, gtmgate.ErrConflict, 2, 250},
		{"continues after a refusal", 250, 300, nil, 3, 300},
	}
	for i, st := range steps {
		err := s.ApplyJournal(ctx, "j1", st.from, st.to, batch(i), usage)
		if st.wantErr != nil {
			wantErr(t, err, st.wantErr)
		} else if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if n := count(); n != st.rows {
			t.Fatalf("%s: %d audit rows, want %d", st.name, n, st.rows)
		}
		mark, err := s.JournalMark(ctx, "j1")
		must(t, err)
		if mark != st.mark {
			t.Fatalf("%s: mark %d, want %d", st.name, mark, st.mark)
		}
	}
	ev, err := s.ListUsage(ctx, gtmgate.UsageQuery{TenantID: "acme", From: t0.AddDate(0, 0, -1), To: t0.AddDate(0, 0, 1)})
	must(t, err)
	if len(ev) != 3 {
		t.Fatalf("%d usage events, want 3 (one per applied range)", len(ev))
	}

	// Two appliers racing on one range write it once.
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.ApplyJournal(ctx, "j2", 0, 10, batch(100+i), nil)
		}()
	}
	wg.Wait()
	if n := count(); n != 4 {
		t.Fatalf("%d audit rows after a race on one range, want 4", n)
	}

	must(t, s.ForgetJournal(ctx, "j1"))
	if mark, err := s.JournalMark(ctx, "j1"); err != nil || mark != 0 {
		t.Fatalf("mark after forget = %d, %v", mark, err)
	}
}

// RequestIDs pages through the audit entries matching f (its Before and
// Limit are set here) and counts the entries of each request id: tests use
// it to check that every acknowledged call was written exactly once.
func RequestIDs(t testing.TB, s gtmgate.AuditStore, f gtmgate.AuditFilter) map[string]int {
	t.Helper()
	seen := map[string]int{}
	f.Before, f.Limit = 0, 1000
	for {
		entries, next, err := s.QueryAudit(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			seen[e.RequestID]++
		}
		if next == 0 {
			return seen
		}
		f.Before = next
	}
}
