// Package mcpservers is the admin API of the upstream MCP servers a tenant
// brings (issue #34): gtmgate discovers their tools and serves them to the
// tenant's agents as "server__tool", through the same execution path as the
// built-in tools. A server's credential is sealed by the store and never
// shown, logged or audited.
package mcpservers

import (
	"context"
	"log/slog"
	"net/netip"
	"net/url"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/federation"
	"github.com/gtmgate/gtmgate/jsonapi"
	"github.com/gtmgate/gtmgate/registry"
)

// MaxServers is how many upstream servers one tenant may register.
const MaxServers = 64

// RefreshTimeout bounds the tool listing a PUT or a refresh waits for.
const RefreshTimeout = 15 * time.Second

// Store is what the routes need of gtmgate.Store.
type Store interface {
	gtmgate.MCPServerStore
	GetTenant(ctx context.Context, id string) (*gtmgate.Tenant, error)
}

// Catalog is what the routes need of a *federation.Catalog.
type Catalog interface {
	Servers(ctx context.Context, tenantID string) ([]federation.ServerView, error)
	Server(ctx context.Context, tenantID, name string) (federation.ServerView, error)
	Refresh(ctx context.Context, tenantID, name string) (federation.ServerView, error)
	Changed(tenantID, name string)
	// Probe lists an unsaved configuration's tools, storing nothing.
	Probe(ctx context.Context, s *gtmgate.MCPServer) ([]federation.ToolView, error)
	// Tools is the tenant's served tools as the calls find them (cached).
	Tools(ctx context.Context, tenantID string) ([]*registry.Entry, string, error)
	// Accept accepts pending tool definitions as by.
	Accept(ctx context.Context, tenantID, name string, req federation.AcceptRequest, by string) ([]federation.Accepted, error)
}

// Options configures the routes. Store and Catalog are required.
type Options struct {
	Store   Store
	Catalog Catalog
	// AllowedRanges are the private address ranges the operator lets
	// upstream servers be in; a server whose host is an IP literal in one
	// of them may use plain http, as a loopback host may.
	AllowedRanges []netip.Prefix
	MaxBodyBytes  int64
	Now           func() time.Time
	Logger        *slog.Logger
	// LapseGrants, when set, is called when an oauth server's grants must
	// no longer be sent: it moved to another origin, changed auth kind, or
	// was deleted (a server added later under its name is another one).
	LapseGrants func(ctx context.Context, tenantID, server, why string)
}

// API serves the MCP-server admin routes.
type API struct {
	opts Options
}

// New returns the routes; mount them on the admin API with Mount.
func New(opts Options) *API {
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = jsonapi.DefaultMaxBody
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &API{opts: opts}
}

// Mount adds the routes to the admin mux (pass it in admin.Options.Extra,
// which authenticates and audits them):
//
//	GET    /admin/tenants/{tenant_id}/mcp-servers                 the tenant's servers with their tools
//	GET    /admin/tenants/{tenant_id}/mcp-servers/{name}
//	PUT    /admin/tenants/{tenant_id}/mcp-servers/{name}          create (201) or replace (200), then list its tools
//	DELETE /admin/tenants/{tenant_id}/mcp-servers/{name}          204
//	POST   /admin/tenants/{tenant_id}/mcp-servers/{name}/refresh  list its tools now
//	POST   /admin/tenants/{tenant_id}/mcp-servers/{name}/test     list the tools of a PUT body, saving nothing
//	GET    /admin/tenants/{tenant_id}/mcp-servers/{name}/changes  tool definitions waiting for acceptance
//	POST   /admin/tenants/{tenant_id}/mcp-servers/{name}/changes/accept
func (a *API) Mount(mux gtmgate.Router) {
	mux.HandleFunc("GET /admin/tenants/{tenant_id}/mcp-servers", a.list)
	mux.HandleFunc("GET /admin/tenants/{tenant_id}/mcp-servers/{name}", a.get)
	mux.HandleFunc("PUT /admin/tenants/{tenant_id}/mcp-servers/{name}", a.put)
	mux.HandleFunc("DELETE /admin/tenants/{tenant_id}/mcp-servers/{name}", a.delete)
	mux.HandleFunc("POST /admin/tenants/{tenant_id}/mcp-servers/{name}/refresh", a.refresh)
	mux.HandleFunc("POST /admin/tenants/{tenant_id}/mcp-servers/{name}/test", a.test)
	mux.HandleFunc("GET /admin/tenants/{tenant_id}/mcp-servers/{name}/changes", a.changes)
	mux.HandleFunc("POST /admin/tenants/{tenant_id}/mcp-servers/{name}/changes/accept", a.acceptChanges)
}

// Body is the body of PUT …/mcp-servers/{name}.
type Body struct {
	// URL is the server's streamable-HTTP endpoint: https, or http for a
	// loopback host or an IP in the operator's allowed ranges.
	URL  string   `json:"url"`
	Auth AuthBody `json:"auth"`
	// Tools, when not empty, is the allow-list of upstream tool names
	// served; empty serves every tool.
	Tools []string `json:"tools,omitempty"`
	// Overrides change, per upstream tool name, what its annotations say.
	Overrides map[string]gtmgate.MCPToolOverride `json:"overrides,omitempty"`
	// AutoAcceptChanges accepts changed tool definitions at listing time
	// (as "auto", gates kept), for trusted in-house servers.
	AutoAcceptChanges bool `json:"auto_accept_changes,omitempty"`
}

// AuthBody is how gtmgate authenticates to the server. Each kind takes its
// own members; the secret one (token, value, client_secret) is sealed and
// never shown. A replace that leaves the secret out keeps the stored one
// when the kind is unchanged and the secret still goes to the same origin.
type AuthBody struct {
	// Kind is none (the default), bearer, header or client_credentials.
	Kind string `json:"kind,omitempty"`
	// Token is bearer's token, sent as "Authorization: Bearer".
	Token string `json:"token,omitempty"`
	// Header and Value are header's header name and value.
	Header string `json:"header,omitempty"`
	Value  string `json:"value,omitempty"`
	// TokenURL, ClientID, ClientSecret and Scopes configure
	// client_credentials: an OAuth 2.0 client-credentials grant.
	TokenURL     string   `json:"token_url,omitempty"`
	ClientID     string   `json:"client_id,omitempty"`
	ClientSecret string   `json:"client_secret,omitempty"`
	Scopes       []string `json:"scopes,omitempty"`
	// Grant says whose grant oauth's calls use: "tenant" (the default) or
	// "person", each caller's person's own.
	Grant string `json:"grant,omitempty"`
	// ClientRegistration says how oauth gets a client without client_id:
	// "auto" (the default), "metadata_document" or "dynamic".
	ClientRegistration string `json:"client_registration,omitempty"`
}

// View is a server as the admin API shows it: never its secret, nor the
// raw tool list the upstream gave (served_tools is what became of it).
type View struct {
	TenantID string   `json:"tenant_id"`
	Name     string   `json:"name"`
	URL      string   `json:"url"`
	Auth     AuthView `json:"auth"`
	// Tools is the allow-list; empty serves every tool.
	Tools     []string                           `json:"tools"`
	Overrides map[string]gtmgate.MCPToolOverride `json:"overrides"`
	// AutoAcceptChanges says changed tool definitions are accepted at
	// listing time; ChangesWaiting counts the changes waiting otherwise.
	AutoAcceptChanges bool      `json:"auto_accept_changes"`
	ChangesWaiting    int       `json:"changes_waiting"`
	CreatedAt         time.Time `json:"created_at"`
	UpdatedAt         time.Time `json:"updated_at"`
	State             StateView `json:"state"`
	// ServedTools is every tool the upstream last listed: what agents call
	// it, what gtmgate takes it to do, and whether it is served (refused
	// says why not when its schema cannot be; neither means the allow-list
	// leaves it out).
	ServedTools []federation.ToolView `json:"served_tools"`
}

// AuthView is a server's authentication without its secret.
type AuthView struct {
	Kind     string   `json:"kind"`
	Header   string   `json:"header,omitempty"`
	TokenURL string   `json:"token_url,omitempty"`
	ClientID string   `json:"client_id,omitempty"`
	Scopes   []string `json:"scopes,omitempty"`
	// Grant is oauth's "tenant" or "person".
	Grant string `json:"grant,omitempty"`
	// ClientRegistration is oauth's "auto", "metadata_document" or "dynamic".
	ClientRegistration string `json:"client_registration,omitempty"`
	// SecretSet says a token, header value or client secret is stored.
	SecretSet bool `json:"secret_set"`
}

// StateView is what discovery last found at the server.
type StateView struct {
	// ToolsRefreshedAt is when the tools were last listed successfully.
	ToolsRefreshedAt *time.Time `json:"tools_refreshed_at,omitempty"`
	// CheckedAt is the last attempt; Reachable, LatencyMS and Error its
	// outcome (Error never holds a secret).
	CheckedAt *time.Time `json:"checked_at,omitempty"`
	Reachable bool       `json:"reachable"`
	LatencyMS float64    `json:"latency_ms"`
	Error     string     `json:"error,omitempty"`
}

// List is the answer to GET …/mcp-servers.
type List struct {
	Servers []View `json:"servers"`
}

// Found is the answer to GET …/mcp-servers/{name}.
type Found struct {
	Server View `json:"server"`
}

// viewOf shows a server and its tools.
func viewOf(s *gtmgate.MCPServer, tools []federation.ToolView) View {
	v := View{TenantID: s.TenantID, Name: s.Name, URL: s.URL, Tools: s.Tools, Overrides: s.Overrides, AutoAcceptChanges: s.AutoAcceptChanges,
		CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt, ServedTools: tools,
		Auth: AuthView{Kind: s.Auth.Kind, Header: s.Auth.Header, TokenURL: s.Auth.TokenURL, ClientID: s.Auth.ClientID,
			Scopes: s.Auth.Scopes, Grant: s.Auth.Grant, ClientRegistration: s.Auth.ClientRegistration, SecretSet: s.Auth.Secret != ""},
		State: StateView{ToolsRefreshedAt: s.State.ToolsRefreshedAt, CheckedAt: s.State.CheckedAt,
			Reachable: s.State.Reachable, LatencyMS: s.State.LatencyMS, Error: s.State.Error}}
	if v.Auth.Kind == "" {
		v.Auth.Kind = gtmgate.MCPAuthNone
	}
	if v.Auth.Kind == gtmgate.MCPAuthOAuth && v.Auth.Grant == "" {
		v.Auth.Grant = gtmgate.MCPGrantPerTenant
	}
	if v.Auth.Kind == gtmgate.MCPAuthOAuth && v.Auth.ClientRegistration == "" {
		v.Auth.ClientRegistration = gtmgate.MCPClientRegistrationAuto
	}
	if v.Tools == nil {
		v.Tools = []string{}
	}
	if v.Overrides == nil {
		v.Overrides = map[string]gtmgate.MCPToolOverride{}
	}
	if v.ServedTools == nil {
		v.ServedTools = []federation.ToolView{}
	}
	for _, t := range v.ServedTools {
		if t.Pending != "" {
			v.ChangesWaiting++
		}
	}
	return v
}

// hostOf is the host of a server's URL, for logs and audit details: the
// path or query of some servers' URLs holds a key.
func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable)"
	}
	return u.Host
}
