package mcpservers

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/admin"
	"github.com/gtmgate/gtmgate/federation"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// Changes is the answer to GET …/mcp-servers/{name}/changes: the tools
// whose listed definition is not the accepted one (new, changed, removed),
// each with both definitions, the hash to accept and its flags.
type Changes struct {
	Server  string              `json:"server"`
	Changes []federation.Change `json:"changes"`
}

// AcceptBody is the body of POST …/changes/accept. Tools is either an
// object of tool name to the hash the person saw (refused with CONFLICT
// when the listing changed since), or an array of names accepted as listed
// now; All accepts every change as listed now. LiftGate names the tools
// whose acceptance may lower their gate (read-only where they were
// mutating, or no longer destructive); without it the gate is kept.
type AcceptBody struct {
	Tools    json.RawMessage `json:"tools,omitempty"`
	All      bool            `json:"all,omitempty"`
	LiftGate []string        `json:"lift_gate,omitempty"`
}

// AcceptAnswer is the answer to POST …/changes/accept.
type AcceptAnswer struct {
	Accepted []federation.Accepted `json:"accepted"`
	Server   View                  `json:"server"`
}

// changes serves GET …/mcp-servers/{name}/changes.
func (a *API) changes(w http.ResponseWriter, r *http.Request) {
	s, err := a.stored(r)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	list, err := federation.Changes(s)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, Changes{Server: s.Name, Changes: list})
}

// acceptChanges serves POST …/mcp-servers/{name}/changes/accept.
func (a *API) acceptChanges(w http.ResponseWriter, r *http.Request) {
	s, err := a.stored(r)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	var body AcceptBody
	if err := jsonapi.Decode(w, r, a.opts.MaxBodyBytes, &body); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	req, err := acceptRequest(body)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	by := gtmgate.ActorKeyFromContext(r.Context())
	done, err := a.opts.Catalog.Accept(r.Context(), s.TenantID, s.Name, req, by)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	notes := make([]string, 0, len(done))
	for _, d := range done {
		notes = append(notes, federation.AcceptedNote(d))
	}
	detail := fmt.Sprintf("MCP server %s: %d tool changes accepted", s.Name, len(done))
	if len(notes) > 0 {
		detail += ": " + strings.Join(notes, "; ")
	}
	admin.SetAuditDetail(w, detail)
	a.opts.Logger.Info("mcpservers: tool changes accepted", "tenant", s.TenantID, "server", s.Name, "by", by, "count", len(done))
	sv, err := a.opts.Catalog.Server(r.Context(), s.TenantID, s.Name)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, AcceptAnswer{Accepted: done, Server: viewOf(sv.MCPServer, sv.Tools)})
}

// acceptRequest reads an accept body: exactly one of tools and all.
func acceptRequest(b AcceptBody) (federation.AcceptRequest, error) {
	req := federation.AcceptRequest{All: b.All, LiftGate: b.LiftGate}
	tools := strings.TrimSpace(string(b.Tools))
	if tools != "" && tools != "null" {
		if b.All {
			return req, bad("send either tools or all, not both").AtField("tools")
		}
		if strings.HasPrefix(tools, "[") {
			if err := json.Unmarshal(b.Tools, &req.Names); err != nil {
				return req, bad("tools must be an array of tool names or an object of tool name to hash").AtField("tools")
			}
		} else if err := json.Unmarshal(b.Tools, &req.Hashes); err != nil {
			return req, bad("tools must be an array of tool names or an object of tool name to hash").AtField("tools")
		}
		if len(req.Names)+len(req.Hashes) == 0 {
			return req, bad("tools names no tool to accept").AtField("tools")
		}
		return req, nil
	}
	if !b.All {
		return req, bad("name the tools to accept (tools) or accept all changes (all: true)").AtField("tools").
			WithHint(`{"tools": {"NAME": "HASH"}} with the hashes GET …/changes shows`)
	}
	return req, nil
}

// acceptListing accepts, as the person who made the PUT, what it listed;
// it returns how many definitions were accepted.
func (a *API) acceptListing(ctx context.Context, s *gtmgate.MCPServer) (int, error) {
	done, err := a.opts.Catalog.Accept(ctx, s.TenantID, s.Name, federation.AcceptRequest{All: true},
		gtmgate.ActorKeyFromContext(ctx))
	return len(done), err
}
