package retention

import (
	"context"
	"errors"
	"testing"
	"time"
)

// fakeStore holds rows of each kind as ages; PruneRecords deletes the
// oldest first, at most limit per call.
type fakeStore struct {
	rows  map[string][]time.Time
	calls map[string]int
	fail  error
}

func (f *fakeStore) PruneRecords(_ context.Context, kind string, before time.Time, limit int) (int64, error) {
	f.calls[kind]++
	if f.fail != nil {
		return 0, f.fail
	}
	var kept []time.Time
	var n int64
	for _, at := range f.rows[kind] {
		if at.Before(before) && n < int64(limit) {
			n++
			continue
		}
		kept = append(kept, at)
	}
	f.rows[kind] = kept
	return n, nil
}

func TestSweep(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	ages := func(days ...int) []time.Time {
		var out []time.Time
		for _, d := range days {
			out = append(out, now.AddDate(0, 0, -d))
		}
		return out
	}
	tests := []struct {
		name      string
		rules     []Rule
		rows      map[string][]time.Time
		wantLeft  map[string]int
		wantGone  map[string]int64
		wantCalls map[string]int
	}{
		{
			name:  "older than the window go, in batches of two",
			rules: []Rule{{"audit", 30 * 24 * time.Hour}},
			rows:  map[string][]time.Time{"audit": ages(1, 29, 31, 40, 50, 60, 70)},
			// 5 old rows: batches of 2, 2, 1 — the short batch ends the kind.
			wantLeft: map[string]int{"audit": 2}, wantGone: map[string]int64{"audit": 5}, wantCalls: map[string]int{"audit": 3},
		},
		{
			name:     "a full last batch costs one more, empty, call",
			rules:    []Rule{{"audit", 30 * 24 * time.Hour}},
			rows:     map[string][]time.Time{"audit": ages(31, 32, 33, 34)},
			wantLeft: map[string]int{"audit": 0}, wantGone: map[string]int64{"audit": 4}, wantCalls: map[string]int{"audit": 3},
		},
		{
			name:     "zero keeps forever and is never asked",
			rules:    []Rule{{"audit", 0}, {"ledger", 24 * time.Hour}},
			rows:     map[string][]time.Time{"audit": ages(400), "ledger": ages(2, 0)},
			wantLeft: map[string]int{"audit": 1, "ledger": 1}, wantGone: map[string]int64{"ledger": 1},
			wantCalls: map[string]int{"ledger": 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := &fakeStore{rows: tt.rows, calls: map[string]int{}}
			s := &Sweeper{Store: st, Rules: tt.rules, Batch: 2, Pause: time.Nanosecond, Now: func() time.Time { return now }}
			res, err := s.Sweep(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if !res.Complete {
				t.Error("sweep not complete")
			}
			for kind, n := range tt.wantLeft {
				if len(st.rows[kind]) != n {
					t.Errorf("%s: %d rows left, want %d", kind, len(st.rows[kind]), n)
				}
			}
			for kind, n := range tt.wantGone {
				if res.Deleted[kind] != n {
					t.Errorf("%s: deleted %d, want %d", kind, res.Deleted[kind], n)
				}
			}
			for kind, n := range tt.wantCalls {
				if st.calls[kind] != n {
					t.Errorf("%s: %d statements, want %d", kind, st.calls[kind], n)
				}
			}
			if st.calls["audit"] > 0 && tt.rules[0].Keep == 0 {
				t.Error("a kind kept forever was pruned")
			}
		})
	}
}

func TestSweepStopsWhenTimeIsUp(t *testing.T) {
	now := time.Now()
	var rows []time.Time
	for range 10 {
		rows = append(rows, now.AddDate(-1, 0, 0))
	}
	st := &fakeStore{rows: map[string][]time.Time{"audit": rows}, calls: map[string]int{}}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	s := &Sweeper{Store: st, Rules: []Rule{{"audit", time.Hour}}, Batch: 2}
	res, err := s.Sweep(ctx)
	if err != nil || res.Complete || res.Deleted["audit"] != 2 {
		t.Fatalf("sweep past its time: %+v, %v; want one batch and incomplete", res, err)
	}
}

func TestSweepReportsStoreFailure(t *testing.T) {
	st := &fakeStore{rows: map[string][]time.Time{}, calls: map[string]int{}, fail: errors.New("disk I/O error")}
	s := &Sweeper{Store: st, Rules: []Rule{{"audit", time.Hour}}}
	if _, err := s.Sweep(t.Context()); err == nil {
		t.Fatal("a failing store gave no error")
	}
}
