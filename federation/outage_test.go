package federation_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/federation"
)

// failingStore answers ListMCPServers from the store underneath, or fails
// with fail, or, with hang set, holds the read until its context ends.
type failingStore struct {
	gtmgate.Store
	mu    sync.Mutex
	fail  error
	hang  bool
	reads atomic.Int32
}

func (s *failingStore) set(fail error, hang bool) {
	s.mu.Lock()
	s.fail, s.hang = fail, hang
	s.mu.Unlock()
}

func (s *failingStore) ListMCPServers(ctx context.Context, tenantID string) ([]*gtmgate.MCPServer, error) {
	s.reads.Add(1)
	s.mu.Lock()
	fail, hang := s.fail, s.hang
	s.mu.Unlock()
	if hang {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	if fail != nil {
		return nil, fail
	}
	return s.Store.ListMCPServers(ctx, tenantID)
}

// unavailable is the error a SQL store returns when its database is gone.
var unavailable = &gtmgate.Error{Code: gtmgate.EUnavailable, Message: "the store is unavailable",
	Err: errors.Join(gtmgate.ErrStoreUnavailable, errors.New("dial tcp: connection refused"))}

// outageCatalog returns a catalogue whose store can be made to fail, on a
// clock the test moves, after acme's server was listed with its tools.
func outageCatalog(t *testing.T) (*federation.Catalog, *failingStore, *time.Time) {
	return outageCatalogLogging(t, slog.New(slog.DiscardHandler))
}

func outageCatalogLogging(t *testing.T, log *slog.Logger) (*federation.Catalog, *failingStore, *time.Time) {
	t.Helper()
	_, st, up := newCatalog(t)
	if _, err := st.PutMCPServer(t.Context(), &gtmgate.MCPServer{TenantID: "acme", Name: "up", URL: "https://mcp.example/mcp",
		AutoAcceptChanges: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := federation.New(federation.Options{Store: st, Upstream: up}).Refresh(t.Context(), "acme", "up"); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	fs := &failingStore{Store: st}
	c := federation.New(federation.Options{Store: fs, Upstream: up, CacheFor: 5 * time.Second,
		LoadTimeout: 50 * time.Millisecond, StaleFor: time.Minute, Now: func() time.Time { return now }, Logger: log})
	return c, fs, &now
}

// TestToolsThroughStoreOutage: while the store is unavailable or hangs, a
// tenant's federated tools are served as last loaded (up to StaleFor);
// an answer of the store (not found) is never papered over; a process that
// never loaded the tenant has nothing to serve; the operator's reads are
// not served stale; and the store's return brings a fresh view.
func TestToolsThroughStoreOutage(t *testing.T) {
	for _, tc := range []struct {
		name string
		// warm loads the tenant's view before the failure.
		warm  bool
		fail  error
		hang  bool
		after time.Duration // from the last load
		// want: the number of tools served, or the error code.
		want     int
		wantCode string
	}{
		{name: "unavailable serves the last view", warm: true, fail: unavailable, after: 6 * time.Second, want: 3},
		{name: "a hanging store serves the last view", warm: true, hang: true, after: 6 * time.Second, want: 3},
		{name: "too old to serve", warm: true, fail: unavailable, after: 2 * time.Minute, wantCode: gtmgate.EUnavailable},
		{name: "not found is an answer", warm: true, fail: gtmgate.ErrNotFound, after: 6 * time.Second, wantCode: gtmgate.EInternal},
		{name: "nothing loaded, nothing to serve", fail: unavailable, wantCode: gtmgate.EUnavailable},
		{name: "nothing loaded, hanging store", hang: true, wantCode: gtmgate.EUnavailable},
		{name: "recovered", warm: true, after: 6 * time.Second, want: 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, fs, now := outageCatalog(t)
			ctx := t.Context()
			if tc.warm {
				if tools, _, err := c.Tools(ctx, "acme"); err != nil || len(tools) != 3 {
					t.Fatalf("healthy: %d tools, %v", len(tools), err)
				}
			}
			fs.set(tc.fail, tc.hang)
			*now = now.Add(tc.after)
			start := time.Now()
			tools, _, err := c.Tools(ctx, "acme")
			if took := time.Since(start); took > time.Second {
				t.Errorf("Tools took %s; the load is bounded by 50ms", took)
			}
			if tc.wantCode != "" {
				if gtmgate.ErrorCode(err) != tc.wantCode || len(tools) != 0 {
					t.Fatalf("Tools = %d tools, %v; want %s", len(tools), err, tc.wantCode)
				}
				return
			}
			if err != nil || len(tools) != tc.want {
				t.Fatalf("Tools = %d tools, %v; want %d", len(tools), err, tc.want)
			}
			if _, err := c.Tool(ctx, "acme", "up__read"); err != nil {
				t.Errorf("Tool(up__read) = %v", err)
			}
		})
	}
}

// TestStoreAskedOncePerCachePeriodDuringOutage: while the store fails, the
// calls of a cache period cost the store one read (and one call the load
// time-out), not one each; the store's return is seen within a period;
// the operator's list of servers is not served stale; the outage is logged
// once, and its end.
func TestStoreAskedOncePerCachePeriodDuringOutage(t *testing.T) {
	var logs syncBuffer
	c, fs, now := outageCatalogLogging(t, slog.New(slog.NewTextHandler(&logs, nil)))
	ctx := t.Context()
	if _, _, err := c.Tools(ctx, "acme"); err != nil {
		t.Fatal(err)
	}
	fs.set(nil, true)
	*now = now.Add(6 * time.Second)
	fs.reads.Store(0)
	if tools, _, err := c.Tools(ctx, "acme"); err != nil || len(tools) != 3 {
		t.Fatalf("first call of the outage: %d tools, %v", len(tools), err)
	}
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if tools, _, err := c.Tools(ctx, "acme"); err != nil || len(tools) != 3 {
				t.Errorf("during the outage: %d tools, %v", len(tools), err)
			}
		})
	}
	wg.Wait()
	if n := fs.reads.Load(); n != 1 {
		t.Errorf("21 calls in one cache period read the store %d times, want 1", n)
	}
	if _, err := c.Servers(ctx, "acme"); gtmgate.ErrorCode(err) != gtmgate.EUnavailable {
		t.Errorf("Servers during the outage = %v, want UNAVAILABLE", err)
	}
	// Changed (after Servers) does not cost the calls their last view.
	if tools, _, err := c.Tools(ctx, "acme"); err != nil || len(tools) != 3 {
		t.Fatalf("after Servers during the outage: %d tools, %v", len(tools), err)
	}
	fs.set(nil, false)
	*now = now.Add(5 * time.Second)
	fs.reads.Store(0)
	if tools, _, err := c.Tools(ctx, "acme"); err != nil || len(tools) != 3 || fs.reads.Load() != 1 {
		t.Fatalf("after the outage: %d tools, %v, %d reads; want a fresh read", len(tools), err, fs.reads.Load())
	}
	if _, err := c.Servers(ctx, "acme"); err != nil {
		t.Errorf("Servers after the outage = %v", err)
	}
	out := logs.String()
	if n := strings.Count(out, "serving the tenant's MCP servers as last loaded"); n != 1 {
		t.Errorf("the outage was logged %d times, want once:\n%s", n, out)
	}
	if n := strings.Count(out, "the store answers again"); n != 1 {
		t.Errorf("its end was logged %d times, want once:\n%s", n, out)
	}
}

// syncBuffer is a bytes.Buffer several goroutines may log to.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
