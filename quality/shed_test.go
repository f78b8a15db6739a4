package quality

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jobs"
)

func TestBacklogAdmit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name           string
		max, waiting   int64
		added          int64
		degraded       bool
		want           string
		wantAddedAfter int64
	}{
		{name: "no bound", max: 0, waiting: 1_000_000, want: ""},
		{name: "below the bound", max: 100, waiting: 50, want: "", wantAddedAfter: 1},
		{name: "at the bound", max: 100, waiting: 100, want: DropBacklog},
		{name: "local additions count before the next refresh", max: 100, waiting: 90, added: 10, want: DropBacklog, wantAddedAfter: 10},
		{name: "degraded within the margin", max: 100, waiting: 124, degraded: true, want: "", wantAddedAfter: 1},
		{name: "degraded past the margin", max: 100, waiting: 125, degraded: true, want: DropBacklogDegraded},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := &backlog{max: tc.max}
			b.waiting.Store(tc.waiting)
			b.added.Store(tc.added)
			if got := b.admit(tc.degraded); got != tc.want {
				t.Errorf("admit = %q, want %q", got, tc.want)
			}
			if tc.max > 0 && b.added.Load() != tc.wantAddedAfter {
				t.Errorf("added = %d, want %d", b.added.Load(), tc.wantAddedAfter)
			}
		})
	}
}

func job(id string, priority int) river.InsertManyParams {
	return river.InsertManyParams{Args: GradeArgs{VerdictID: id}, InsertOpts: &river.InsertOpts{Priority: priority}}
}

func ids(ps []river.InsertManyParams) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Args.(GradeArgs).VerdictID)
	}
	return out
}

func TestRetryBuffer(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		max         int
		add         []river.InsertManyParams
		wantDropped int
		wantTake    []string
	}{
		{name: "under the bound keeps all, degraded first", max: 4,
			add:      []river.InsertManyParams{job("a", 3), job("d", priorityDegraded), job("b", 2)},
			wantTake: []string{"d", "a", "b"}},
		{name: "full: the newest are dropped", max: 2,
			add:         []river.InsertManyParams{job("a", 3), job("b", 3), job("c", 3)},
			wantDropped: 1, wantTake: []string{"a", "b"}},
		{name: "full: a degraded job displaces the oldest other", max: 2,
			add:         []river.InsertManyParams{job("a", 3), job("b", 3), job("d", priorityDegraded)},
			wantDropped: 1, wantTake: []string{"d", "b"}},
		{name: "full of degraded jobs: another degraded one is dropped", max: 1,
			add:         []river.InsertManyParams{job("d1", priorityDegraded), job("d2", priorityDegraded)},
			wantDropped: 1, wantTake: []string{"d1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := &retryBuffer{max: tc.max}
			if got := b.add(tc.add); got != tc.wantDropped {
				t.Errorf("dropped %d, want %d", got, tc.wantDropped)
			}
			got := ids(b.take(10))
			if len(got) != len(tc.wantTake) {
				t.Fatalf("took %v, want %v", got, tc.wantTake)
			}
			for i := range got {
				if got[i] != tc.wantTake[i] {
					t.Errorf("took %v, want %v", got, tc.wantTake)
				}
			}
			if b.len() != 0 {
				t.Errorf("%d left after taking all", b.len())
			}
		})
	}
}

func TestRetryBackoff(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]time.Duration{0: time.Second, 1: time.Second, 2: 2 * time.Second, 3: 4 * time.Second,
		6: 30 * time.Second, 50: 30 * time.Second} {
		if got := retryBackoff(n); got != want {
			t.Errorf("retryBackoff(%d) = %s, want %s", n, got, want)
		}
	}
}

// flakyJobs fails while down is set.
type flakyJobs struct {
	down     bool
	inserted []string
}

func (f *flakyJobs) InsertMany(_ context.Context, ps []river.InsertManyParams) error {
	if f.down {
		return errors.New("the store is unavailable")
	}
	f.inserted = append(f.inserted, ids(ps)...)
	return nil
}

// TestHarnessShedsAndRetries drives Observe, insert and retry by hand: past
// the bound plain samples are shed and degraded ones kept (up to the
// margin); jobs whose insert failed wait in the retry buffer (the newest
// past its bound dropped) and are queued once the store is back.
func TestHarnessShedsAndRetries(t *testing.T) {
	t.Parallel()
	h := New(Options{MaxWaiting: 4, RetryBuffer: 3, Waiting: func(context.Context) (int64, error) { return 0, nil }})
	f := &flakyJobs{down: true}
	h.Attach(f)
	h.backlog.refreshed(3)
	call := func(id string, degraded bool) *gtmgate.FinishedCall {
		c := &gtmgate.FinishedCall{Time: time.Unix(0, 0), TenantID: "acme", Tool: "crm_deals", Action: gtmgate.Action{Name: "list"}, RequestID: id}
		if degraded {
			c.Sample.Reasons = []string{"degraded_path"}
		}
		return c
	}
	h.Observe(call("r1", false)) // 3 waiting: admitted, 4 now
	h.Observe(call("r2", false)) // shed
	h.Observe(call("r3", true))  // degraded within 4 × 1.25: admitted
	h.Observe(call("r4", true))  // 5 ≥ 5: shed
	b := h.Backlog()
	if b.Dropped[DropBacklog] != 1 || b.Dropped[DropBacklogDegraded] != 1 || len(h.pending) != 2 {
		t.Fatalf("after four samples: dropped %v, %d handed on; want one shed of each kind, two handed on", b.Dropped, len(h.pending))
	}
	var params []river.InsertManyParams
	for len(h.pending) > 0 {
		params = append(params, h.job(<-h.pending))
	}
	params = append(params, job("extra1", jobs.PriorityThird), job("extra2", jobs.PriorityThird))
	if h.insert(t.Context(), params) {
		t.Fatal("insert reported success with the store down")
	}
	if b := h.Backlog(); b.RetryBuffered != 3 || b.Dropped[DropRetryFull] != 1 {
		t.Fatalf("retry buffer %d, dropped %v; want 3 kept and 1 dropped", b.RetryBuffered, b.Dropped)
	}
	if h.retry(t.Context()) {
		t.Fatal("retry reported an empty buffer with the store down")
	}
	f.down = false
	if !h.retry(t.Context()) || len(f.inserted) != 3 || h.Backlog().RetryBuffered != 0 {
		t.Fatalf("after the store came back: inserted %v, %d still buffered", f.inserted, h.Backlog().RetryBuffered)
	}
	if f.inserted[0] != params[1].Args.(GradeArgs).VerdictID {
		t.Errorf("inserted %v: the degraded path's job should go first", f.inserted)
	}
}

func TestGradePriority(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		reasons []string
		want    int
	}{
		{nil, jobs.PriorityThird},
		{[]string{"production_tenant"}, jobs.PrioritySecond},
		{[]string{"mutating_category"}, jobs.PrioritySecond},
		{[]string{"mutating_category", "production_tenant", "degraded_path"}, jobs.PriorityFirst},
	} {
		if got := gradePriority(gtmgate.Sample{Reasons: tc.reasons}); got != tc.want {
			t.Errorf("gradePriority(%v) = %d, want %d", tc.reasons, got, tc.want)
		}
	}
}
