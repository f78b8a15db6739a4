package mcpservers

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/admin"
	"github.com/gtmgate/gtmgate/federation"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// TestResult is the answer to POST …/mcp-servers/{name}/test: what a PUT of
// the same body would find, though nothing was saved.
type TestResult struct {
	TenantID string `json:"tenant_id"`
	Name     string `json:"name"`
	URL      string `json:"url"`
	// Auth is the tested authentication; secret_set says a secret was
	// sent, typed or kept from the stored server (SecretKept).
	Auth       AuthView `json:"auth"`
	SecretKept bool     `json:"secret_kept"`
	// Tools and Overrides are the body's allow-list and overrides.
	Tools     []string                           `json:"tools"`
	Overrides map[string]gtmgate.MCPToolOverride `json:"overrides"`
	// Reachable, LatencyMS and Error are the listing's outcome; Error
	// never holds the secret.
	Reachable bool    `json:"reachable"`
	LatencyMS float64 `json:"latency_ms"`
	Error     string  `json:"error,omitempty"`
	// ServedTools is every tool the upstream listed, as the server's view
	// would show it under the body's allow-list and overrides.
	ServedTools []federation.ToolView `json:"served_tools"`
}

// test serves POST …/mcp-servers/{name}/test: the body is validated as PUT
// validates it, a left-out secret is completed from the stored server
// under PUT's rules, and the upstream's tools are listed (at most
// RefreshTimeout) on a session of its own. Nothing is stored and the
// served tools do not change. The answer is 200 whether or not the
// upstream answered; reachable and error say which.
func (a *API) test(w http.ResponseWriter, r *http.Request) {
	s, _, kept, err := a.requested(w, r)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	out := a.probe(r.Context(), s)
	out.SecretKept = kept
	detail := fmt.Sprintf("MCP server %s tested (nothing saved), host %s, auth %s", s.Name, hostOf(s.URL), s.Auth.Kind)
	if kept {
		detail += ", stored secret used"
	}
	if out.Reachable {
		detail += fmt.Sprintf("; %d tools listed", len(out.ServedTools))
	} else {
		detail += "; unreachable"
	}
	admin.SetAuditDetail(w, detail)
	jsonapi.Write(w, http.StatusOK, out)
}

// probe lists s's tools without storing anything.
func (a *API) probe(ctx context.Context, s *gtmgate.MCPServer) TestResult {
	v := viewOf(s, nil)
	out := TestResult{TenantID: s.TenantID, Name: s.Name, URL: s.URL, Auth: v.Auth, Tools: v.Tools, Overrides: v.Overrides,
		ServedTools: []federation.ToolView{}}
	pctx, cancel := context.WithTimeout(ctx, RefreshTimeout)
	defer cancel()
	start := a.opts.Now()
	tools, err := a.opts.Catalog.Probe(pctx, s)
	out.LatencyMS = float64(a.opts.Now().Sub(start).Microseconds()) / 1000
	if err != nil {
		// The upstream client scrubs the secret from its errors; this
		// makes sure of it whatever the error's origin.
		msg := gtmgate.AsError(err).Message
		if s.Auth.Secret != "" {
			msg = strings.ReplaceAll(msg, s.Auth.Secret, "[secret]")
		}
		out.Error = msg
		a.opts.Logger.Info("mcpservers: connection test failed", "tenant", s.TenantID, "server", s.Name,
			"host", hostOf(s.URL), "code", gtmgate.ErrorCode(err))
		return out
	}
	out.Reachable = true
	out.ServedTools = tools
	return out
}
