package admin

import (
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
	"github.com/gtmgate/gtmgate/ratelimit"
	"github.com/gtmgate/gtmgate/toolset"
)

var (
	tenantIDPattern   = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,62}$`)
	providerKeyPattrn = regexp.MustCompile(`^[a-z0-9_]{1,64}$`)
	personIDPattern   = regexp.MustCompile(`^p_[0-9a-f]{1,64}$`)
)

// TenantBody is the tenant configuration of the spec plus gtmgate's options.
type TenantBody struct {
	Name          string                              `json:"name"`
	Status        string                              `json:"status"`
	Providers     map[string]gtmgate.ProviderAccounts `json:"providers"`
	AllowedModels []string                            `json:"allowed_models,omitempty"`
	Approval      *gtmgate.ApprovalPolicy             `json:"approval_policy,omitempty"`
	// Production is also set by PUT /admin/billing.
	Production bool                `json:"production,omitempty"`
	RateLimits *gtmgate.RateLimits `json:"rate_limits,omitempty"`
	// Limits override the gateway's tenant limits field by field.
	Limits *gtmgate.TenantLimits `json:"limits,omitempty"`
	// Toolsets are the tenant's named cuts of its tools and accounts (see
	// also /admin/tenants/{id}/toolsets).
	Toolsets map[string]*gtmgate.Toolset `json:"toolsets,omitempty"`
}

func (h *Handler) listTenants(w http.ResponseWriter, r *http.Request) {
	ts, err := h.opts.Store.ListTenants(r.Context())
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	// A tenant's people see their own tenants only.
	actor := gtmgate.ActorFromContext(r.Context())
	ts = slices.DeleteFunc(ts, func(t *gtmgate.Tenant) bool { return !actor.SeesTenant(t.ID) })
	jsonapi.Write(w, http.StatusOK, map[string]any{"tenants": ts})
}

func (h *Handler) getTenant(w http.ResponseWriter, r *http.Request) {
	t, err := h.tenant(r, r.PathValue("tenant_id"))
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	view := map[string]any{"tenant": t}
	if h.opts.RefreshAccounts != nil {
		// The refresh records described as the refresher reports them (with
		// whether a token is stored), never with their secrets.
		if oauth, err := h.opts.RefreshAccounts(r.Context(), t.ID); err == nil && len(oauth) > 0 {
			view["oauth_refresh"] = oauth
		}
	}
	// The upstream MCP servers it brought, in brief (their own routes,
	// /admin/tenants/{id}/mcp-servers, have the rest).
	if servers, err := h.opts.Store.ListMCPServers(r.Context(), t.ID); err == nil && len(servers) > 0 {
		brief := make([]MCPServerBrief, len(servers))
		for i, s := range servers {
			brief[i] = MCPServerBrief{Name: s.Name, URL: s.URL, AuthKind: s.Auth.Kind, Reachable: s.State.Reachable,
				ToolsRefreshedAt: s.State.ToolsRefreshedAt, Error: s.State.Error}
		}
		view["mcp_servers"] = brief
	}
	jsonapi.Write(w, http.StatusOK, view)
}

// MCPServerBrief is one of a tenant's upstream MCP servers as its
// configuration shows it.
type MCPServerBrief struct {
	Name             string     `json:"name"`
	URL              string     `json:"url"`
	AuthKind         string     `json:"auth_kind"`
	Reachable        bool       `json:"reachable"`
	ToolsRefreshedAt *time.Time `json:"tools_refreshed_at,omitempty"`
	Error            string     `json:"error,omitempty"`
}

// tenant loads a tenant, mapping not-found to TENANT_NOT_FOUND.
func (h *Handler) tenant(r *http.Request, id string) (*gtmgate.Tenant, error) {
	t, err := h.opts.Store.GetTenant(r.Context(), id)
	if errors.Is(err, gtmgate.ErrNotFound) {
		return nil, gtmgate.Errorf(gtmgate.ETenantNotFound, "tenant %q is not provisioned", id)
	}
	return t, err
}

func (h *Handler) putTenant(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("tenant_id")
	var body TenantBody
	if err := jsonapi.Decode(w, r, h.opts.MaxBodyBytes, &body); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	if err := h.validateTenant(id, &body); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	secrets, err := h.approvalRoutes(r.Context(), id, body.Approval)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	// A toolset an agent's token still uses cannot go away with a replace.
	if err := h.toolsetsInUse(r, id, func(name string) bool { return body.Toolsets[name] == nil }); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	now := h.opts.Now().UTC()
	t := &gtmgate.Tenant{ID: id, Name: body.Name, Status: body.Status, Providers: body.Providers,
		AllowedModels: body.AllowedModels, Approval: body.Approval, Production: body.Production, RateLimits: body.RateLimits, Limits: body.Limits,
		Toolsets: body.Toolsets, CreatedAt: now, UpdatedAt: now}
	created, err := h.opts.Store.PutTenant(r.Context(), t)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	saved, err := h.opts.Store.GetTenant(r.Context(), id)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	answer := map[string]any{"tenant": saved, "created": created}
	if len(secrets) > 0 {
		// The only time a generated signing secret is shown.
		answer["webhook_secrets"] = secrets
		ids := make([]string, len(secrets))
		for i, s := range secrets {
			ids[i] = s.ID
		}
		setAuditDetail(w, "approval route webhooks added: "+strings.Join(ids, ", "))
	}
	jsonapi.Write(w, status, answer)
}

func (h *Handler) validateTenant(id string, b *TenantBody) error {
	// Each refusal names the body's field at fault (its JSON path), which
	// the console's forms show the message beside.
	bad := func(field, format string, args ...any) error {
		return gtmgate.Errorf(gtmgate.EValidation, format, args...).AtField(field)
	}
	if !tenantIDPattern.MatchString(id) {
		return bad("", "tenant_id %q must be 1-63 lowercase letters, digits, '-' or '_', starting with a letter or digit", id)
	}
	if strings.TrimSpace(b.Name) == "" {
		return bad("name", "name is required")
	}
	if err := ratelimit.Validate(b.RateLimits); err != nil {
		return err
	}
	if err := b.Limits.Validate(); err != nil {
		return err
	}
	switch b.Status {
	case "":
		b.Status = gtmgate.TenantActive
	case gtmgate.TenantActive, gtmgate.TenantSuspended:
	default:
		return bad("status", "status %q must be %s or %s", b.Status, gtmgate.TenantActive, gtmgate.TenantSuspended)
	}
	if b.Providers == nil {
		b.Providers = map[string]gtmgate.ProviderAccounts{}
	}
	for key, p := range b.Providers {
		if !providerKeyPattrn.MatchString(key) || (len(h.opts.Providers) > 0 && !slices.Contains(h.opts.Providers, key)) {
			return bad("providers."+key, "providers.%s: unknown provider; known: %s", key, strings.Join(h.opts.Providers, ", "))
		}
		seen := map[string]bool{}
		for i, a := range p.Accounts {
			if strings.TrimSpace(a.ID) == "" {
				return bad(fmt.Sprintf("providers.%s.accounts[%d].id", key, i), "providers.%s.accounts[%d].id must not be empty", key, i)
			}
			if seen[a.ID] {
				return bad(fmt.Sprintf("providers.%s.accounts[%d].id", key, i), "providers.%s.accounts[%d].id %q appears twice", key, i, a.ID)
			}
			seen[a.ID] = true
			if a.Person != "" && !personIDPattern.MatchString(a.Person) {
				return bad(fmt.Sprintf("providers.%s.accounts[%d].person", key, i), "providers.%s.accounts[%d].person %q must be a person's id (p_…, as GET /admin/people lists them), or empty for a shared account", key, i, a.Person)
			}
		}
		if len(p.Accounts) > 0 && !seen[p.Default] {
			return bad("providers."+key+".default", "providers.%s.default %q must be the id of one of its accounts", key, p.Default)
		}
		if len(p.Accounts) == 0 && p.Default != "" {
			return bad("providers."+key+".default", "providers.%s.default %q names an account but accounts is empty", key, p.Default)
		}
	}
	view := &gtmgate.Tenant{ID: id, Providers: b.Providers}
	for name, ts := range b.Toolsets {
		if err := toolset.Validate(name, ts, h.builtinTools(), view); err != nil {
			return err
		}
	}
	if b.Approval != nil {
		for _, c := range b.Approval.Categories {
			if !slices.Contains(gtmgate.Categories, gtmgate.Category(c)) {
				return bad("approval_policy.categories", "approval_policy.categories: unknown category %q", c)
			}
		}
	}
	return nil
}
