package federation

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gtmgate/gtmgate"
)

// Refresh lists the server's tools now and stores what it found. When the
// upstream cannot be listed the last good list is kept, and the failure
// recorded in the server's state; the error is returned too.
func (c *Catalog) Refresh(ctx context.Context, tenantID, name string) (ServerView, error) {
	lock := c.lockFor(tenantID, name)
	lock.Lock()
	defer lock.Unlock()
	s, err := c.opts.Store.GetMCPServer(ctx, tenantID, name)
	if err != nil {
		return ServerView{}, err
	}
	refreshErr := c.refresh(ctx, s)
	c.Changed(tenantID, "")
	v, err := c.Server(ctx, tenantID, name)
	if err != nil {
		return ServerView{}, err
	}
	return v, refreshErr
}

func (c *Catalog) lockFor(tenantID, name string) *sync.Mutex {
	return &c.serverRefresh(tenantID, name).mu
}

// serverRefresh is one server's refresh state: the lock that makes its
// refreshes one at a time, and the list_changed coalescer.
type serverRefresh struct {
	mu sync.Mutex // held for the whole of a refresh

	// changes is guarded by cmu, never held across a refresh: a
	// notification only sets a flag and returns.
	cmu     sync.Mutex
	running bool // a refresh after list_changed is in flight
	queued  bool // another list_changed came during it
}

func (c *Catalog) serverRefresh(tenantID, name string) *serverRefresh {
	l, _ := c.refreshing.LoadOrStore(serverKey{tenantID, name}, &serverRefresh{})
	return l.(*serverRefresh)
}

// refresh lists s's tools and saves the outcome in its state.
func (c *Catalog) refresh(ctx context.Context, s *gtmgate.MCPServer) error {
	lctx, cancel := context.WithTimeout(ctx, c.opts.ListTimeout)
	defer cancel()
	start := c.opts.Now()
	tools, listErr := c.opts.Upstream.ListTools(lctx, s)
	now := c.opts.Now()
	st := s.State
	st.CheckedAt = &now
	// A listing over a bound counts as a failed one (reachable false, as
	// the console and health read it); the error says why.
	if listErr == nil {
		listErr = checkListing(s.Name, tools)
	}
	if listErr == nil {
		body, err := json.Marshal(tools)
		if err != nil {
			listErr = fmt.Errorf("federation: encode %s's tool list: %w", s.Name, err)
		} else {
			st.Tools, st.ToolsRefreshedAt = body, &now
		}
	}
	st.Reachable = listErr == nil
	st.LatencyMS = float64(now.Sub(start).Microseconds()) / 1000
	st.Error, st.NotConnected = "", gtmgate.ErrorCode(listErr) == gtmgate.EReauthRequired
	if listErr != nil {
		st.Error = gtmgate.AsError(listErr).Message
	}
	// The outcome is stored even when the caller has gone.
	sctx, scancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer scancel()
	if err := c.opts.Store.SaveMCPServerState(sctx, s.TenantID, s.Name, st); err != nil && !errors.Is(err, gtmgate.ErrNotFound) {
		return fmt.Errorf("federation: save %s's state: %w", s.Name, err)
	}
	c.afterListing(sctx, s, st, listErr) // pin.go: pin, audit changes, auto-accept
	if listErr != nil {
		c.opts.Logger.Warn("federation: tool list refresh failed; keeping the last good list", "tenant", s.TenantID,
			"server", s.Name, "code", gtmgate.ErrorCode(listErr), "err", st.Error)
	}
	return listErr
}

// defaultListChangedGap is Options.ListChangedGap's default.
const defaultListChangedGap = 2 * time.Second

// ToolsChanged is told when an upstream session reports
// notifications/tools/list_changed: the list is refreshed in the
// background. Notifications are coalesced per server: at most one refresh
// is in flight and one queued, and the refreshes they make are
// ListChangedGap apart, so a burst costs at most two refreshes (one now,
// one when the gap has passed, which sees whatever changed meanwhile) and
// a flood one per gap. A notification that arrives during a refresh is
// never lost: the refresh in flight may have listed before the change, so
// one more follows. A server flooding list_changed so costs others a flag
// set per notification, and its own refreshes are those of a calm server.
func (c *Catalog) ToolsChanged(tenantID, name string) {
	sr := c.serverRefresh(tenantID, name)
	sr.cmu.Lock()
	if sr.running {
		sr.queued = true
		sr.cmu.Unlock()
		return
	}
	sr.running = true
	sr.cmu.Unlock()
	gap := c.opts.ListChangedGap
	if gap <= 0 {
		gap = defaultListChangedGap
	}
	go func() {
		for {
			c.refreshAfterChange(tenantID, name)
			// Still running through the gap: what comes now is queued.
			time.Sleep(gap)
			sr.cmu.Lock()
			if !sr.queued {
				sr.running = false
				sr.cmu.Unlock()
				return
			}
			sr.queued = false
			sr.cmu.Unlock()
		}
	}()
}

func (c *Catalog) refreshAfterChange(tenantID, name string) {
	ctx, cancel := context.WithTimeout(context.Background(), c.opts.ListTimeout+10*time.Second)
	defer cancel()
	if _, err := c.Refresh(ctx, tenantID, name); err != nil {
		c.opts.Logger.Warn("federation: refresh after list_changed failed", "tenant", tenantID, "server", name,
			"err", gtmgate.AsError(err).Message)
	}
}

// refreshSlots is how many refreshes RefreshDue runs at once, across
// tenants. Each tenant takes at most one slot at a time (its servers are
// refreshed one after another), so a tenant whose servers all hang holds
// one slot for ListTimeout per server and every other tenant keeps
// refreshSlots-1; only refreshSlots tenants hanging at once could delay
// the rest, by at most one ListTimeout per round. A cap per tenant rather
// than per server is the point: a tenant cannot buy slots by adding
// servers.
const refreshSlots = 8

// RefreshDue refreshes every server, of every tenant, last checked longer
// than every ago: one server of a tenant at a time, refreshSlots at once
// overall. It returns how many it refreshed and how many of those failed.
func (c *Catalog) RefreshDue(ctx context.Context, every time.Duration) (refreshed, failed int, err error) {
	servers, err := c.opts.Store.ListMCPServers(ctx, "")
	if err != nil {
		return 0, 0, fmt.Errorf("federation: list MCP servers: %w", err)
	}
	now := c.opts.Now()
	due := map[string][]*gtmgate.MCPServer{}
	var tenants []string
	for _, s := range servers {
		if s.State.CheckedAt != nil && now.Sub(*s.State.CheckedAt) < every {
			continue
		}
		if _, ok := due[s.TenantID]; !ok {
			tenants = append(tenants, s.TenantID)
		}
		due[s.TenantID] = append(due[s.TenantID], s)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	slots := make(chan struct{}, refreshSlots)
	for _, tenant := range tenants {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, s := range due[tenant] {
				select {
				case slots <- struct{}{}:
				case <-ctx.Done():
					return
				}
				_, rerr := c.Refresh(ctx, s.TenantID, s.Name)
				<-slots
				mu.Lock()
				refreshed++
				if rerr != nil {
					failed++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return refreshed, failed, ctx.Err()
}
