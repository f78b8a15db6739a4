package console

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
)

// mcpServers reads a tenant's upstream MCP servers for its page; shown is
// false when the gateway has no such routes (federation not wired), so the
// section is left out rather than shown as an error.
func (c *Console) mcpServers(f *fetch, id string) (servers []obj, shown bool) {
	var out struct{ Servers []obj }
	err := c.call(f.r, http.MethodGet, "/admin/tenants/"+esc(id)+"/mcp-servers", nil, &out)
	var ae *apiError
	if errors.As(err, &ae) && ae.Status == http.StatusNotFound && ae.Code == gtmgate.ENotFound {
		return nil, false
	}
	if err != nil && f.err == nil {
		f.err = err
	}
	return out.Servers, true
}

// listing is what the admin API answers of a server whose tools it just
// listed (a save or a refresh).
type listing struct {
	State struct {
		Reachable bool
		Error     string
	}
	ServedTools []struct{ Served bool } `json:"served_tools"`
}

// served counts the tools served.
func (l *listing) served() int {
	n := 0
	for _, t := range l.ServedTools {
		if t.Served {
			n++
		}
	}
	return n
}

// refreshMCPServer lists an upstream server's tools now, then shows the
// tenant's page with the outcome.
func (c *Console) refreshMCPServer(w http.ResponseWriter, r *http.Request, _ *session) {
	id, name := r.PathValue("id"), strings.TrimSpace(r.PostForm.Get("server"))
	to := "/console/tenants/" + esc(id) + "#mcp-servers"
	if name == "" {
		c.done(w, r, to, "Refused: no MCP server named.")
		return
	}
	var v listing
	if err := c.call(r, http.MethodPost, "/admin/tenants/"+esc(id)+"/mcp-servers/"+esc(name)+"/refresh", nil, &v); err != nil {
		c.done(w, r, to, "Refused: "+err.Error())
		return
	}
	if !v.State.Reachable {
		c.done(w, r, to, fmt.Sprintf("MCP server %s could not be listed: %s. The tools it last listed stay served.", name, v.State.Error))
		return
	}
	c.done(w, r, to, fmt.Sprintf("MCP server %s listed %d tools, %d served.", name, len(v.ServedTools), v.served()))
}

// mcpServerPage shows the edit form of one of the tenant's servers, its
// tools as last listed with what is served and overridden.
func (c *Console) mcpServerPage(w http.ResponseWriter, r *http.Request, s *session) {
	id, name := r.PathValue("id"), r.PathValue("name")
	if !mayCall(s.actor, "PUT /admin/tenants/{tenant_id}/mcp-servers/{name}", id) {
		c.refuse(w, r, http.StatusForbidden, s.actor.Name+" may read this tenant's MCP servers but not change them.")
		return
	}
	var found struct{ Server obj }
	if err := c.call(r, http.MethodGet, mcpServerPath(id, name), nil, &found); err != nil {
		c.render(w, r, http.StatusNotFound, "notfound", &page{Title: "MCP server " + name, Nav: "tenants", Error: err.Error()})
		return
	}
	f := mcpFormOfServer(r, id, found.Server)
	f.Person = s.actor.Kind == gtmgate.ActorPerson
	var err error
	if f.Kind == gtmgate.MCPAuthOAuth {
		if f.Grants, err = c.mcpGrants(r, id, name); err != nil {
			f.GrantsError = "Grants could not be read: " + err.Error()
		}
	}
	if f.Changes, err = c.mcpChanges(r, id, name); err != nil {
		f.ChangesError = "Changes waiting could not be read: " + err.Error()
	}
	c.renderMCPForm(w, r, http.StatusOK, f)
}

// renderMCPForm shows the add or edit form on a page of its own.
func (c *Console) renderMCPForm(w http.ResponseWriter, r *http.Request, status int, f *mcpForm) {
	title := "Add an MCP server to " + f.Tenant
	if f.Editing {
		title = "MCP server " + f.Name + " of " + f.Tenant
	}
	c.render(w, r, status, "mcpserver", &page{Title: title, Nav: "tenants", Data: f})
}

// testMCPServer lists the tools of the form's configuration without saving
// it (POST …/mcp-servers/{name}/test), and shows the form again with them,
// each with its Serve, category, mutating and destructive controls. A
// typed secret is not written back: the form asks for it again to save.
func (c *Console) testMCPServer(w http.ResponseWriter, r *http.Request, _ *session) {
	f, secret := mcpFormOf(r)
	if secret != "" {
		f.SecretTyped = true
	}
	body, err := c.mcpBody(f, secret)
	if err != nil {
		f.Problem = "Not tested: " + err.Error()
		c.renderMCPForm(w, r, http.StatusUnprocessableEntity, f)
		return
	}
	var res obj
	if err := c.call(r, http.MethodPost, mcpServerPath(f.Tenant, f.Name)+"/test", body, &res); err != nil {
		f.Problem = "Not tested: " + err.Error()
		c.renderMCPForm(w, r, http.StatusUnprocessableEntity, f)
		return
	}
	f.Tested = true
	f.Reachable, _ = res["reachable"].(bool)
	f.LatencyMS, _ = res["latency_ms"].(float64)
	f.TestError, _ = res["error"].(string)
	if f.Reachable {
		f.Rows = rowsOf(res["served_tools"], strList(res["tools"]), overridesOf(res["overrides"]))
	}
	c.renderMCPForm(w, r, http.StatusOK, f)
}

// saveMCPServer creates or replaces a server from the form (PUT): the
// checked tools become the allow-list (all checked: none, so every tool,
// later ones included), the choices the overrides. A refusal shows the
// form again, as typed but for the secret, with status 422.
func (c *Console) saveMCPServer(w http.ResponseWriter, r *http.Request, _ *session) {
	f, secret := mcpFormOf(r)
	body, err := c.mcpBody(f, secret)
	if err != nil {
		f.Problem = "Not saved: " + err.Error()
		c.renderMCPForm(w, r, http.StatusUnprocessableEntity, f)
		return
	}
	var v listing
	if err := c.call(r, http.MethodPut, mcpServerPath(f.Tenant, f.Name), body, &v); err != nil {
		f.Problem = "Not saved: " + err.Error()
		c.renderMCPForm(w, r, http.StatusUnprocessableEntity, f)
		return
	}
	to := "/console/tenants/" + esc(f.Tenant) + "#mcp-servers"
	if !v.State.Reachable {
		c.done(w, r, to, fmt.Sprintf("MCP server %s saved, but its tools could not be listed: %s", f.Name, v.State.Error))
		return
	}
	c.done(w, r, to, fmt.Sprintf("MCP server %s saved: %d tools listed, %d served.", f.Name, len(v.ServedTools), v.served()))
}

// mcpBody checks what the console itself must (a name; a secret typed
// before a test is typed again, else an edit would silently keep the
// stored one) and builds the admin API's body.
func (c *Console) mcpBody(f *mcpForm, secret string) (obj, error) {
	if f.Name == "" {
		return nil, errors.New("the server needs a name: 1 to 32 lowercase letters, digits or '-'")
	}
	if f.SecretTyped && secret == "" && f.Kind != gtmgate.MCPAuthNone {
		return nil, errors.New("type the secret again: it is never written back into the page")
	}
	return f.body(secret)
}

// deleteMCPServer deletes one of the tenant's servers: its tools are no
// longer served.
func (c *Console) deleteMCPServer(w http.ResponseWriter, r *http.Request, _ *session) {
	id, name := r.PathValue("id"), r.PathValue("name")
	c.act(w, r, http.MethodDelete, mcpServerPath(id, name), nil, "/console/tenants/"+esc(id)+"#mcp-servers", "MCP server "+name+" deleted.")
}

// mcpGrant is one grant of an oauth server, as its edit page shows it.
type mcpGrant struct {
	// Whose is "the tenant" or the person's id.
	Whose string
	// ExpiresAt ("" for none) and UpdatedAt are RFC 3339 times.
	ExpiresAt, UpdatedAt string
	// Lapsed says why it must be connected again, "" while it holds.
	Lapsed string
}

// mcpGrants reads an oauth server's grants: its provider tokens
// ("mcp:<name>") and what the re-authorisation list says of them.
func (c *Console) mcpGrants(r *http.Request, tenant, name string) ([]mcpGrant, error) {
	var toks struct {
		ProviderTokens []gtmgate.ProviderTokenInfo `json:"provider_tokens"`
	}
	if err := c.call(r, http.MethodGet, "/admin/tenants/"+esc(tenant)+"/provider-tokens", nil, &toks); err != nil {
		return nil, err
	}
	var re struct {
		Accounts []struct {
			Provider  string `json:"provider"`
			AccountID string `json:"account_id"`
			Reason    string `json:"reason"`
		} `json:"accounts"`
	}
	if err := c.call(r, http.MethodGet, "/admin/reauth?tenant="+url.QueryEscape(tenant), nil, &re); err != nil {
		return nil, err
	}
	provider := gtmgate.MCPGrantProvider(name)
	var out []mcpGrant
	for _, t := range toks.ProviderTokens {
		if t.Provider != provider {
			continue
		}
		g := mcpGrant{Whose: t.AccountID, UpdatedAt: t.UpdatedAt.UTC().Format(time.RFC3339)}
		if t.ExpiresAt != nil && !t.ExpiresAt.IsZero() {
			g.ExpiresAt = t.ExpiresAt.UTC().Format(time.RFC3339)
		}
		if g.Whose == gtmgate.MCPGrantTenant {
			g.Whose = "the tenant"
		}
		for _, a := range re.Accounts {
			if a.Provider == provider && a.AccountID == t.AccountID {
				g.Lapsed = a.Reason
			}
		}
		out = append(out, g)
	}
	return out, nil
}

// connectMCPServer serves POST …/mcp-servers/{name}/connect: it makes a
// connect link to the oauth server for the tenant and opens it, so the
// person consents at the server's authorization server and comes back.
func (c *Console) connectMCPServer(w http.ResponseWriter, r *http.Request, _ *session) {
	id, name := r.PathValue("id"), r.PathValue("name")
	var made struct {
		URL string `json:"url"`
	}
	err := c.call(r, http.MethodPost, "/admin/tenants/"+esc(id)+"/connect-links", obj{"provider": gtmgate.MCPGrantProvider(name)}, &made)
	if err != nil {
		c.done(w, r, mcpServerPagePath(id, name)+"#connect", "Refused: "+err.Error())
		return
	}
	w.Header().Set("Referrer-Policy", "no-referrer")
	http.Redirect(w, r, made.URL, http.StatusSeeOther)
}

// mcpServerPagePath is the console page of one of a tenant's servers.
func mcpServerPagePath(tenant, name string) string {
	return "/console/tenants/" + esc(tenant) + "/mcp-servers/" + esc(name)
}
