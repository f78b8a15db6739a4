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
	l, _ := c.refreshing.LoadOrStore(serverKey{tenantID, name}, &sync.Mutex{})
	return l.(*sync.Mutex)
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
	st.Error = ""
	if listErr != nil {
		st.Error = gtmgate.AsError(listErr).Message
	}
	// The outcome is stored even when the caller has gone.
	sctx, scancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer scancel()
	if err := c.opts.Store.SaveMCPServerState(sctx, s.TenantID, s.Name, st); err != nil && !errors.Is(err, gtmgate.ErrNotFound) {
		return fmt.Errorf("federation: save %s's state: %w", s.Name, err)
	}
	if listErr != nil {
		c.opts.Logger.Warn("federation: tool list refresh failed; keeping the last good list", "tenant", s.TenantID,
			"server", s.Name, "code", gtmgate.ErrorCode(listErr), "err", st.Error)
	}
	return listErr
}

// ToolsChanged is told when an upstream session reports
// notifications/tools/list_changed: the list is refreshed in the background.
func (c *Catalog) ToolsChanged(tenantID, name string) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), c.opts.ListTimeout+10*time.Second)
		defer cancel()
		if _, err := c.Refresh(ctx, tenantID, name); err != nil {
			c.opts.Logger.Warn("federation: refresh after list_changed failed", "tenant", tenantID, "server", name,
				"err", gtmgate.AsError(err).Message)
		}
	}()
}

// RefreshDue refreshes every server, of every tenant, last checked longer
// than every ago, a few at a time. It returns how many it refreshed and
// how many of those failed.
func (c *Catalog) RefreshDue(ctx context.Context, every time.Duration) (refreshed, failed int, err error) {
	servers, err := c.opts.Store.ListMCPServers(ctx, "")
	if err != nil {
		return 0, 0, fmt.Errorf("federation: list MCP servers: %w", err)
	}
	now := c.opts.Now()
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for _, s := range servers {
		if s.State.CheckedAt != nil && now.Sub(*s.State.CheckedAt) < every {
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			_, rerr := c.Refresh(ctx, s.TenantID, s.Name)
			mu.Lock()
			refreshed++
			if rerr != nil {
				failed++
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	return refreshed, failed, ctx.Err()
}
