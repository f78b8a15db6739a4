package storecache

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gtmgate/gtmgate"
)

// Store behaviours of outageStore.
const (
	storeUp int32 = iota
	storeUnavailable
	storeHanging
)

// outageStore answers, fails as unavailable, or hangs until the read's
// context ends, as its mode says; it counts the reads that reached it.
type outageStore struct {
	gtmgate.Store
	mode  atomic.Int32
	reads atomic.Int32
}

func (o *outageStore) read(ctx context.Context) error {
	o.reads.Add(1)
	switch o.mode.Load() {
	case storeUnavailable:
		return &gtmgate.Error{Code: gtmgate.EUnavailable, Message: "the store is unavailable", Err: gtmgate.ErrStoreUnavailable}
	case storeHanging:
		<-ctx.Done()
		return ctx.Err()
	}
	return nil
}

func (o *outageStore) FindTenantToken(ctx context.Context, hash string) (*gtmgate.TenantToken, error) {
	if err := o.read(ctx); err != nil {
		return nil, err
	}
	return &gtmgate.TenantToken{ID: "tok_" + hash, TenantID: "t"}, nil
}

func (o *outageStore) RevokeTenantToken(context.Context, string, string, time.Time) error {
	return nil
}

func (o *outageStore) GetTenant(ctx context.Context, id string) (*gtmgate.Tenant, error) {
	if err := o.read(ctx); err != nil {
		return nil, err
	}
	return &gtmgate.Tenant{ID: id}, nil
}

func (o *outageStore) GetProviderToken(ctx context.Context, tenantID, provider, account string) (*gtmgate.ProviderToken, error) {
	if err := o.read(ctx); err != nil {
		return nil, err
	}
	return &gtmgate.ProviderToken{TenantID: tenantID, Provider: provider, AccountID: account}, nil
}

// toolCall makes the three reads a built-in tool call makes and reports
// how long they took.
func toolCall(s *Store, hash string) (time.Duration, error) {
	ctx := context.Background()
	start := time.Now()
	if _, err := s.FindTenantToken(ctx, hash); err != nil {
		return time.Since(start), err
	}
	if _, err := s.GetTenant(ctx, "t"); err != nil {
		return time.Since(start), err
	}
	_, err := s.GetProviderToken(ctx, "t", "hubspot", "a")
	return time.Since(start), err
}

// TestOutage: once the store is found down, concurrent calls are served
// from the cache and the store is read by one caller per TTL; a hanging
// store costs that caller one LoadTimeout and no one else anything.
func TestOutage(t *testing.T) {
	const callers, intervals = 10, 3
	for _, tc := range []struct {
		name string
		mode int32
		// slowest is the longest call allowed while the store is down.
		slowest time.Duration
	}{
		{"unavailable", storeUnavailable, 0},
		{"hanging", storeHanging, LoadTimeout},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				base := &outageStore{}
				s := New(base, time.Second, nil)
				var log syncBuffer
				s.Logger = slog.New(slog.NewTextHandler(&log, nil))
				if _, err := toolCall(s, "h"); err != nil {
					t.Fatal(err)
				}
				base.mode.Store(tc.mode)
				time.Sleep(2 * time.Second)
				// The call that finds the store down pays for one read only.
				if took, err := toolCall(s, "h"); err != nil || took > tc.slowest {
					t.Fatalf("first call of the outage: %v after %s, want served within %s", err, took, tc.slowest)
				}
				for i := range intervals {
					time.Sleep(2 * time.Second) // past the TTL
					base.reads.Store(0)
					var wg sync.WaitGroup
					var slowest atomic.Int64
					var failed atomic.Int32
					for range callers {
						wg.Go(func() {
							took, err := toolCall(s, "h")
							if err != nil {
								failed.Add(1)
							}
							for old := slowest.Load(); int64(took) > old && !slowest.CompareAndSwap(old, int64(took)); old = slowest.Load() {
							}
						})
					}
					wg.Wait()
					if n := base.reads.Load(); n != 1 {
						t.Errorf("interval %d: %d store reads by %d concurrent calls, want 1", i, n, callers)
					}
					if n := failed.Load(); n != 0 {
						t.Errorf("interval %d: %d calls failed, want all served from the cache", i, n)
					}
					if got := time.Duration(slowest.Load()); got > tc.slowest {
						t.Errorf("interval %d: slowest call took %s, want at most %s", i, got, tc.slowest)
					}
				}

				// Nothing cached to serve: refused at once while the store is down.
				base.reads.Store(0)
				if took, err := toolCall(s, "never-seen"); gtmgate.ErrorCode(err) != gtmgate.EUnavailable || took > 0 || base.reads.Load() != 0 {
					t.Errorf("unknown token while down: %v after %s with %d reads, want UNAVAILABLE at once, no read", err, took, base.reads.Load())
				}

				// Recovered: the next caller past the TTL reads the store and the
				// cache is fresh again.
				base.mode.Store(storeUp)
				time.Sleep(2 * time.Second)
				base.reads.Store(0)
				if _, err := toolCall(s, "h"); err != nil {
					t.Fatal(err)
				}
				if _, err := toolCall(s, "never-seen"); err != nil {
					t.Errorf("after recovery: %v", err)
				}
				if n := base.reads.Load(); n != 4 {
					t.Errorf("after recovery: %d store reads, want 4 (three refreshed, one new token)", n)
				}
				out := log.String()
				if strings.Count(out, "storecache: the store is unavailable") != 1 || strings.Count(out, "the store answers again") != 1 {
					t.Errorf("the outage is not logged once at its start and once at its end:\n%s", out)
				}
			})
		})
	}
}

// TestOutageKeepsTheStalenessBound: an entry older than StaleFor is not
// served through an outage, however the outage began; a revocation made
// on this replica drops the token at once.
func TestOutageKeepsTheStalenessBound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		base := &outageStore{}
		s := New(base, time.Second, nil)
		toolCall(s, "h")
		toolCall(s, "r")
		base.mode.Store(storeHanging)
		time.Sleep(2 * time.Second)
		if _, err := toolCall(s, "h"); err != nil {
			t.Fatalf("within StaleFor: %v", err)
		}
		s.RevokeTenantToken(ctx, "t", "tok_r", time.Now())
		if _, err := s.FindTenantToken(ctx, "r"); gtmgate.ErrorCode(err) != gtmgate.EUnavailable {
			t.Errorf("revoked token during the outage: %v, want UNAVAILABLE", err)
		}
		time.Sleep(StaleFor)
		for range 2 { // the prober and a caller served meanwhile
			if _, err := s.FindTenantToken(ctx, "h"); gtmgate.ErrorCode(err) != gtmgate.EUnavailable {
				t.Errorf("past StaleFor: %v, want UNAVAILABLE", err)
			}
		}
	})
}

// TestProberGivingUp: a prober whose caller gives up neither ends the
// outage nor keeps others from asking the store.
func TestProberGivingUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		base := &outageStore{}
		s := New(base, time.Second, nil)
		toolCall(s, "h")
		base.mode.Store(storeHanging)
		time.Sleep(2 * time.Second)
		toolCall(s, "h") // finds the store down
		time.Sleep(2 * time.Second)
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		s.GetTenant(ctx, "t")
		cancel()
		base.reads.Store(0)
		base.mode.Store(storeUp)
		if _, err := s.GetTenant(context.Background(), "t"); err != nil || base.reads.Load() != 1 {
			t.Errorf("after the prober gave up: %v, %d reads; want the next caller to read the store", err, base.reads.Load())
		}
	})
}

// syncBuffer is a bytes.Buffer safe for concurrent loggers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
