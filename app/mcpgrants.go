package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/egress"
	"github.com/gtmgate/gtmgate/federation"
)

// grantStore is what mcpGrants reads and writes of the store.
type grantStore interface {
	GetProviderToken(ctx context.Context, tenantID, provider, accountID string) (*gtmgate.ProviderToken, error)
	PutProviderToken(ctx context.Context, t *gtmgate.ProviderToken) error
	ListProviderTokens(ctx context.Context, tenantID string) ([]gtmgate.ProviderTokenInfo, error)
	GetProviderOAuth(ctx context.Context, tenantID, provider, accountID string) (*gtmgate.ProviderOAuth, error)
	CompleteRefresh(ctx context.Context, r gtmgate.RefreshResult) error
}

// grantRefresher renews grants' access tokens (a *refresh.Refresher).
type grantRefresher interface {
	Configured(ctx context.Context, tenantID, provider, accountID string) bool
	Refresh(ctx context.Context, tenantID, provider, accountID, stale string) (string, error)
}

// mcpGrants gives upstream MCP servers of auth kind oauth their grants,
// kept with the provider tokens under provider "mcp:<server>" and account
// "tenant" or a person's id, and renewed by the durable refresher. Tokens
// are cached (grantCache): an upstream request does not read the store.
type mcpGrants struct {
	// store is the store behind watch, whose writes of a grant drop its
	// cached token.
	store     grantStore
	refresher grantRefresher
	cache     *grantCache
	logger    *slog.Logger
}

// newMCPGrants returns the grants of st's tenants; st's writes made
// through the returned grants' watch() drop cached tokens.
func newMCPGrants(st gtmgate.Store, logger *slog.Logger) *mcpGrants {
	c := newGrantCache(time.Now)
	return &mcpGrants{store: grantWatch{Store: st, cache: c}, cache: c, logger: logger}
}

// watch is the store as the refresher and the connect flow should write
// grants through: each write of an "mcp:" grant drops its cached token.
func (g *mcpGrants) watch() gtmgate.Store { return g.store.(grantWatch) }

// GrantToken returns the access token of the grant kept under account: the
// cached one while it is younger than grantCacheMaxAge, unexpired and not
// stale; else the stored one, or one the refresher renews when it has
// expired or equals stale. While the store does not answer, a cached
// unexpired token is served (up to storecache.StaleFor old).
// REAUTH_REQUIRED when there is no grant, or the refresher was refused.
func (g *mcpGrants) GrantToken(ctx context.Context, tenantID, server, account, stale string) (string, error) {
	k := grantKey{tenant: tenantID, server: server, account: account}
	if tok, ok := g.cache.fresh(k, stale); ok {
		return tok, nil
	}
	gen := g.cache.generation()
	tok, expires, err := g.load(ctx, tenantID, server, account, stale)
	if err != nil {
		if storeDown(ctx, err) {
			if tok, ok := g.cache.servable(k, stale); ok {
				return tok, nil
			}
		}
		return "", err
	}
	g.cache.put(k, tok, expires, gen)
	return tok, nil
}

// load reads the grant's token from the store, renewing it when it has
// expired or equals stale; it returns the token and when it expires.
func (g *mcpGrants) load(ctx context.Context, tenantID, server, account, stale string) (string, time.Time, error) {
	provider := gtmgate.MCPGrantProvider(server)
	tok, err := g.store.GetProviderToken(ctx, tenantID, provider, account)
	switch {
	case errors.Is(err, gtmgate.ErrNotFound):
		return "", time.Time{}, gtmgate.Errorf(gtmgate.EReauthRequired, "upstream MCP server %q is not connected%s", server, forWhom(account))
	case err != nil:
		return "", time.Time{}, fmt.Errorf("read the grant of upstream MCP server %q: %w", server, err)
	}
	if o, err := g.store.GetProviderOAuth(ctx, tenantID, provider, account); err == nil && o.NeedsReauth {
		return "", time.Time{}, gtmgate.Errorf(gtmgate.EReauthRequired, "upstream MCP server %q's grant%s needs re-authorisation", server, forWhom(account))
	}
	expired := !tok.ExpiresAt.IsZero() && !g.cache.now().Before(tok.ExpiresAt)
	if !expired && tok.AccessToken != stale {
		return tok.AccessToken, tok.ExpiresAt, nil
	}
	if g.refresher == nil || !g.refresher.Configured(ctx, tenantID, provider, account) {
		return "", time.Time{}, gtmgate.Errorf(gtmgate.EReauthRequired, "upstream MCP server %q's grant%s expired and has no refresh token", server, forWhom(account))
	}
	fresh, err := g.refresher.Refresh(ctx, tenantID, provider, account, tok.AccessToken)
	if err != nil {
		return "", time.Time{}, err
	}
	// The refresher stored the new token with its expiry.
	var expires time.Time
	if t, err := g.store.GetProviderToken(ctx, tenantID, provider, account); err == nil && t.AccessToken == fresh {
		expires = t.ExpiresAt
	}
	return fresh, expires, nil
}

// forWhom names a person's grant in a message: " for person p_…".
func forWhom(account string) string {
	if account == "" || account == gtmgate.MCPGrantTenant {
		return ""
	}
	return " for person " + account
}

// storeDown reports whether err, from a read under ctx, means the store
// did not answer (as storecache tells an outage), not an answer.
func storeDown(ctx context.Context, err error) bool {
	return ctx.Err() == nil && (errors.Is(err, gtmgate.ErrStoreUnavailable) || errors.Is(err, context.DeadlineExceeded))
}

// GrantRejected drops the cached token and marks the grant for
// re-authorisation: its refresh record as refused, or, without one, its
// token as expired now, so that system health and the re-authorisation
// list name it.
func (g *mcpGrants) GrantRejected(ctx context.Context, tenantID, server, account, token string) {
	g.cache.drop(tenantID, server, account)
	provider := gtmgate.MCPGrantProvider(server)
	log := g.logger.With("tenant_id", tenantID, "mcp_server", server, "grant_account", account)
	now := time.Now().UTC()
	if _, err := g.store.GetProviderOAuth(ctx, tenantID, provider, account); err == nil {
		err := g.store.CompleteRefresh(ctx, gtmgate.RefreshResult{TenantID: tenantID, Provider: provider, AccountID: account,
			At: now, Err: "the upstream MCP server refused the grant's access token (HTTP 401)", NeedsReauth: true})
		if err != nil {
			log.Error("mark MCP grant for re-authorisation", "err", err)
		}
		return
	}
	tok, err := g.store.GetProviderToken(ctx, tenantID, provider, account)
	if err != nil || tok.AccessToken != token {
		return
	}
	tok.ExpiresAt, tok.UpdatedAt = now, now
	if err := g.store.PutProviderToken(ctx, tok); err != nil {
		log.Error("mark MCP grant expired", "err", err)
	}
}

// ListingAccount returns the person whose grant lists a per-person
// server's tools: of the people's grants that hold (not marked for
// re-authorisation, unexpired or renewable), the one stored last
// (connected or refreshed most recently), the likeliest to work now.
// REAUTH_REQUIRED when there is none.
func (g *mcpGrants) ListingAccount(ctx context.Context, tenantID, server string) (string, error) {
	provider := gtmgate.MCPGrantProvider(server)
	toks, err := g.store.ListProviderTokens(ctx, tenantID)
	if err != nil {
		return "", fmt.Errorf("list the grants of upstream MCP server %q: %w", server, err)
	}
	now := g.cache.now()
	best, bestAt := "", time.Time{}
	for _, info := range toks {
		if info.Provider != provider || info.AccountID == gtmgate.MCPGrantTenant {
			continue
		}
		o, err := g.store.GetProviderOAuth(ctx, tenantID, provider, info.AccountID)
		expired := info.ExpiresAt != nil && !info.ExpiresAt.IsZero() && !now.Before(*info.ExpiresAt)
		if err == nil && o.NeedsReauth || err != nil && expired {
			continue
		}
		if best == "" || info.UpdatedAt.After(bestAt) {
			best, bestAt = info.AccountID, info.UpdatedAt
		}
	}
	if best == "" {
		return "", gtmgate.Errorf(gtmgate.EReauthRequired, "upstream MCP server %q is not connected: no person's grant holds", server)
	}
	return best, nil
}

// mcpOAuthClient is the HTTP client of upstream MCP servers' authorization
// servers (discovery, registration, code exchange): the upstreams' policy.
func (a *App) mcpOAuthClient() *http.Client {
	p := egress.Policy{AllowLoopback: a.cfg.Demo || a.cfg.AllowInsecureTokenEndpoint, Allow: a.cfg.MCPUpstreamAllow}
	return &http.Client{Transport: egress.NewTransport(p, 10*time.Second), Timeout: 15 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// listAfterConnect lists an oauth server's tools once a person connected
// it. A server is first listed then (without a grant it lists nothing), so
// that first listing is accepted as the person who made the link, as a
// server's creator accepts its first listing when saving it.
func (a *App) listAfterConnect(tenantID, server, by string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	log := a.logger.With("tenant_id", tenantID, "mcp_server", server)
	s, err := a.store.GetMCPServer(ctx, tenantID, server)
	if err != nil {
		log.Warn("list tools after connect", "err", err)
		return
	}
	first := s.State.ToolsRefreshedAt == nil
	if _, err := a.federation.Refresh(ctx, tenantID, server); err != nil {
		log.Warn("list tools after connect", "err", gtmgate.AsError(err).Message)
		return
	}
	if first && by != "" {
		if _, err := a.federation.Accept(ctx, tenantID, server, federation.AcceptRequest{All: true}, by); err != nil {
			log.Warn("accept the first listing after connect", "err", gtmgate.AsError(err).Message)
		}
	}
}

// lapseMCPGrants stops an oauth server's grants being sent (it moved,
// changed auth kind or was deleted): each is marked for re-authorisation
// and its access token expired, so that only a new connect renews it.
func (a *App) lapseMCPGrants(ctx context.Context, tenantID, server, why string) {
	provider := gtmgate.MCPGrantProvider(server)
	log := a.logger.With("tenant_id", tenantID, "mcp_server", server)
	// Writes through the grants' store drop each cached token; this drops
	// those of grants it cannot find, and of a store write that failed.
	defer a.mcpGrants.cache.drop(tenantID, server, "")
	st := a.mcpGrants.store
	toks, err := st.ListProviderTokens(ctx, tenantID)
	if err != nil {
		log.Error("lapse MCP grants", "err", err)
		return
	}
	now := time.Now().UTC()
	for _, info := range toks {
		if info.Provider != provider {
			continue
		}
		if _, err := st.GetProviderOAuth(ctx, tenantID, provider, info.AccountID); err == nil {
			if err := st.CompleteRefresh(ctx, gtmgate.RefreshResult{TenantID: tenantID, Provider: provider, AccountID: info.AccountID,
				At: now, Err: why, NeedsReauth: true}); err != nil {
				log.Error("lapse MCP grant", "err", err)
			}
		}
		tok, err := st.GetProviderToken(ctx, tenantID, provider, info.AccountID)
		if err != nil {
			continue
		}
		tok.ExpiresAt, tok.UpdatedAt = now, now
		if err := st.PutProviderToken(ctx, tok); err != nil {
			log.Error("lapse MCP grant", "err", err)
		}
	}
}
