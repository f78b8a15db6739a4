package app

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/egress"
	"github.com/gtmgate/gtmgate/federation"
)

// mcpGrants gives upstream MCP servers of auth kind oauth the tenant's
// grant, kept with the provider tokens under provider "mcp:<server>" and
// account "tenant", and renewed by the durable refresher.
type mcpGrants struct{ a *App }

// GrantToken returns the stored access token, or one the refresher renews
// when it has expired or equals stale; REAUTH_REQUIRED when there is no
// grant, or the refresher was refused.
func (g mcpGrants) GrantToken(ctx context.Context, tenantID, server, stale string) (string, error) {
	provider := gtmgate.MCPGrantProvider(server)
	tok, err := g.a.store.GetProviderToken(ctx, tenantID, provider, gtmgate.MCPGrantTenant)
	switch {
	case errors.Is(err, gtmgate.ErrNotFound):
		return "", gtmgate.Errorf(gtmgate.EReauthRequired, "upstream MCP server %q is not connected", server)
	case err != nil:
		return "", err
	}
	if o, err := g.a.store.GetProviderOAuth(ctx, tenantID, provider, gtmgate.MCPGrantTenant); err == nil && o.NeedsReauth {
		return "", gtmgate.Errorf(gtmgate.EReauthRequired, "upstream MCP server %q's grant needs re-authorisation", server)
	}
	expired := !tok.ExpiresAt.IsZero() && !time.Now().Before(tok.ExpiresAt)
	if !expired && tok.AccessToken != stale {
		return tok.AccessToken, nil
	}
	if g.a.refresher == nil || !g.a.refresher.Configured(ctx, tenantID, provider, gtmgate.MCPGrantTenant) {
		return "", gtmgate.Errorf(gtmgate.EReauthRequired, "upstream MCP server %q's grant expired and has no refresh token", server)
	}
	return g.a.refresher.Refresh(ctx, tenantID, provider, gtmgate.MCPGrantTenant, tok.AccessToken)
}

// GrantRejected marks the grant for re-authorisation: its refresh record
// as refused, or, without one, its token as expired now, so that system
// health and the re-authorisation list name it.
func (g mcpGrants) GrantRejected(ctx context.Context, tenantID, server, token string) {
	provider := gtmgate.MCPGrantProvider(server)
	log := g.a.logger.With("tenant_id", tenantID, "mcp_server", server)
	now := time.Now().UTC()
	if _, err := g.a.store.GetProviderOAuth(ctx, tenantID, provider, gtmgate.MCPGrantTenant); err == nil {
		err := g.a.store.CompleteRefresh(ctx, gtmgate.RefreshResult{TenantID: tenantID, Provider: provider, AccountID: gtmgate.MCPGrantTenant,
			At: now, Err: "the upstream MCP server refused the grant's access token (HTTP 401)", NeedsReauth: true})
		if err != nil {
			log.Error("mark MCP grant for re-authorisation", "err", err)
		}
		return
	}
	tok, err := g.a.store.GetProviderToken(ctx, tenantID, provider, gtmgate.MCPGrantTenant)
	if err != nil || tok.AccessToken != token {
		return
	}
	tok.ExpiresAt, tok.UpdatedAt = now, now
	if err := g.a.store.PutProviderToken(ctx, tok); err != nil {
		log.Error("mark MCP grant expired", "err", err)
	}
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
	toks, err := a.store.ListProviderTokens(ctx, tenantID)
	if err != nil {
		log.Error("lapse MCP grants", "err", err)
		return
	}
	now := time.Now().UTC()
	for _, info := range toks {
		if info.Provider != provider {
			continue
		}
		if _, err := a.store.GetProviderOAuth(ctx, tenantID, provider, info.AccountID); err == nil {
			if err := a.store.CompleteRefresh(ctx, gtmgate.RefreshResult{TenantID: tenantID, Provider: provider, AccountID: info.AccountID,
				At: now, Err: why, NeedsReauth: true}); err != nil {
				log.Error("lapse MCP grant", "err", err)
			}
		}
		tok, err := a.store.GetProviderToken(ctx, tenantID, provider, info.AccountID)
		if err != nil {
			continue
		}
		tok.ExpiresAt, tok.UpdatedAt = now, now
		if err := a.store.PutProviderToken(ctx, tok); err != nil {
			log.Error("lapse MCP grant", "err", err)
		}
	}
}
