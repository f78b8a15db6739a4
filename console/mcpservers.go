package console

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

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

// refreshMCPServer lists an upstream server's tools now, then shows the
// tenant's page with the outcome.
func (c *Console) refreshMCPServer(w http.ResponseWriter, r *http.Request, _ *session) {
	id, name := r.PathValue("id"), strings.TrimSpace(r.PostForm.Get("server"))
	to := "/console/tenants/" + esc(id) + "#mcp-servers"
	if name == "" {
		c.done(w, r, to, "Refused: no MCP server named.")
		return
	}
	var v struct {
		State struct {
			Reachable bool
			Error     string
		}
		ServedTools []struct{ Served bool } `json:"served_tools"`
	}
	if err := c.call(r, http.MethodPost, "/admin/tenants/"+esc(id)+"/mcp-servers/"+esc(name)+"/refresh", nil, &v); err != nil {
		c.done(w, r, to, "Refused: "+err.Error())
		return
	}
	if !v.State.Reachable {
		c.done(w, r, to, fmt.Sprintf("MCP server %s could not be listed: %s. The tools it last listed stay served.", name, v.State.Error))
		return
	}
	served := 0
	for _, t := range v.ServedTools {
		if t.Served {
			served++
		}
	}
	c.done(w, r, to, fmt.Sprintf("MCP server %s listed %d tools, %d served.", name, len(v.ServedTools), served))
}
