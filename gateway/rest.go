package gateway

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/agenttools"
	"github.com/gtmgate/gtmgate/jsonapi"
	"github.com/gtmgate/gtmgate/toolrun"
)

// ToolCallBody is the REST proxy's request body.
type ToolCallBody struct {
	Tool  string          `json:"tool"`
	Input json.RawMessage `json:"input"`
}

// ToolCallResult is the REST proxy's success body.
type ToolCallResult = toolrun.Answer

// handleToolCall serves POST /api/v1/{tenant}/{domain} and, for the tools
// of a tenant's upstream MCP server, POST /api/v1/{tenant}/mcp/{server}.
func (s *Server) handleToolCall(w http.ResponseWriter, r *http.Request) {
	var body ToolCallBody
	if err := jsonapi.Decode(w, r, s.opts.MaxBodyBytes, &body); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	if body.Tool == "" {
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EValidation, "tool is required"))
		return
	}
	if len(body.Input) == 0 || string(body.Input) == "null" {
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EValidation, "input is required").WithHint("add rationale to the tool parameters"))
		return
	}
	rid := gtmgate.RequestIDFromContext(r.Context())
	domain := r.PathValue("domain")
	if server := r.PathValue("server"); server != "" {
		domain = gtmgate.FederatedDomainPrefix + server
	}
	out, err := s.opts.Runner.Call(r.Context(), &toolrun.Request{
		Principal: gtmgate.PrincipalFromContext(r.Context()), TenantID: r.PathValue("tenant"), Domain: domain,
		Tool: body.Tool, Input: body.Input, Source: gtmgate.SourceREST, RequestID: rid,
	})
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	if out.QuotaWarning != "" {
		w.Header().Set(gtmgate.QuotaWarningHeader, out.QuotaWarning)
	}
	jsonapi.Write(w, http.StatusOK, out.Answer(rid))
}

// handleApprovalStatus serves GET /api/v1/{tenant}/approvals/{id}.
func (s *Server) handleApprovalStatus(w http.ResponseWriter, r *http.Request) {
	tenant := r.PathValue("tenant")
	if err := gtmgate.PrincipalFromContext(r.Context()).ActsFor(tenant); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	v, err := agenttools.LookupApproval(r.Context(), s.opts.Store, tenant, r.PathValue("id"), time.Now())
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, v)
}
