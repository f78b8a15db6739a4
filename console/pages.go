package console

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/admin"
	"github.com/gtmgate/gtmgate/secret"
)

// obj is a decoded admin API object; pages read the API's own field names.
type obj = map[string]any

func (c *Console) pageRoutes() map[string]handler {
	return map[string]handler{
		"GET /console/{$}":                                  c.overview,
		"POST /console/signout":                             c.signOut,
		"GET /console/tenants":                              c.tenants,
		"POST /console/tenants":                             c.createTenant,
		"GET /console/tenants/{id}":                         c.tenant,
		"POST /console/tenants/{id}":                        c.saveTenant,
		"POST /console/tenants/{id}/billing":                c.saveBilling,
		"POST /console/tenants/{id}/tokens":                 c.issueToken,
		"POST /console/tenants/{id}/tokens/{token}/revoke":  c.revokeToken,
		"GET /console/tenants/{id}/agents/{token}":          c.agent,
		"GET /console/tenants/{id}/tools":                   c.tools,
		"GET /console/tenants/{id}/tools/{tool}":            c.playground,
		"POST /console/tenants/{id}/tools/{tool}":           c.runTool,
		"POST /console/tenants/{id}/grants/revoke":          c.revokeGrant,
		"POST /console/tenants/{id}/connect-links":          c.connectLink,
		"GET /console/connect/{tenant}/{provider}":          c.connectOwnPage,
		"POST /console/connect/{tenant}/{provider}":         c.connectOwn,
		"POST /console/tenants/{id}/mcp-servers/refresh":    c.refreshMCPServer,
		"POST /console/tenants/{id}/toolsets":               c.saveToolset,
		"POST /console/tenants/{id}/toolsets/{name}/delete": c.deleteToolset,
		"GET /console/oauth-apps":                           c.oauthApps,
		"POST /console/oauth-apps":                          c.saveOAuthApp,
		"POST /console/oauth-apps/{provider}/delete":        c.deleteOAuthApp,
		"GET /console/approvals":                            c.approvals,
		"GET /console/approvals/{id}":                       c.approval,
		"POST /console/approvals/{id}/{decision}":           c.decide,
		"GET /console/audit":                                c.audit,
		"GET /console/calls/{request_id}":                   c.call_,
		"GET /console/errors":                               c.errorsPage,
		"POST /console/errors/{id}/replay":                  c.replay,
		"GET /console/incidents":                            c.incidents,
		"POST /console/incidents/{id}/resolve":              c.resolveIncident,
		"GET /console/quality":                              c.quality,
		"POST /console/quality/verdicts/{id}/label":         c.label,
		"GET /console/feedback":                             c.feedback,
		"POST /console/feedback/{id}/resolve":               c.resolveFeedback,
		"GET /console/schedules":                            c.schedules,
		"POST /console/schedules/{id}/run":                  c.runSchedule,
		"GET /console/brief":                                c.brief,
		"POST /console/brief":                               c.triggerBrief,
		"GET /console/health":                               c.health,
		"GET /console/people":                               c.people,
		"POST /console/people/grants":                       c.grant,
		"POST /console/people/grants/{id}/revoke":           c.revokeRoleGrant,
		"POST /console/people/{id}/remove":                  c.removePerson,

		// Adding, testing, editing and deleting a tenant's MCP servers.
		"POST /console/tenants/{id}/mcp-servers":               c.saveMCPServer,
		"POST /console/tenants/{id}/mcp-servers/test":          c.testMCPServer,
		"GET /console/tenants/{id}/mcp-servers/{name}":         c.mcpServerPage,
		"POST /console/tenants/{id}/mcp-servers/{name}/delete": c.deleteMCPServer,
		// Accepting changed tool definitions (#42).
		"POST /console/tenants/{id}/mcp-servers/{name}/changes/accept": c.acceptMCPChanges,
		// Connecting an oauth server: a connect link, opened (#42).
		"POST /console/tenants/{id}/mcp-servers/{name}/connect": c.connectMCPServer,
	}
}

// tenantPages are the pages a tenant's people may open; each still reads
// and acts through the admin API's access checks. Every other page is the
// operator's.
var tenantPages = map[string]bool{
	"GET /console/{$}":                                 true, // sends them on to approvals
	"POST /console/signout":                            true,
	"GET /console/tenants":                             true,
	"GET /console/tenants/{id}":                        true,
	"POST /console/tenants/{id}/tokens/{token}/revoke": true,
	"GET /console/tenants/{id}/agents/{token}":         true,
	// The admin API lets a tenant's people list its tools, and run them
	// from write access up; the playground shows its refusal below that.
	"GET /console/tenants/{id}/tools":                true,
	"GET /console/tenants/{id}/tools/{tool}":         true,
	"POST /console/tenants/{id}/tools/{tool}":        true,
	"POST /console/tenants/{id}/grants/revoke":       true,
	"POST /console/tenants/{id}/connect-links":       true,
	"POST /console/tenants/{id}/mcp-servers/refresh": true,
	// A person connects an account of their own; the admin API lets any
	// role in the tenant, and refuses the admin key (no person).
	"GET /console/connect/{tenant}/{provider}":  true,
	"POST /console/connect/{tenant}/{provider}": true,
	// The admin API lets a tenant's owner change its toolsets.
	"POST /console/tenants/{id}/toolsets":               true,
	"POST /console/tenants/{id}/toolsets/{name}/delete": true,
	"GET /console/approvals":                            true,
	"GET /console/approvals/{id}":                       true,
	"POST /console/approvals/{id}/{decision}":           true,
	"GET /console/audit":                                true,
	"GET /console/schedules":                            true,
	"POST /console/schedules/{id}/run":                  true,

	// The admin API lets a tenant's owner and members change its MCP
	// servers (write access); the page shows the forms only to them.
	"POST /console/tenants/{id}/mcp-servers":               true,
	"POST /console/tenants/{id}/mcp-servers/test":          true,
	"GET /console/tenants/{id}/mcp-servers/{name}":         true,
	"POST /console/tenants/{id}/mcp-servers/{name}/delete": true,
	// Accepting changed tool definitions: write access, as saving.
	"POST /console/tenants/{id}/mcp-servers/{name}/changes/accept": true,
	// Connecting an oauth server: the connect-link route decides who may.
	"POST /console/tenants/{id}/mcp-servers/{name}/connect": true,
}

// mayCall reports whether actor may make the admin route pattern's calls
// on tenant, by the rule the admin API declares for it (admin.AccessOf),
// so a page shows a form only to those the API lets use it and never
// decides access by a rule of its own.
func mayCall(actor *gtmgate.Actor, pattern, tenant string) bool {
	need, _, ok := admin.AccessOf(pattern)
	return ok && actor.Allows(need, tenant)
}

// operatorOnly refuses an operator's page to a tenant's people.
func operatorOnly(c *Console, h handler) handler {
	return func(w http.ResponseWriter, r *http.Request, s *session) {
		if s.actor.Operator() == "" {
			c.refuse(w, r, http.StatusForbidden, s.actor.Name+" signed in as one of a tenant's people: this page is the operator's.")
			return
		}
		h(w, r, s)
	}
}

// fetch gathers several admin GETs for one page; the first failure is the
// page's error, the rest of the page still renders.
type fetch struct {
	c   *Console
	r   *http.Request
	err error
}

func (f *fetch) get(path string, out any) bool {
	err := f.c.call(f.r, http.MethodGet, path, nil, out)
	if err != nil && f.err == nil {
		f.err = err
	}
	return err == nil
}

// optional reads something a page shows only when it exists (a tenant's
// billing plan): a 404 answers "none", neither the page's error nor an
// error in the audit log.
func (f *fetch) optional(path string, out any) bool {
	err := f.c.call(f.r.WithContext(gtmgate.WithAbsenceExpected(f.r.Context())), http.MethodGet, path, nil, out)
	if ae := (*apiError)(nil); errors.As(err, &ae) && ae.Status == http.StatusNotFound {
		return false
	}
	if err != nil && f.err == nil {
		f.err = err
	}
	return err == nil
}

func (f *fetch) message() string {
	if f.err == nil {
		return ""
	}
	return f.err.Error()
}

// act runs an admin action from a form and redirects to "to" with what
// happened.
func (c *Console) act(w http.ResponseWriter, r *http.Request, method, path string, body any, to, ok string) {
	var out obj
	if err := c.call(r, method, path, body, &out); err != nil {
		c.done(w, r, to, "Refused: "+err.Error())
		return
	}
	c.done(w, r, to, ok)
}

func esc(s string) string { return url.PathEscape(s) }

func (c *Console) tenants(w http.ResponseWriter, r *http.Request, _ *session) {
	f := &fetch{c: c, r: r}
	var out struct{ Tenants []obj }
	f.get("/admin/tenants", &out)
	c.render(w, r, http.StatusOK, "tenants", &page{Title: "Tenants", Nav: "tenants", Error: f.message(), Data: out.Tenants})
}

func (c *Console) createTenant(w http.ResponseWriter, r *http.Request, _ *session) {
	id := strings.TrimSpace(r.PostForm.Get("id"))
	if id == "" {
		c.done(w, r, "/console/tenants", "Refused: a tenant needs an id.")
		return
	}
	body := obj{"name": cmp.Or(strings.TrimSpace(r.PostForm.Get("name")), id)}
	var out obj
	if err := c.call(r, http.MethodPut, "/admin/tenants/"+esc(id), body, &out); err != nil {
		c.done(w, r, "/console/tenants", "Refused: "+err.Error())
		return
	}
	c.done(w, r, "/console/tenants/"+esc(id), "Tenant "+id+" saved.")
}

// tenantView is the tenant page's data.
type tenantView struct {
	ID, Config, Billing string
	Tenant              obj
	Tokens, Provider    []obj
	Grants              []obj
	NewToken            string
	// NewWebhookSecrets are the signing secrets of the approval route
	// webhooks a save just added, shown in that response only.
	NewWebhookSecrets []obj
	Accounts          []obj
	// Links are the tenant's connect links; NewLink the one just created,
	// whose URL is shown in this response only.
	Links   []obj
	NewLink obj
	// Reauth are the tenant's accounts whose owner must connect them again
	// (GET /admin/reauth); each gets a Send re-connect link button.
	Reauth []obj
	// MCPServers are the tenant's upstream MCP servers with their tools;
	// MCPServersShown is false when the gateway has no such routes.
	MCPServers      []obj
	MCPServersShown bool
	// MCPForm is the empty "Add an MCP server" form, nil when the viewer
	// may not change the tenant's MCP servers (no forms are shown).
	MCPForm *mcpForm
	// Toolsets are the tenant's toolsets by name, each as editable JSON
	// with the unrevoked tokens that use it.
	Toolsets []toolsetView
	// Usage is this billing period's usage and statement.
	Usage obj
	// Operator says the viewer may change the tenant's configuration and
	// billing plan (an operator admin); a tenant's people read them.
	Operator bool
	// ConfigForm and BillingForm are the Configuration and Billing plan
	// forms (tenantforms.go), also the read-only summary of both.
	ConfigForm  *configForm
	BillingForm *billingForm
}

func (c *Console) tenantView(r *http.Request, id string) (*tenantView, string) {
	f := &fetch{c: c, r: r}
	v := &tenantView{ID: id}
	var t struct{ Tenant obj }
	if !f.get("/admin/tenants/"+esc(id), &t) {
		return nil, f.message()
	}
	v.Tenant = t.Tenant
	editable := obj{}
	for k, val := range t.Tenant {
		if k != "id" && k != "created_at" && k != "updated_at" {
			editable[k] = val
		}
	}
	v.Config = indent(editable)
	var tokens struct{ Tokens []obj }
	f.get("/admin/auth/"+esc(id), &tokens)
	v.Tokens = tokens.Tokens
	v.Toolsets = toolsetViews(t.Tenant, v.Tokens)
	var pts struct {
		ProviderTokens []obj `json:"provider_tokens"`
	}
	f.get("/admin/tenants/"+esc(id)+"/provider-tokens", &pts)
	v.Provider = pts.ProviderTokens
	var grants struct {
		Grants []obj `json:"oauth_grants"`
	}
	f.get("/admin/tenants/"+esc(id)+"/oauth-grants", &grants)
	v.Grants = grants.Grants
	var links struct {
		Links []obj `json:"connect_links"`
	}
	f.get("/admin/connect-links?limit=20&tenant="+url.QueryEscape(id), &links)
	v.Links = links.Links
	var reauth struct{ Accounts []obj }
	f.get("/admin/reauth?tenant="+url.QueryEscape(id), &reauth)
	v.Reauth = reauth.Accounts
	v.MCPServers, v.MCPServersShown = c.mcpServers(f, id)
	v.MCPForm = newMCPForm(r, id)
	f.get("/admin/usage/"+esc(id), &v.Usage)
	v.Operator = sessionOf(r).actor.Allows(gtmgate.AccessOperator, id)
	var plan obj
	if f.optional("/admin/billing/"+esc(id), &plan) {
		v.Billing = indent(plan)
	}
	v.ConfigForm, v.BillingForm = newConfigForm(t.Tenant, c.opts.Providers), newBillingForm(plan)
	return v, f.message()
}

func (c *Console) tenant(w http.ResponseWriter, r *http.Request, _ *session) {
	c.renderTenant(w, r, http.StatusOK, "")
}

func (c *Console) renderTenant(w http.ResponseWriter, r *http.Request, status int, newToken string) {
	id := r.PathValue("id")
	v, msg := c.tenantView(r, id)
	if v == nil {
		c.render(w, r, http.StatusNotFound, "notfound", &page{Title: "Tenant " + id, Nav: "tenants", Error: msg})
		return
	}
	v.NewToken = newToken
	c.render(w, r, status, "tenant", &page{Title: "Tenant " + id, Nav: "tenants", Error: msg, Data: v})
}

// issueToken generates a token, registers it and shows it once, in this
// response only (never in a redirect or a cookie).
func (c *Console) issueToken(w http.ResponseWriter, r *http.Request, _ *session) {
	id := r.PathValue("id")
	token, err := secret.NewToken("gtm_")
	if err != nil {
		c.refuse(w, r, http.StatusInternalServerError, "No token could be generated.")
		return
	}
	var out obj
	if err := c.call(r, http.MethodPost, "/admin/auth", obj{"tenant_id": id, "token": token, "label": strings.TrimSpace(r.PostForm.Get("label")),
		"toolset": r.PostForm.Get("toolset"), "person": strings.TrimSpace(r.PostForm.Get("person"))}, &out); err != nil {
		c.done(w, r, "/console/tenants/"+esc(id), "Refused: "+err.Error())
		return
	}
	c.renderTenant(w, r, http.StatusCreated, token)
}

// connectLink creates a connect link for the tenant and shows its URL once,
// in this response, with Copy and Open: the operator sends it to the
// account's owner, or opens it to consent themselves.
func (c *Console) connectLink(w http.ResponseWriter, r *http.Request, _ *session) {
	id := r.PathValue("id")
	body := obj{"provider": r.PostForm.Get("provider")}
	if hint := strings.TrimSpace(r.PostForm.Get("account_hint")); hint != "" {
		body["account_hint"] = hint
	}
	if r.PostForm.Get("read_only") != "" {
		body["read_only"] = true
	}
	if person := strings.TrimSpace(r.PostForm.Get("person")); person != "" {
		body["person"] = person
	}
	var link obj
	if err := c.call(r, http.MethodPost, "/admin/tenants/"+esc(id)+"/connect-links", body, &link); err != nil {
		c.done(w, r, "/console/tenants/"+esc(id)+"#connect", "No connect link: "+err.Error())
		return
	}
	v, msg := c.tenantView(r, id)
	if v == nil {
		c.render(w, r, http.StatusNotFound, "notfound", &page{Title: "Tenant " + id, Nav: "tenants", Error: msg})
		return
	}
	v.NewLink = link
	c.render(w, r, http.StatusCreated, "tenant", &page{Title: "Tenant " + id, Nav: "tenants", Error: msg, Data: v})
}

// toolsetView is one toolset on the tenant page.
type toolsetView struct {
	Name, JSON string
	UsedBy     []string
}

// toolsetViews lists tenant's toolsets by name with the unrevoked tokens
// that use each.
func toolsetViews(tenant obj, tokens []obj) []toolsetView {
	sets, _ := tenant["toolsets"].(map[string]any)
	var out []toolsetView
	for _, name := range slices.Sorted(maps.Keys(sets)) {
		v := toolsetView{Name: name, JSON: indent(sets[name])}
		for _, t := range tokens {
			if t["toolset"] == name && t["revoked_at"] == nil {
				v.UsedBy = append(v.UsedBy, fmt.Sprint(t["id"]))
			}
		}
		out = append(out, v)
	}
	return out
}

// saveToolset creates or replaces a toolset from its JSON; the admin API
// validates it and its refusal is shown as the flash.
func (c *Console) saveToolset(w http.ResponseWriter, r *http.Request, _ *session) {
	id, name := r.PathValue("id"), strings.TrimSpace(r.PostForm.Get("name"))
	to := "/console/tenants/" + esc(id) + "#toolsets"
	ts, err := decodeObject(r.PostForm.Get("toolset"))
	if err == nil {
		err = c.call(r, http.MethodPut, "/admin/tenants/"+esc(id)+"/toolsets/"+esc(name), ts, nil)
	}
	if err != nil {
		c.done(w, r, to, "Toolset "+name+" not saved: "+err.Error())
		return
	}
	c.done(w, r, to, "Toolset "+name+" saved.")
}

func (c *Console) deleteToolset(w http.ResponseWriter, r *http.Request, _ *session) {
	id, name := r.PathValue("id"), r.PathValue("name")
	c.act(w, r, http.MethodDelete, "/admin/tenants/"+esc(id)+"/toolsets/"+esc(name), nil, "/console/tenants/"+esc(id)+"#toolsets", "Toolset "+name+" deleted.")
}

func (c *Console) revokeToken(w http.ResponseWriter, r *http.Request, _ *session) {
	id, tok := r.PathValue("id"), r.PathValue("token")
	c.act(w, r, http.MethodDelete, "/admin/auth/"+esc(id)+"/"+esc(tok), nil, "/console/tenants/"+esc(id), "Token "+tok+" revoked.")
}

func (c *Console) revokeGrant(w http.ResponseWriter, r *http.Request, _ *session) {
	id, client := r.PathValue("id"), r.PostForm.Get("client_id")
	c.act(w, r, http.MethodPost, "/admin/tenants/"+esc(id)+"/oauth-grants/revoke", obj{"client_id": client},
		"/console/tenants/"+esc(id), "OAuth client "+client+" disconnected.")
}

func (c *Console) approvals(w http.ResponseWriter, r *http.Request, s *session) {
	f := &fetch{c: c, r: r}
	var pending, decided struct{ Approvals []obj }
	f.get("/admin/approvals?status=pending&limit=200", &pending)
	f.get("/admin/approvals?status=all&limit=50", &decided)
	decided.Approvals = slices.DeleteFunc(decided.Approvals, func(a obj) bool { return a["status"] == gtmgate.ApprovalPending })
	for _, a := range pending.Approvals {
		a["input_pretty"] = indent(a["input"])
		a["described"] = describeApproval(a)
	}
	you := s.actor.AuditKey()
	for _, a := range append(pending.Approvals, decided.Approvals...) {
		approvalsGiven(a, you)
	}
	c.runStates(r, append(pending.Approvals, decided.Approvals...))
	c.render(w, r, http.StatusOK, "approvals", &page{Title: "Approvals", Nav: "approvals", Error: f.message(), Refresh: 15,
		Data: obj{"pending": pending.Approvals, "decided": decided.Approvals}})
}

// approval serves one gate's page (gtmgate.ApprovalPagePath), where notices
// and held calls send the approver: exactly what will run, and the decision
// forms while it is pending; its outcome once decided. The admin API decides
// who may see it.
func (c *Console) approval(w http.ResponseWriter, r *http.Request, s *session) {
	id := r.PathValue("id")
	var g obj
	if err := c.call(r, http.MethodGet, "/admin/approvals/"+esc(id), nil, &g); err != nil {
		if ae := (*apiError)(nil); errors.As(err, &ae) && ae.Status == http.StatusForbidden {
			c.refuse(w, r, http.StatusForbidden, "Approval "+id+": "+err.Error())
			return
		}
		c.render(w, r, http.StatusNotFound, "notfound", &page{Title: "Approval " + id, Nav: "approvals", Error: "Approval " + id + ": " + err.Error()})
		return
	}
	g["input_pretty"] = indent(g["input"])
	g["described"] = describeApproval(g)
	if g["result"] != nil {
		g["result_pretty"] = indent(g["result"])
	}
	approvalsGiven(g, s.actor.AuditKey())
	c.runStates(r, []obj{g})
	refresh := 0
	if g["status"] == gtmgate.ApprovalPending {
		refresh = 15
	}
	c.render(w, r, http.StatusOK, "approval", &page{Title: "Approval " + id, Nav: "approvals", Refresh: refresh,
		Data: obj{"gate": g, "back": gtmgate.ApprovalPagePath(id)}})
}

// runStates puts beside each gate held for an agent run the run's state
// (run_status, run_reason), so an operator sees a gate whose run has ended.
func (c *Console) runStates(r *http.Request, gates []obj) {
	runs := map[string]obj{}
	for _, a := range gates {
		id := anyString(a["run_id"])
		if id == "" {
			continue
		}
		run, seen := runs[id]
		if !seen {
			if err := c.call(r, http.MethodGet, "/admin/agent-runs/"+esc(id), nil, &run); err != nil {
				run = obj{"status": "unknown"}
			}
			runs[id] = run
		}
		a["run_status"], a["run_reason"] = run["status"], run["reason"]
	}
}

func (c *Console) decide(w http.ResponseWriter, r *http.Request, s *session) {
	id, decision := r.PathValue("id"), r.PathValue("decision")
	if decision != "approve" && decision != "reject" {
		c.refuse(w, r, http.StatusNotFound, "Unknown decision.")
		return
	}
	back := "/console/approvals"
	if r.PostForm.Get("back") == gtmgate.ApprovalPagePath(id) {
		back = gtmgate.ApprovalPagePath(id) // decided on the gate's own page
	}
	reason := strings.TrimSpace(r.PostForm.Get("reason"))
	if decision == "reject" && reason == "" {
		c.done(w, r, back, "Refused: say why you reject the call.")
		return
	}
	var out obj
	if err := c.call(r, http.MethodPost, "/admin/approvals/"+esc(id)+"/"+decision, obj{"reason": reason}, &out); err != nil {
		c.done(w, r, back, "Refused: "+err.Error())
		return
	}
	done := "Approval " + id + ": " + decision + "d."
	if out["status"] == gtmgate.ApprovalPending {
		approvalsGiven(out, "")
		done = "Approval " + id + ": your approval is recorded (" + anyString(out["approvals_note"]) +
			"). It stays pending until a different approver gives the next."
	}
	c.done(w, r, back, done)
}

// auditFilters are the audit API's filters the explorer passes on
// (correlation_id only with tenant: the API refuses it alone).
var auditFilters = []string{"tenant", "action", "source", "key", "actor", "request_id", "correlation_id", "since", "limit", "cursor"}

func (c *Console) audit(w http.ResponseWriter, r *http.Request, s *session) {
	q := url.Values{}
	for _, k := range auditFilters {
		if v := strings.TrimSpace(r.URL.Query().Get(k)); v != "" {
			q.Set(k, v)
		}
	}
	if tenants := s.actor.TenantIDs(); !q.Has("tenant") && s.actor.Operator() == "" && len(tenants) > 0 {
		// A tenant's people read their tenant's audit: the API needs it named.
		q.Set("tenant", tenants[0])
	}
	if !q.Has("limit") {
		q.Set("limit", "50")
	}
	f := &fetch{c: c, r: r}
	var out struct {
		Entries    []obj
		NextCursor string `json:"next_cursor"`
	}
	f.get("/admin/audit?"+q.Encode(), &out)
	next := ""
	if out.NextCursor != "" {
		nq := url.Values{}
		for k, v := range q {
			nq[k] = v
		}
		nq.Set("cursor", out.NextCursor)
		next = "/console/audit?" + nq.Encode()
	}
	filters := map[string]string{}
	for _, k := range auditFilters {
		filters[k] = q.Get(k)
	}
	c.render(w, r, http.StatusOK, "audit", &page{Title: "Audit", Nav: "audit", Error: f.message(),
		Data: obj{"entries": out.Entries, "next": next, "filters": filters}})
}

// call_ is one call's detail: its audit entries, the calls it made (an
// agent run's), its ledger entry, and where its usage and verdicts are.
func (c *Console) call_(w http.ResponseWriter, r *http.Request, _ *session) {
	id := r.PathValue("request_id")
	f := &fetch{c: c, r: r}
	var audit, children struct{ Entries []obj }
	f.get("/admin/audit?request_id="+url.QueryEscape(id), &audit)
	f.get("/admin/audit?parent="+url.QueryEscape(id), &children)
	var ledger struct{ Entries []obj }
	f.get("/admin/errors?request_id="+url.QueryEscape(id), &ledger)
	if f.err == nil && len(audit.Entries) == 0 && len(ledger.Entries) == 0 {
		c.render(w, r, http.StatusNotFound, "notfound", &page{Title: "Call " + id, Nav: "audit", Error: "No audit entry has request id " + id + "."})
		return
	}
	c.render(w, r, http.StatusOK, "call", &page{Title: "Call " + id, Nav: "audit", Error: f.message(),
		Data: obj{"request_id": id, "entries": audit.Entries, "children": children.Entries, "ledger": ledger.Entries}})
}

func (c *Console) errorsPage(w http.ResponseWriter, r *http.Request, _ *session) {
	q := url.Values{"kind": {gtmgate.LedgerFailure}, "limit": {"100"}}
	if t := r.URL.Query().Get("tenant"); t != "" {
		q.Set("tenant", t)
	}
	f := &fetch{c: c, r: r}
	var out struct{ Entries []obj }
	f.get("/admin/errors?"+q.Encode(), &out)
	for _, e := range out.Entries {
		e["input_pretty"] = indent(e["input"])
	}
	c.render(w, r, http.StatusOK, "errors", &page{Title: "Errors", Nav: "errors", Error: f.message(),
		Data: obj{"entries": out.Entries, "tenant": q.Get("tenant")}})
}

func (c *Console) replay(w http.ResponseWriter, r *http.Request, _ *session) {
	id := r.PathValue("id")
	var out obj
	err := c.call(r, http.MethodPost, "/admin/replay", obj{"entry_id": id, "force": r.PostForm.Get("force") == "1"}, &out)
	switch {
	case err != nil:
		c.done(w, r, "/console/errors", "Replay of "+id+" refused: "+err.Error())
	case out["ok"] == true:
		c.done(w, r, "/console/errors", "Replayed "+id+": the call succeeded.")
	default:
		// The replay's error is the API's error body: {code, message, hint}.
		e, _ := out["error"].(obj)
		c.done(w, r, "/console/errors", "Replayed "+id+": the call failed again: "+anyString(e["code"])+": "+anyString(e["message"]))
	}
}

func anyString(v any) string {
	s, _ := v.(string)
	return s
}

func (c *Console) incidents(w http.ResponseWriter, r *http.Request, _ *session) {
	f := &fetch{c: c, r: r}
	var open, resolved struct{ Incidents []obj }
	f.get("/admin/incidents?status=open", &open)
	f.get("/admin/incidents?status=resolved&limit=50", &resolved)
	c.render(w, r, http.StatusOK, "incidents", &page{Title: "Incidents", Nav: "incidents", Error: f.message(),
		Data: obj{"open": open.Incidents, "resolved": resolved.Incidents}})
}

func (c *Console) resolveIncident(w http.ResponseWriter, r *http.Request, s *session) {
	id := r.PathValue("id")
	c.act(w, r, http.MethodPost, "/admin/incidents/"+esc(id)+"/resolve", obj{"resolved_by": s.actor.Name}, "/console/incidents", "Incident "+id+" resolved.")
}

func (c *Console) quality(w http.ResponseWriter, r *http.Request, _ *session) {
	q := url.Values{"limit": {"50"}}
	for _, k := range []string{"tenant", "tool", "issue"} {
		if v := r.URL.Query().Get(k); v != "" {
			q.Set(k, v)
		}
	}
	f := &fetch{c: c, r: r}
	var verdicts struct{ Verdicts []obj }
	var agreement, grader obj
	var paths struct{ Paths []obj }
	f.get("/admin/grader", &grader)
	f.get("/admin/grader/verdicts?"+q.Encode(), &verdicts)
	f.get("/admin/grader/agreement", &agreement)
	f.get("/admin/grader/paths?degraded=true", &paths)
	c.render(w, r, http.StatusOK, "quality", &page{Title: "Quality", Nav: "quality", Error: f.message(),
		Data: obj{"grader": grader, "verdicts": verdicts.Verdicts, "agreement": agreement["agreement"], "paths": paths.Paths,
			"tenant": q.Get("tenant"), "tool": q.Get("tool")}})
}

func (c *Console) label(w http.ResponseWriter, r *http.Request, _ *session) {
	id := r.PathValue("id")
	correct := r.PostForm.Get("correct") == "true"
	body := obj{"correct": correct, "note": strings.TrimSpace(r.PostForm.Get("note"))}
	if q, err := strconv.Atoi(r.PostForm.Get("quality")); err == nil && !correct {
		body["quality"] = q
	}
	c.act(w, r, http.MethodPost, "/admin/grader/verdicts/"+esc(id)+"/label", body, "/console/quality", "Verdict "+id+" labelled.")
}

func (c *Console) feedback(w http.ResponseWriter, r *http.Request, _ *session) {
	f := &fetch{c: c, r: r}
	var open, resolved struct{ Feedback []obj }
	f.get("/admin/feedback?resolved=false", &open)
	f.get("/admin/feedback?resolved=true&limit=30", &resolved)
	c.render(w, r, http.StatusOK, "feedback", &page{Title: "Feedback", Nav: "feedback", Error: f.message(),
		Data: obj{"open": open.Feedback, "resolved": resolved.Feedback}})
}

func (c *Console) resolveFeedback(w http.ResponseWriter, r *http.Request, s *session) {
	id := r.PathValue("id")
	c.act(w, r, http.MethodPost, "/admin/feedback/"+esc(id)+"/resolve", obj{"resolved_by": s.actor.Name}, "/console/feedback", "Feedback "+id+" resolved.")
}

func (c *Console) schedules(w http.ResponseWriter, r *http.Request, s *session) {
	f := &fetch{c: c, r: r}
	var out struct{ Schedules []obj }
	if s.actor.Operator() != "" {
		f.get("/admin/agent-schedules", &out)
	} else {
		// A tenant's people see their tenants' schedules: the API needs each named.
		for _, t := range s.actor.TenantIDs() {
			var one struct{ Schedules []obj }
			f.get("/admin/agent-schedules?tenant="+url.QueryEscape(t), &one)
			out.Schedules = append(out.Schedules, one.Schedules...)
		}
	}
	c.render(w, r, http.StatusOK, "schedules", &page{Title: "Schedules", Nav: "schedules", Error: f.message(), Data: out.Schedules})
}

// runSchedule runs a job now; the form names its tenant, since job ids are
// each tenant's own.
func (c *Console) runSchedule(w http.ResponseWriter, r *http.Request, _ *session) {
	id := r.PathValue("id")
	path := "/admin/agent-schedules/" + esc(id) + "/run"
	if tenant := r.PostForm.Get("tenant"); tenant != "" {
		path += "?tenant=" + url.QueryEscape(tenant)
	}
	var ran obj
	if err := c.call(r, http.MethodPost, path, nil, &ran); err != nil {
		c.done(w, r, "/console/schedules", "Refused: "+err.Error())
		return
	}
	msg := "Job " + id + ": run " + anyString(ran["run_id"]) + " " + anyString(ran["status"]) + "."
	if reason := anyString(ran["reason"]); reason != "" {
		msg = "Job " + id + " " + anyString(ran["status"]) + ": " + reason + "."
	}
	c.done(w, r, "/console/schedules", msg)
}

func (c *Console) brief(w http.ResponseWriter, r *http.Request, _ *session) {
	var b obj
	msg := ""
	if err := c.call(r, http.MethodGet, "/admin/daily-brief", nil, &b); err != nil {
		var ae *apiError
		if !errors.As(err, &ae) || ae.Status != http.StatusNotFound {
			msg = err.Error()
		}
		b = nil
	}
	c.render(w, r, http.StatusOK, "brief", &page{Title: "Daily brief", Nav: "brief", Error: msg, Data: b})
}

func (c *Console) triggerBrief(w http.ResponseWriter, r *http.Request, _ *session) {
	c.act(w, r, http.MethodPost, "/admin/daily-brief/trigger", obj{}, "/console/brief", "Daily brief generated.")
}

// indent renders a decoded value as indented JSON for a page.
func indent(v any) string {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil || string(b) == "null" {
		return ""
	}
	return string(b)
}

// decodeObject reads an edited JSON object from a form field.
func decodeObject(text string) (obj, error) {
	var o obj
	err := json.Unmarshal([]byte(text), &o)
	if err == nil && o == nil {
		err = errors.New("it is null")
	}
	if err != nil {
		return nil, &apiError{Status: http.StatusBadRequest, Message: "the text is not a JSON object: " + err.Error()}
	}
	return o, nil
}
