package admin

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
	"github.com/gtmgate/gtmgate/registry"
	"github.com/gtmgate/gtmgate/toolrun"
	"github.com/gtmgate/gtmgate/toolset"
)

// ToolList is the answer of GET /admin/tenants/{tenant_id}/tools: the tools
// a tenant's agents get under a toolset (every tool under none).
type ToolList struct {
	TenantID string `json:"tenant_id"`
	// Toolset is the toolset the list is cut to, "" for none.
	Toolset string `json:"toolset,omitempty"`
	// Token is the tenant token whose toolset was asked for, when one was.
	Token string     `json:"token,omitempty"`
	Tools []ToolView `json:"tools"`
}

// ToolView is one tool as a tenant's agents get it.
type ToolView struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description"`
	Domain      string `json:"domain"`
	// Categories are its actions' categories, in the actions' order.
	Categories []string `json:"categories"`
	Provider   string   `json:"provider,omitempty"`
	// Federated is set on a tool of one of the tenant's upstream MCP servers.
	Federated   bool             `json:"federated,omitempty"`
	InputSchema any              `json:"input_schema"`
	Actions     []ToolActionView `json:"actions"`
}

// ToolActionView is one action of a tool.
type ToolActionView struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Category    string `json:"category"`
	Mutating    bool   `json:"mutating"`
	Destructive bool   `json:"destructive"`
	// Held says the tenant's approval policy, as it stands, holds a call of
	// this action for a human's approval.
	Held bool `json:"held"`
}

// ToolCallBody is the body of POST /admin/tenants/{tenant_id}/tools/{tool}/call.
type ToolCallBody struct {
	Input json.RawMessage `json:"input"`
	// Toolset runs the call as an agent given that toolset would ("" none).
	Toolset string `json:"toolset,omitempty"`
}

// listTools serves GET /admin/tenants/{tenant_id}/tools.
func (h *Handler) listTools(w http.ResponseWriter, r *http.Request) {
	t, err := h.tenant(r, r.PathValue("tenant_id"))
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	out := ToolList{TenantID: t.ID, Tools: []ToolView{}}
	out.Toolset, out.Token, err = h.chosenToolset(r.Context(), t, r.URL.Query().Get("toolset"), r.URL.Query().Get("token"))
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	ts := t.Toolsets[out.Toolset]
	for _, e := range h.opts.Runner.Tools(r.Context(), t.ID) {
		actions := toolset.Actions(ts, e)
		if actions == nil {
			continue
		}
		out.Tools = append(out.Tools, toolView(t, e.Narrowed(actions), actions))
	}
	jsonapi.Write(w, http.StatusOK, out)
}

// chosenToolset is the toolset a list is cut to: the one named, or that of
// the tenant's token named; an unknown one is NOT_FOUND.
func (h *Handler) chosenToolset(ctx context.Context, t *gtmgate.Tenant, name, token string) (string, string, error) {
	if name != "" && token != "" {
		return "", "", gtmgate.Errorf(gtmgate.EValidation, "give toolset or token, not both")
	}
	if token != "" {
		tokens, err := h.opts.Store.ListTenantTokens(ctx, t.ID)
		if err != nil {
			return "", "", err
		}
		i := slices.IndexFunc(tokens, func(tok *gtmgate.TenantToken) bool { return tok.ID == token })
		if i < 0 {
			return "", "", gtmgate.Errorf(gtmgate.ENotFound, "tenant %q has no token %q", t.ID, token).
				WithHint("list the tenant's tokens with GET /admin/auth/" + t.ID)
		}
		name = tokens[i].Toolset
	}
	if name != "" && t.Toolsets[name] == nil {
		return "", "", gtmgate.Errorf(gtmgate.ENotFound, "tenant %q has no toolset %q", t.ID, name).
			WithHint("list the tenant's toolsets with GET /admin/tenants/" + t.ID + "/toolsets")
	}
	return name, token, nil
}

// toolView describes e, already narrowed to actions, for tenant t.
func toolView(t *gtmgate.Tenant, e *registry.Entry, actions []gtmgate.Action) ToolView {
	v := ToolView{Name: e.Name, Title: e.Title, Description: e.Description, Domain: e.Domain, Provider: e.Provider,
		Federated: e.Federated() != nil, InputSchema: e.Schema, Categories: []string{}}
	for _, a := range actions {
		if !slices.Contains(v.Categories, string(a.Category)) {
			v.Categories = append(v.Categories, string(a.Category))
		}
		v.Actions = append(v.Actions, ToolActionView{Name: a.Name, Description: a.Description, Category: string(a.Category),
			Mutating: a.Mutating, Destructive: a.Destructive, Held: toolrun.Held(t, e.Tool, a)})
	}
	return v
}

// callTool serves POST /admin/tenants/{tenant_id}/tools/{tool}/call: the
// call runs through the gateway's one execution path, as the signed-in
// actor acting for the tenant, and is audited as such.
func (h *Handler) callTool(w http.ResponseWriter, r *http.Request) {
	var body ToolCallBody
	if err := jsonapi.Decode(w, r, h.opts.MaxBodyBytes, &body); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	if len(body.Input) == 0 || string(body.Input) == "null" {
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EValidation, "input is required").WithHint(`send {"input": {"rationale": "…", …}}`))
		return
	}
	tenant, tool := r.PathValue("tenant_id"), r.PathValue("tool")
	rid := gtmgate.RequestIDFromContext(r.Context())
	p := playgroundPrincipal(gtmgate.ActorFromContext(r.Context()), tenant, body.Toolset)
	out, err := h.opts.Runner.Call(gtmgate.NewContextWithPrincipal(r.Context(), p), &toolrun.Request{
		Principal: p, TenantID: tenant, Tool: tool, Input: body.Input, Source: sourceOf(r.Context()), RequestID: rid,
	})
	if errors.Is(err, toolset.ErrHidden) {
		// As the list leaves the tool out, an agent given the toolset is
		// never told of it; the runner's own decision says so.
		err = gtmgate.Errorf(gtmgate.EToolNotFound, "toolset %q of tenant %q has no tool %q", body.Toolset, tenant, tool)
	}
	if err != nil {
		var e *gtmgate.Error
		if errors.As(err, &e) && e.Code == gtmgate.EToolNotFound {
			e.Hint = "list the tools the tenant's agents get with GET /admin/tenants/" + tenant + "/tools"
			if body.Toolset != "" {
				e.Hint += "?toolset=" + body.Toolset
			}
		}
		jsonapi.WriteError(w, r, err)
		return
	}
	if out.QuotaWarning != "" {
		w.Header().Set(gtmgate.QuotaWarningHeader, out.QuotaWarning)
	}
	jsonapi.Write(w, http.StatusOK, out.Answer(rid))
}

// playgroundPrincipal is the credential a call from the console or the
// admin API runs under: the actor acting for tenantID, named in the audit
// by its audit key. A person acts as an agent acting for them would: the
// tenant's shared accounts and their own, never another person's. A key
// (the break-glass key, a named admin key) acts for the tenant as a whole,
// as approvals and replays do. toolset, when set, limits the call as it
// limits an agent given it.
func playgroundPrincipal(a *gtmgate.Actor, tenantID, toolsetName string) *gtmgate.Principal {
	cred := &gtmgate.Credential{Kind: gtmgate.CredentialAdmin, Toolset: toolsetName}
	if a.Kind == gtmgate.ActorPerson {
		// No ID: nothing to revoke, the session is what ends it.
		cred.Kind, cred.Person = gtmgate.CredentialToken, a.ID
	}
	return &gtmgate.Principal{TenantID: tenantID, KeyID: a.AuditKey(), Kind: "playground", Toolset: toolsetName,
		Person: cred.Person, OnBehalfOf: cred}
}

type sourceKey struct{}

// withSource records in ctx the surface an admin request came from
// (gtmgate.SourceAdmin, gtmgate.SourceConsole), for the tool calls it makes.
func withSource(ctx context.Context, source string) context.Context {
	return context.WithValue(ctx, sourceKey{}, source)
}

// sourceOf is the surface withSource recorded, the admin API's by default.
func sourceOf(ctx context.Context) string {
	if s, _ := ctx.Value(sourceKey{}).(string); s != "" {
		return s
	}
	return gtmgate.SourceAdmin
}
