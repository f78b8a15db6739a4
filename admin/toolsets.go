package admin

import (
	"net/http"
	"slices"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
	"github.com/gtmgate/gtmgate/registry"
	"github.com/gtmgate/gtmgate/toolset"
)

// A toolset lives in its tenant's configuration (Tenant.Toolsets); these
// routes change one without resending the rest. Each change is validated
// as PUT /admin/tenants/{id} validates it, and audited like every admin call.

// ToolsetList is GET /admin/tenants/{tenant_id}/toolsets's answer.
type ToolsetList struct {
	Toolsets map[string]*gtmgate.Toolset `json:"toolsets"`
}

// ToolsetView is one toolset by name; Created is set by a PUT.
type ToolsetView struct {
	Name    string           `json:"name"`
	Toolset *gtmgate.Toolset `json:"toolset"`
	Created *bool            `json:"created,omitempty"`
}

func (h *Handler) listToolsets(w http.ResponseWriter, r *http.Request) {
	t, err := h.tenant(r, r.PathValue("tenant_id"))
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	sets := t.Toolsets
	if sets == nil {
		sets = map[string]*gtmgate.Toolset{}
	}
	jsonapi.Write(w, http.StatusOK, ToolsetList{Toolsets: sets})
}

func (h *Handler) getToolset(w http.ResponseWriter, r *http.Request) {
	t, err := h.tenant(r, r.PathValue("tenant_id"))
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	name := r.PathValue("name")
	ts, ok := t.Toolsets[name]
	if !ok {
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.ENotFound, "tenant %q has no toolset %q", t.ID, name))
		return
	}
	jsonapi.Write(w, http.StatusOK, ToolsetView{Name: name, Toolset: ts})
}

// putToolset serves PUT /admin/tenants/{tenant_id}/toolsets/{name}: 201
// when it creates the toolset, 200 when it replaces it.
func (h *Handler) putToolset(w http.ResponseWriter, r *http.Request) {
	var ts gtmgate.Toolset
	if err := jsonapi.Decode(w, r, h.opts.MaxBodyBytes, &ts); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	t, err := h.tenant(r, r.PathValue("tenant_id"))
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	name := r.PathValue("name")
	if err := toolset.Validate(name, &ts, h.builtinTools(), t); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	_, existed := t.Toolsets[name]
	if t.Toolsets == nil {
		t.Toolsets = map[string]*gtmgate.Toolset{}
	}
	t.Toolsets[name] = &ts
	if _, err := h.opts.Store.PutTenant(r.Context(), t); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	setAuditDetail(w, "toolset "+name)
	status := http.StatusOK
	if !existed {
		status = http.StatusCreated
	}
	created := !existed
	jsonapi.Write(w, status, ToolsetView{Name: name, Toolset: &ts, Created: &created})
}

// deleteToolset serves DELETE /admin/tenants/{tenant_id}/toolsets/{name}.
// A toolset an unrevoked token still uses is kept (409): its agent would
// otherwise be refused everything without anyone having decided so.
func (h *Handler) deleteToolset(w http.ResponseWriter, r *http.Request) {
	t, err := h.tenant(r, r.PathValue("tenant_id"))
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	name := r.PathValue("name")
	if _, ok := t.Toolsets[name]; !ok {
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.ENotFound, "tenant %q has no toolset %q", t.ID, name))
		return
	}
	if err := h.toolsetsInUse(r, t.ID, func(n string) bool { return n == name }); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	delete(t.Toolsets, name)
	if _, err := h.opts.Store.PutTenant(r.Context(), t); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	setAuditDetail(w, "toolset "+name)
	w.WriteHeader(http.StatusNoContent)
}

// toolsetsInUse is a CONFLICT naming the unrevoked tokens of tenantID whose
// toolset gone says is going away.
func (h *Handler) toolsetsInUse(r *http.Request, tenantID string, gone func(name string) bool) error {
	tokens, err := h.opts.Store.ListTenantTokens(r.Context(), tenantID)
	if err != nil {
		return err
	}
	var users, names []string
	for _, tok := range tokens {
		if tok.RevokedAt == nil && tok.Toolset != "" && gone(tok.Toolset) {
			users = append(users, tok.ID)
			if !slices.Contains(names, tok.Toolset) {
				names = append(names, tok.Toolset)
			}
		}
	}
	if len(users) == 0 {
		return nil
	}
	return gtmgate.Errorf(gtmgate.EConflict, "toolset %s is used by tokens %s", strings.Join(names, ", "), strings.Join(users, ", ")).
		WithHint("revoke those tokens (DELETE /admin/auth/" + tenantID + "/{token_id}) or keep the toolset")
}

// builtinTools are the tools toolset rules are checked against.
func (h *Handler) builtinTools() *registry.Registry {
	if h.opts.Runner == nil {
		return registry.MustNew()
	}
	return h.opts.Runner.Registry()
}
