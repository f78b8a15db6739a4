package mcpservers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/admin"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// list serves GET …/mcp-servers: the tenant's servers by name.
func (a *API) list(w http.ResponseWriter, r *http.Request) {
	tenant, err := a.tenant(r)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	servers, err := a.opts.Catalog.Servers(r.Context(), tenant)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	out := List{Servers: make([]View, 0, len(servers))}
	for _, s := range servers {
		out.Servers = append(out.Servers, viewOf(s.MCPServer, s.Tools))
	}
	slices.SortFunc(out.Servers, func(a, b View) int { return strings.Compare(a.Name, b.Name) })
	jsonapi.Write(w, http.StatusOK, out)
}

// get serves GET …/mcp-servers/{name}.
func (a *API) get(w http.ResponseWriter, r *http.Request) {
	tenant, err := a.tenant(r)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	name := r.PathValue("name")
	sv, err := a.opts.Catalog.Server(r.Context(), tenant, name)
	if err != nil {
		jsonapi.WriteError(w, r, notFound(tenant, name, err))
		return
	}
	jsonapi.Write(w, http.StatusOK, Found{Server: viewOf(sv.MCPServer, sv.Tools)})
}

// put serves PUT …/mcp-servers/{name}: 201 when it creates the server, 200
// when it replaces it. The server's tools are then listed (at most
// RefreshTimeout); a listing that fails does not fail the PUT: the answer's
// state says why, and the last good tool list, if any, stays served.
func (a *API) put(w http.ResponseWriter, r *http.Request) {
	s, prev, kept, err := a.requested(w, r)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	tenant, name, ctx := s.TenantID, s.Name, r.Context()
	if prev == nil {
		all, err := a.opts.Store.ListMCPServers(ctx, tenant)
		if err != nil {
			jsonapi.WriteError(w, r, err)
			return
		}
		if len(all) >= MaxServers {
			jsonapi.WriteError(w, r, bad("tenant %q has %d MCP servers, the most a tenant may have", tenant, len(all)).
				WithHint("delete one it no longer uses, or replace one by PUT under its name"))
			return
		}
	}
	created, err := a.opts.Store.PutMCPServer(ctx, s)
	if err != nil {
		jsonapi.WriteError(w, r, tenantError(tenant, err))
		return
	}
	a.opts.Catalog.Changed(tenant, name)
	if prev != nil && prev.Auth.Kind == gtmgate.MCPAuthOAuth && a.opts.LapseGrants != nil {
		switch {
		case s.Auth.Kind != gtmgate.MCPAuthOAuth:
			a.opts.LapseGrants(ctx, tenant, name, "the server's auth kind changed")
		case origin(s.URL) != origin(prev.URL):
			a.opts.LapseGrants(ctx, tenant, name, "the server moved to "+origin(s.URL)+": a grant is never sent to another origin")
		}
	}
	detail := fmt.Sprintf("MCP server %s replaced", name)
	switch {
	case created:
		detail = fmt.Sprintf("MCP server %s created", name)
	case kept:
		detail += ", secret kept"
	}
	detail += ", host " + hostOf(s.URL) + ", auth " + s.Auth.Kind
	a.opts.Logger.Info("mcpservers: server saved", "tenant", tenant, "server", name, "host", hostOf(s.URL),
		"auth", s.Auth.Kind, "created", created)
	// The person saw these tools in the connection test before saving a new
	// server, or one moved to another URL: what this PUT lists is theirs to
	// have accepted (gates kept). An edit of a server in place accepts
	// nothing: changes waiting since an earlier listing were never shown by
	// the edit, and stay for someone to accept on their own page.
	view, listed := a.listTools(ctx, s, prev == nil || prev.URL != s.URL)
	admin.SetAuditDetail(w, detail+"; "+listed)
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	jsonapi.Write(w, status, view)
}

// requested reads the server a PUT or test body describes, under the
// tenant and name its path gives, validated, with a left-out secret
// completed from the stored server of that name (prev, nil when there is
// none) under keepSecret's rules; kept says it was.
func (a *API) requested(w http.ResponseWriter, r *http.Request) (s, prev *gtmgate.MCPServer, kept bool, err error) {
	tenant, err := a.tenant(r)
	if err != nil {
		return nil, nil, false, err
	}
	name := r.PathValue("name")
	if err := validName(name); err != nil {
		return nil, nil, false, err
	}
	var body Body
	if err := jsonapi.Decode(w, r, a.opts.MaxBodyBytes, &body); err != nil {
		return nil, nil, false, err
	}
	if s, err = a.validate(&body); err != nil {
		return nil, nil, false, err
	}
	s.TenantID, s.Name = tenant, name
	prev, err = a.opts.Store.GetMCPServer(r.Context(), tenant, name)
	switch {
	case errors.Is(err, gtmgate.ErrNotFound):
		prev = nil
	case err != nil:
		return nil, nil, false, err
	}
	if kept, err = keepSecret(s, prev); err != nil {
		return nil, nil, false, err
	}
	return s, prev, kept, nil
}

// keepSecret completes s's secret from the server it replaces: a replace
// may leave the secret out when the auth kind is unchanged and the secret
// would go to the same origin (the server's, or the token endpoint's).
func keepSecret(s, prev *gtmgate.MCPServer) (kept bool, err error) {
	kind := s.Auth.Kind
	if kind == gtmgate.MCPAuthNone || s.Auth.Secret != "" {
		return false, nil
	}
	if kind == gtmgate.MCPAuthOAuth {
		// A static client's secret is kept for the same client at the same
		// server; without one the client is public or registered at connect.
		if prev == nil || prev.Auth.Kind != kind || prev.Auth.Secret == "" || s.Auth.ClientID == "" ||
			prev.Auth.ClientID != s.Auth.ClientID || origin(s.URL) != origin(prev.URL) {
			return false, nil
		}
		s.Auth.Secret = prev.Auth.Secret
		return true, nil
	}
	field := "auth." + secretField(kind)
	if prev == nil {
		return false, bad("%s is required to create a server with auth kind %s", field, kind).
			WithHint("later replaces may leave it out to keep the stored one")
	}
	if prev.Auth.Kind != kind || prev.Auth.Secret == "" {
		return false, bad("%s is required: the stored server's auth kind is %s, not %s, so there is no %s secret to keep", field, prev.Auth.Kind, kind, kind)
	}
	target, prevTarget := s.URL, prev.URL
	if kind == gtmgate.MCPAuthClientCredentials {
		target, prevTarget = s.Auth.TokenURL, prev.Auth.TokenURL
	}
	if origin(target) != origin(prevTarget) {
		return false, bad("%s is required: the stored secret was given for %s and is never sent to another origin", field, origin(prevTarget)).
			WithHint("send the secret again with the new URL")
	}
	s.Auth.Secret = prev.Auth.Secret
	return true, nil
}

// origin is a URL's scheme and host.
func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return u.Scheme + "://" + u.Host
}

// delete serves DELETE …/mcp-servers/{name}: 204, its tools no longer served.
func (a *API) delete(w http.ResponseWriter, r *http.Request) {
	tenant, err := a.tenant(r)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	name := r.PathValue("name")
	prev, _ := a.opts.Store.GetMCPServer(r.Context(), tenant, name)
	if err := a.opts.Store.DeleteMCPServer(r.Context(), tenant, name); err != nil {
		jsonapi.WriteError(w, r, notFound(tenant, name, err))
		return
	}
	if prev != nil && prev.Auth.Kind == gtmgate.MCPAuthOAuth && a.opts.LapseGrants != nil {
		a.opts.LapseGrants(r.Context(), tenant, name, "the server was deleted")
	}
	a.opts.Catalog.Changed(tenant, name)
	a.opts.Logger.Info("mcpservers: server deleted", "tenant", tenant, "server", name)
	admin.SetAuditDetail(w, "MCP server "+name+" deleted")
	w.WriteHeader(http.StatusNoContent)
}

// refresh serves POST …/mcp-servers/{name}/refresh: the server's tools are
// listed now. The answer is 200 whether the upstream answered or not; when
// it did not, state.reachable is false, state.error says why, and the last
// good tool list stays served.
func (a *API) refresh(w http.ResponseWriter, r *http.Request) {
	s, err := a.stored(r)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	view, listed := a.listTools(r.Context(), s, false)
	admin.SetAuditDetail(w, "MCP server "+s.Name+": "+listed)
	jsonapi.Write(w, http.StatusOK, view)
}

// stored finds the server the path names, of the tenant it names.
func (a *API) stored(r *http.Request) (*gtmgate.MCPServer, error) {
	tenant, err := a.tenant(r)
	if err != nil {
		return nil, err
	}
	name := r.PathValue("name")
	s, err := a.opts.Store.GetMCPServer(r.Context(), tenant, name)
	if err != nil {
		return nil, notFound(tenant, name, err)
	}
	return s, nil
}

// listTools refreshes s's tool list and returns its view, and a line for
// the audit that never holds the upstream's error text (it may quote the
// URL, whose path or query can hold a key).
//
// With accept, what was listed is accepted as the request's actor.
func (a *API) listTools(ctx context.Context, s *gtmgate.MCPServer, accept bool) (View, string) {
	rctx, cancel := context.WithTimeout(ctx, RefreshTimeout)
	defer cancel()
	v, err := a.opts.Catalog.Refresh(rctx, s.TenantID, s.Name)
	accepted := ""
	if accept && err == nil && v.MCPServer != nil {
		if n, aerr := a.acceptListing(ctx, s); aerr != nil {
			accepted = "; tools not accepted (" + gtmgate.ErrorCode(aerr) + ")"
		} else if n > 0 {
			accepted = fmt.Sprintf("; %d tool definitions accepted", n)
			if av, rerr := a.opts.Catalog.Server(ctx, s.TenantID, s.Name); rerr == nil {
				v = av
			}
		}
	}
	if v.MCPServer == nil {
		// The outcome could not be stored or read back: the server as
		// saved, without tools.
		a.opts.Logger.Warn("mcpservers: refresh not recorded", "tenant", s.TenantID, "server", s.Name, "code", gtmgate.ErrorCode(err))
		return viewOf(s, nil), "tools not listed: the outcome could not be recorded"
	}
	view := viewOf(v.MCPServer, v.Tools)
	if err != nil || !view.State.Reachable {
		return view, "tool listing failed (" + gtmgate.ErrorCode(err) + "), the last good list kept"
	}
	served := 0
	for _, t := range view.ServedTools {
		if t.Served {
			served++
		}
	}
	return view, fmt.Sprintf("%d tools listed, %d served", len(view.ServedTools), served) + accepted
}

// tenant reads the route's tenant: TENANT_NOT_FOUND when it is unknown, as
// every /admin/tenants/{tenant_id}/… route answers.
func (a *API) tenant(r *http.Request) (string, error) {
	tenant := r.PathValue("tenant_id")
	if _, err := a.opts.Store.GetTenant(r.Context(), tenant); err != nil {
		return "", tenantError(tenant, err)
	}
	return tenant, nil
}

// notFound turns the store's not-found into NOT_FOUND naming the server.
func notFound(tenant, name string, err error) error {
	if !errors.Is(err, gtmgate.ErrNotFound) {
		return err
	}
	return gtmgate.Errorf(gtmgate.ENotFound, "tenant %q has no MCP server %s", tenant, jsonapi.Quote(name)).
		WithHint(fmt.Sprintf("register it with PUT /admin/tenants/%s/mcp-servers/NAME; GET /admin/tenants/%s/mcp-servers lists them", tenant, tenant))
}

// tenantError turns the store's not-found for a tenant into TENANT_NOT_FOUND.
func tenantError(tenant string, err error) error {
	if errors.Is(err, gtmgate.ErrNotFound) {
		return gtmgate.Errorf(gtmgate.ETenantNotFound, "tenant %q is not provisioned", tenant)
	}
	return err
}
