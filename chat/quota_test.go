package chat

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
)

// fakeQuota admits every completion and remembers what it was asked.
type fakeQuota struct {
	mu   sync.Mutex
	uses []gtmgate.QuotaUse
	res  []*fakeReservation
}

func (f *fakeQuota) ReserveQuota(_ context.Context, u gtmgate.QuotaUse) (gtmgate.QuotaReservation, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r := &fakeReservation{done: make(chan struct{})}
	f.uses, f.res = append(f.uses, u), append(f.res, r)
	return r, nil
}

type fakeReservation struct {
	mu       sync.Mutex
	released int
	done     chan struct{} // closed by the first Release
}

func (r *fakeReservation) Warning() string { return "" }

func (r *fakeReservation) Release() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.released++; r.released == 1 {
		close(r.done)
	}
}

// TestCompletionHoldsItsTokenCap: a completion is admitted holding its
// max_completion_tokens (else max_tokens, else nothing), its usage event
// carries the reservation, and the handler releases it before returning (a
// no-op once the event was counted).
func TestCompletionHoldsItsTokenCap(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		body    string
		wantCap int64
	}{
		{"max_tokens", `{"model":"small","max_tokens":300,"messages":[]}`, 300},
		{"max_completion_tokens first", `{"model":"small","max_tokens":300,"max_completion_tokens":120,"messages":[]}`, 120},
		{"a float cap", `{"model":"small","max_tokens":64.0,"messages":[]}`, 64},
		{"no cap", `{"model":"small","messages":[]}`, 0},
		{"a cap the upstream will judge", `{"model":"small","max_tokens":"many","messages":[]}`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			q := &fakeQuota{}
			e := newEnv(t, jsonUpstream(200, answerBody, nil), func(o *Options) { o.Quota = q })
			resp := e.post(t, context.Background(), tt.body, nil)
			readString(t, resp.Body)
			resp.Body.Close()
			rec := e.recorder.next(t)
			q.mu.Lock()
			defer q.mu.Unlock()
			if len(q.uses) != 1 {
				t.Fatalf("%d reservations, want 1", len(q.uses))
			}
			want := gtmgate.QuotaUse{TenantID: "acme", Use: gtmgate.UseChat, Model: "small", MaxTokens: tt.wantCap}
			if q.uses[0] != want {
				t.Errorf("reserved %+v, want %+v", q.uses[0], want)
			}
			if rec.usage == nil || rec.usage.Reservation != gtmgate.QuotaReservation(q.res[0]) {
				t.Errorf("the usage event does not carry the reservation: %+v", rec.usage)
			}
			// The handler releases as it returns, after the answer is written;
			// waiting is bounded only to turn a bug into a failure.
			select {
			case <-q.res[0].done:
			case <-time.After(10 * time.Second):
			}
			q.res[0].mu.Lock()
			defer q.res[0].mu.Unlock()
			if q.res[0].released != 1 {
				t.Errorf("released %d times, want once", q.res[0].released)
			}
		})
	}
}
