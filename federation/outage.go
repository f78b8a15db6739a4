package federation

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gtmgate/gtmgate"
)

// view returns the tenant's tools for a call or a listing: the cached view
// while it is fresh, else a new one from the store. While the store is
// unavailable (gtmgate.ErrStoreUnavailable, or no answer within
// LoadTimeout) the last loaded view, up to StaleFor old, is served
// instead, as storecache serves tokens and tenants to built-in tools: a
// federated call needs only the upstream. The store is then asked again at
// most once per CacheFor, by one caller; the others are served the last
// view meanwhile, so a hanging store costs one call LoadTimeout per
// CacheFor, not every call. A process that never loaded the tenant has
// nothing to serve and answers the store's UNAVAILABLE.
func (c *Catalog) view(ctx context.Context, tenantID string) (*tenantView, error) {
	if tenantID == "" {
		return c.load(ctx, tenantID) // refused there
	}
	now := c.opts.Now()
	c.mu.Lock()
	last := c.tenants[tenantID]
	if last != nil && !last.changed && now.Sub(last.loaded) < c.opts.CacheFor {
		c.mu.Unlock()
		return last, nil
	}
	down := last != nil && !last.retryAt.IsZero()
	if down && now.Before(last.retryAt) && now.Sub(last.loaded) < c.opts.StaleFor {
		c.mu.Unlock()
		return last, nil
	}
	var downSince time.Time
	if down {
		// This caller asks the store; the next ones are served meanwhile.
		last.retryAt, downSince = now.Add(c.opts.CacheFor), last.downSince
	}
	c.mu.Unlock()

	v, err := c.load(ctx, tenantID)
	if err == nil {
		if down {
			c.opts.Logger.Info("federation: the store answers again; the tenant's MCP servers are reloaded",
				"tenant", tenantID, "served_stale_for", now.Sub(downSince).Round(time.Millisecond).String())
		}
		return v, nil
	}
	return c.lastKnown(ctx, tenantID, err)
}

// lastKnown is the tenant's last loaded view when err (from load) says the
// store is unavailable and the view is young enough to serve; else err.
// The first failure of an outage is logged, once per tenant.
func (c *Catalog) lastKnown(ctx context.Context, tenantID string, err error) (*tenantView, error) {
	if !storeDown(ctx, err) {
		return nil, err
	}
	now := c.opts.Now()
	c.mu.Lock()
	v := c.tenants[tenantID] // another caller's load may have replaced it
	if v == nil || now.Sub(v.loaded) >= c.opts.StaleFor {
		c.mu.Unlock()
		return nil, err
	}
	first := v.downSince.IsZero()
	if first {
		v.downSince = now
	}
	if v.retryAt.IsZero() || v.retryAt.Before(now) {
		v.retryAt = now.Add(c.opts.CacheFor)
	}
	loaded := v.loaded
	c.mu.Unlock()
	if first {
		c.opts.Logger.Warn("federation: the store is unavailable; serving the tenant's MCP servers as last loaded",
			"tenant", tenantID, "loaded_at", loaded, "for_at_most", c.opts.StaleFor.String(), "err", gtmgate.AsError(err).Message)
	}
	return v, nil
}

// storeDown reports whether err, from a load under ctx, means the store is
// unavailable, as opposed to an answer (not found, a bad request) or the
// caller giving up.
func storeDown(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	return errors.Is(err, gtmgate.ErrStoreUnavailable) || errors.Is(err, context.DeadlineExceeded)
}

// loadError names the failed read of tenantID's servers. A store that did
// not answer within LoadTimeout is UNAVAILABLE, as the store's own failures
// are.
func loadError(ctx context.Context, tenantID string, err error) error {
	err = fmt.Errorf("federation: list %s's MCP servers: %w", tenantID, err)
	if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) && gtmgate.ErrorCode(err) != gtmgate.EUnavailable {
		return &gtmgate.Error{Code: gtmgate.EUnavailable, Message: "the store did not answer in time",
			Hint: "retry shortly; if it persists, the operator should check the database", Err: err}
	}
	return err
}
