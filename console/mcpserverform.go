package console

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/gtmgate/gtmgate"
)

// mcpForm is the add or edit form of an upstream MCP server as the person
// typed it. It never holds a secret: a typed secret goes to the admin API
// and is never written back into a page (SecretTyped asks for it again).
type mcpForm struct {
	CSRF, Tenant string
	// Name is the server's; Editing says it exists, so the name is fixed
	// and a left-out secret keeps the stored one.
	Name    string
	Editing bool
	URL     string
	Kind    string
	Header  string
	// TokenURL, ClientID and Scopes (space-separated) are
	// client_credentials'.
	TokenURL, ClientID, Scopes string
	// Grant is oauth's grant: "tenant" or "person" (each caller's own).
	Grant string
	// ClientRegistration is how oauth gets a client without ClientID:
	// "auto", "metadata_document" or "dynamic".
	ClientRegistration string
	// Person says the signed-in actor is a person, who can connect their
	// own grant (edit page).
	Person bool
	// SecretSet says a secret is stored; SecretTyped that one was typed
	// before the page was re-rendered, so saving needs it typed again.
	SecretSet, SecretTyped bool
	// Tested says Rows come from a connection test just made, whose
	// outcome Reachable, LatencyMS and TestError say.
	Tested    bool
	Reachable bool
	LatencyMS float64
	TestError string
	// Rows are the upstream's tools with the person's choices.
	Rows []mcpToolRow
	// Problem is the admin API's refusal, shown beside the form.
	Problem string
	// AutoAccept is auto_accept_changes: changed tool definitions are
	// accepted at listing time (trusted in-house servers).
	AutoAccept bool
	// Grants are an oauth server's grants (edit page): the tenant's and
	// people's, with when each expires and whether it lapsed.
	Grants      []mcpGrant
	GrantsError string
	// Changes are the tool definitions waiting for acceptance (edit page).
	Changes      []mcpChange
	ChangesError string
}

// mcpToolRow is one upstream tool in the form: whether it is served and
// what the person overrides (""= the upstream's word), and, when it comes
// from a listing, what gtmgate takes it to do with those overrides.
type mcpToolRow struct {
	Name, Description, Refused string
	Serve                      bool
	Category                   string
	Mutating, Destructive      string // "", "yes" or "no"
	// Does and Effective are the listing's view: "read-only", "mutating"
	// or "destructive", and the category; empty when not listed.
	Does, Effective string
}

// Kinds are the auth kinds the form offers, in order.
func (f *mcpForm) Kinds() []string {
	return []string{gtmgate.MCPAuthNone, gtmgate.MCPAuthBearer, gtmgate.MCPAuthHeader, gtmgate.MCPAuthClientCredentials, gtmgate.MCPAuthOAuth}
}

// Categories are the categories a tool may be given.
func (f *mcpForm) Categories() []gtmgate.Category { return gtmgate.Categories }

// AllServed says every listed tool is checked: the allow-list is left
// empty, so tools the upstream adds later are served too.
func (f *mcpForm) AllServed() bool {
	for _, r := range f.Rows {
		if !r.Serve {
			return false
		}
	}
	return true
}

// Action is where the form saves.
func (f *mcpForm) Action() string { return "/console/tenants/" + esc(f.Tenant) + "/mcp-servers" }

// mcpFormOf reads the posted form. secret is what was typed in the secret
// field ("" when left empty); it is never kept in the form.
func mcpFormOf(r *http.Request) (f *mcpForm, secret string) {
	p := r.PostForm
	f = &mcpForm{CSRF: sessionOf(r).csrf, Tenant: r.PathValue("id"), Name: strings.TrimSpace(p.Get("name")),
		Editing: p.Get("editing") != "", URL: strings.TrimSpace(p.Get("url")), Kind: p.Get("kind"),
		Header: strings.TrimSpace(p.Get("header")), TokenURL: strings.TrimSpace(p.Get("token_url")),
		ClientID: strings.TrimSpace(p.Get("client_id")), Scopes: strings.Join(strings.Fields(p.Get("scopes")), " "),
		Grant: p.Get("grant"), ClientRegistration: p.Get("client_registration"),
		SecretSet: p.Get("secret_set") != "", SecretTyped: p.Get("secret_typed") != "", AutoAccept: p.Get("auto_accept_changes") != ""}
	if !slices.Contains(f.Kinds(), f.Kind) {
		f.Kind = gtmgate.MCPAuthNone
	}
	serve := p["serve"]
	for _, name := range p["tool"] {
		f.Rows = append(f.Rows, mcpToolRow{Name: name, Serve: slices.Contains(serve, name),
			Category: p.Get("category." + name), Mutating: p.Get("mutating." + name), Destructive: p.Get("destructive." + name),
			// The upstream's words, carried so a refusal shows them again.
			Description: p.Get("desc." + name), Refused: p.Get("refused." + name)})
	}
	return f, p.Get("secret")
}

// body is the admin API's body of PUT (and …/test) for the form, with the
// secret when one was typed. Only the chosen kind's members are sent, so
// what the other kinds' fields hold (the page shows them all without
// JavaScript) is ignored.
func (f *mcpForm) body(secret string) (obj, error) {
	auth := obj{"kind": f.Kind}
	switch f.Kind {
	case gtmgate.MCPAuthBearer:
		auth["token"] = secret
	case gtmgate.MCPAuthHeader:
		auth["header"], auth["value"] = f.Header, secret
	case gtmgate.MCPAuthClientCredentials:
		auth["token_url"], auth["client_id"], auth["client_secret"] = f.TokenURL, f.ClientID, secret
		if f.Scopes != "" {
			auth["scopes"] = strings.Fields(f.Scopes)
		}
	case gtmgate.MCPAuthOAuth:
		auth["client_id"], auth["client_secret"], auth["grant"] = f.ClientID, secret, f.Grant
		if f.ClientRegistration != gtmgate.MCPClientRegistrationAuto {
			auth["client_registration"] = f.ClientRegistration // auto is the default, left out
		}
		if f.Scopes != "" {
			auth["scopes"] = strings.Fields(f.Scopes)
		}
	}
	for k, v := range auth {
		if v == "" {
			delete(auth, k)
		}
	}
	b := obj{"url": f.URL, "auth": auth}
	if f.AutoAccept {
		b["auto_accept_changes"] = true
	}
	if len(f.Rows) == 0 {
		return b, nil
	}
	var served []string
	overrides := obj{}
	for _, r := range f.Rows {
		if r.Serve {
			served = append(served, r.Name)
		}
		o := obj{}
		if r.Category != "" {
			o["category"] = r.Category
		}
		for k, v := range map[string]string{"mutating": r.Mutating, "destructive": r.Destructive} {
			if v != "" {
				o[k] = v == "yes"
			}
		}
		if len(o) > 0 {
			overrides[r.Name] = o
		}
	}
	switch {
	case len(served) == 0:
		return nil, fmt.Errorf("no tool is checked to serve: check at least one, or delete the server")
	case len(served) < len(f.Rows):
		b["tools"] = served
	}
	if len(overrides) > 0 {
		b["overrides"] = overrides
	}
	return b, nil
}

// mcpFormOfServer is the edit form of a stored server (the admin API's
// view), its tools as last listed.
func mcpFormOfServer(r *http.Request, tenant string, s obj) *mcpForm {
	auth, _ := s["auth"].(map[string]any)
	str := func(m map[string]any, k string) string { v, _ := m[k].(string); return v }
	f := &mcpForm{CSRF: sessionOf(r).csrf, Tenant: tenant, Name: str(s, "name"), Editing: true, URL: str(s, "url"),
		Kind: str(auth, "kind"), Header: str(auth, "header"), TokenURL: str(auth, "token_url"), ClientID: str(auth, "client_id"),
		Scopes: joinList(auth["scopes"], " "), Grant: str(auth, "grant"), ClientRegistration: str(auth, "client_registration")}
	f.SecretSet, _ = auth["secret_set"].(bool)
	f.AutoAccept, _ = s["auto_accept_changes"].(bool)
	f.Rows = rowsOf(s["served_tools"], strList(s["tools"]), overridesOf(s["overrides"]))
	return f
}

// rowsOf makes the form's rows from a listing (the API's served_tools),
// the allow-list and the overrides it was made with.
func rowsOf(listed any, allow []string, overrides map[string]map[string]any) []mcpToolRow {
	tools, _ := listed.([]any)
	rows := make([]mcpToolRow, 0, len(tools))
	for _, t := range tools {
		m, _ := t.(map[string]any)
		name, _ := m["upstream"].(string)
		row := mcpToolRow{Name: name, Serve: len(allow) == 0 || slices.Contains(allow, name), Does: "read-only"}
		row.Description, _ = m["description"].(string)
		row.Refused, _ = m["refused"].(string)
		row.Effective, _ = m["category"].(string)
		switch {
		case m["destructive"] == true:
			row.Does = "destructive"
		case m["mutating"] == true:
			row.Does = "mutating"
		}
		if o := overrides[name]; o != nil {
			row.Category, _ = o["category"].(string)
			row.Mutating, row.Destructive = yesNo(o["mutating"]), yesNo(o["destructive"])
		}
		rows = append(rows, row)
	}
	return rows
}

func overridesOf(v any) map[string]map[string]any {
	out := map[string]map[string]any{}
	m, _ := v.(map[string]any)
	for k, o := range m {
		if om, ok := o.(map[string]any); ok {
			out[k] = om
		}
	}
	return out
}

func strList(v any) []string {
	l, _ := v.([]any)
	var out []string
	for _, x := range l {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func yesNo(v any) string {
	switch v {
	case true:
		return "yes"
	case false:
		return "no"
	}
	return ""
}

// newMCPForm is the empty "Add an MCP server" form of the tenant page; nil
// when the signed-in person may not change the tenant's MCP servers (the
// admin API's PUT rule), so the page shows no forms.
func newMCPForm(r *http.Request, tenant string) *mcpForm {
	s := sessionOf(r)
	if s == nil || !mayCall(s.actor, "PUT /admin/tenants/{tenant_id}/mcp-servers/{name}", tenant) {
		return nil
	}
	return &mcpForm{CSRF: s.csrf, Tenant: tenant, Kind: gtmgate.MCPAuthNone}
}

// mcpServerPath is the admin API path of one of tenant's servers.
func mcpServerPath(tenant, name string) string {
	return "/admin/tenants/" + esc(tenant) + "/mcp-servers/" + url.PathEscape(name)
}
