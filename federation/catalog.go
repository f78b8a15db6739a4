// Package federation turns the upstream MCP servers a tenant brings into
// tools of that tenant: it keeps each server's last good tool list,
// refreshes it (on the upstream's list_changed, on a schedule, on demand),
// and builds registry entries, namespaced "server__tool", whose Run calls
// the upstream. The entries run through toolrun like built-in tools, so
// federated calls get the same tenancy, approvals, quotas, audit and
// grading.
package federation

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/registry"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Upstream reaches upstream MCP servers (an *mcpupstream.Pool).
type Upstream interface {
	ListTools(ctx context.Context, s *gtmgate.MCPServer) ([]*mcp.Tool, error)
	CallTool(ctx context.Context, s *gtmgate.MCPServer, tool string, args json.RawMessage, readOnly bool, progress func(*mcp.ProgressNotificationParams)) (*mcp.CallToolResult, error)
	Forget(tenantID, name string)
}

// Options configures a Catalog. Store and Upstream are required.
type Options struct {
	Store    gtmgate.MCPServerStore
	Upstream Upstream
	// ListTimeout bounds one refresh of a server's tool list (default 30s).
	ListTimeout time.Duration
	// ListChangedGap is the least time between two refreshes of one server
	// made on its list_changed notifications (default 2s; see ToolsChanged).
	ListChangedGap time.Duration
	// CacheFor is how long a tenant's servers are read from memory before
	// the store is asked again (default 5s): changes made on another
	// replica reach this one within it.
	CacheFor time.Duration
	// LoadTimeout bounds one read of a tenant's servers from the store
	// (default 2s), so a hanging store holds a call that long at most.
	LoadTimeout time.Duration
	// StaleFor is how old the last loaded view of a tenant may be and still
	// be served while the store is unavailable (default 5m, as
	// storecache.StaleFor keeps tokens and tenants: built-in tools ride
	// through an outage that long).
	StaleFor time.Duration
	Now      func() time.Time
	Logger   *slog.Logger
	// Recorder, when set, audits tool definition changes a listing finds.
	Recorder gtmgate.Recorder
	// ToolChanged, when set, is told each change a listing finds, after
	// it is audited (the quality harness grades it). It must not block.
	ToolChanged func(ctx context.Context, tenantID, server string, ch Change)
}

// Catalog is every tenant's federated tools.
type Catalog struct {
	opts Options

	mu      sync.Mutex
	tenants map[string]*tenantView
	// built keeps each server's entries while its configuration and tool
	// list are unchanged, so a reload rebuilds nothing.
	built map[serverKey]*serverView

	refreshing sync.Map // serverKey → *serverRefresh (refresh.go)
}

type serverKey struct{ tenant, name string }

// tenantView is one tenant's federated tools as last loaded.
type tenantView struct {
	loaded  time.Time
	servers []*serverView
	byName  map[string]*registry.Entry
	// Revision changes whenever the tenant's tool set may have.
	revision string
	// changed is set by Changed: the view is reloaded before it is served
	// again, and stands in only while the store is unavailable.
	changed bool
	// downSince is when the store was first found unavailable while this
	// view was the last loaded; retryAt when it is asked again (zero when
	// it answered last).
	downSince, retryAt time.Time
}

// serverView is one server's configuration, state and tools.
type serverView struct {
	server  *gtmgate.MCPServer
	tools   []ToolView
	entries []*registry.Entry
	stamp   string
}

// ToolView is one upstream tool as the operator sees it: what agents call
// it, what gtmgate takes it to do, and why it is not served if it is not.
type ToolView struct {
	// Name is what agents call ("slack__post_message"); Upstream the
	// upstream's own name.
	Name        string           `json:"name"`
	Upstream    string           `json:"upstream"`
	Description string           `json:"description,omitempty"`
	Category    gtmgate.Category `json:"category"`
	Mutating    bool             `json:"mutating"`
	Destructive bool             `json:"destructive"`
	// Served is false when the allow-list leaves the tool out (Refused
	// empty) or its schema cannot be served (Refused says why).
	Served  bool   `json:"served"`
	Refused string `json:"refused,omitempty"`
	// Pending says a listed definition waits for acceptance ("new: waiting
	// for acceptance", "changed: …", "removed: …"); a changed tool is
	// served as last accepted meanwhile.
	Pending string `json:"pending,omitempty"`
	// Hash is the served (else the listed) definition's hash.
	Hash string `json:"hash,omitempty"`
}

// ServerView is a server's configuration (no secret), what discovery last
// found, and its tools.
type ServerView struct {
	*gtmgate.MCPServer
	Tools []ToolView `json:"tools"`
}

// New returns a Catalog.
func New(opts Options) *Catalog {
	if opts.ListTimeout <= 0 {
		opts.ListTimeout = 30 * time.Second
	}
	if opts.CacheFor <= 0 {
		opts.CacheFor = 5 * time.Second
	}
	if opts.LoadTimeout <= 0 {
		opts.LoadTimeout = 2 * time.Second
	}
	if opts.StaleFor <= 0 {
		opts.StaleFor = 5 * time.Minute
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Catalog{opts: opts, tenants: map[string]*tenantView{}, built: map[serverKey]*serverView{}}
}

// Tool returns the tenant's federated tool called name; ErrNotFound when
// the tenant has none by that name (or it is not served).
func (c *Catalog) Tool(ctx context.Context, tenantID, name string) (*registry.Entry, error) {
	v, err := c.view(ctx, tenantID)
	if err != nil {
		return nil, err
	}
	if e, ok := v.byName[name]; ok {
		return e, nil
	}
	return nil, gtmgate.ErrNotFound
}

// Tools returns the tenant's served federated tools, by server then name,
// and a revision that changes whenever they may have.
func (c *Catalog) Tools(ctx context.Context, tenantID string) ([]*registry.Entry, string, error) {
	v, err := c.view(ctx, tenantID)
	if err != nil {
		return nil, "", err
	}
	var out []*registry.Entry
	for _, s := range v.servers {
		out = append(out, s.entries...)
	}
	return out, v.revision, nil
}

// Servers returns the tenant's servers with their tools, fresh from the
// store: UNAVAILABLE while the store is, never the last loaded view as if
// it were current.
func (c *Catalog) Servers(ctx context.Context, tenantID string) ([]ServerView, error) {
	c.Changed(tenantID, "")
	v, err := c.load(ctx, tenantID)
	if err != nil {
		return nil, err
	}
	out := make([]ServerView, len(v.servers))
	for i, s := range v.servers {
		out[i] = ServerView{MCPServer: s.server, Tools: s.tools}
	}
	return out, nil
}

// Server returns one of the tenant's servers with its tools.
func (c *Catalog) Server(ctx context.Context, tenantID, name string) (ServerView, error) {
	all, err := c.Servers(ctx, tenantID)
	if err != nil {
		return ServerView{}, err
	}
	for _, s := range all {
		if s.Name == name {
			return s, nil
		}
	}
	return ServerView{}, gtmgate.ErrNotFound
}

// Changed forgets what is cached of the tenant's servers (of one server
// when name is set, its upstream session included): call it after a
// server's configuration changed or it was removed.
func (c *Catalog) Changed(tenantID, name string) {
	c.mu.Lock()
	if v, ok := c.tenants[tenantID]; ok {
		// Kept to stand in while the store is unavailable (see view), but
		// reloaded before it is served otherwise.
		v.changed, v.retryAt = true, time.Time{}
	}
	if name != "" {
		delete(c.built, serverKey{tenantID, name})
	}
	c.mu.Unlock()
	if name != "" {
		c.opts.Upstream.Forget(tenantID, name)
	}
}

// load reads the tenant's servers from the store, within LoadTimeout, and
// makes them the tenant's view. Every tenant-facing method comes through it
// (through view, for the ones a call needs). The store reads tenant "" as
// every tenant, so "" is refused here (VALIDATION_ERROR), before the store
// is asked.
func (c *Catalog) load(ctx context.Context, tenantID string) (*tenantView, error) {
	if tenantID == "" {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "a tenant is required to read its MCP servers")
	}
	now := c.opts.Now()
	lctx, cancel := context.WithTimeout(ctx, c.opts.LoadTimeout)
	servers, err := c.opts.Store.ListMCPServers(lctx, tenantID)
	cancel()
	if err != nil {
		return nil, loadError(ctx, tenantID, err)
	}
	v := &tenantView{loaded: now, byName: map[string]*registry.Entry{}}
	var stamps []string
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range servers {
		if s.TenantID != tenantID {
			continue // never another tenant's, whatever the store answers
		}
		key := serverKey{tenantID, s.Name}
		stamp := stampOf(s)
		sv, ok := c.built[key]
		if !ok || sv.stamp != stamp {
			sv = c.build(s)
			sv.stamp = stamp
			c.built[key] = sv
		} else {
			// Same configuration and tool list: the entries stand; the
			// state (reachability, last check) is the one just read.
			sv = &serverView{server: s, tools: sv.tools, entries: sv.entries, stamp: stamp}
		}
		v.servers = append(v.servers, sv)
		for _, e := range sv.entries {
			v.byName[e.Name] = e
		}
		stamps = append(stamps, s.Name+"@"+stamp)
	}
	v.revision = strings.Join(stamps, ";")
	c.tenants[tenantID] = v
	return v, nil
}

// stampOf identifies a server's configuration and tool list: a refresh
// that finds the same tools changes nothing, so nothing is rebuilt.
func stampOf(s *gtmgate.MCPServer) string {
	h := sha256.New()
	h.Write(s.State.Tools)
	accepted, _ := json.Marshal(s.Accepted)
	h.Write(accepted)
	sum := h.Sum(nil)
	return s.UpdatedAt.UTC().Format(time.RFC3339Nano) + "/" + hex.EncodeToString(sum[:8])
}

// build makes a server's entries from its pinned tools (pin.go): each
// tool's accepted definition, never one waiting for acceptance.
func (c *Catalog) build(s *gtmgate.MCPServer) *serverView {
	sv := &serverView{server: s}
	tools, err := pinnedTools(s)
	if err != nil {
		c.opts.Logger.Error("federation: stored tool list unreadable", "tenant", s.TenantID, "server", s.Name, "err", err)
	}
	for _, p := range tools {
		t := p.tool
		f, err := describe(s, t, p.floor)
		view := ToolView{Name: registry.FederatedName(s.Name, t.Name), Upstream: t.Name, Description: t.Description,
			Category: f.Category, Mutating: f.Mutating, Destructive: f.Destructive && f.Mutating, Pending: p.pending, Hash: p.hash}
		switch {
		case !p.servable:
		case len(s.Tools) > 0 && !slices.Contains(s.Tools, t.Name):
		case err != nil:
			view.Refused = err.Error()
		default:
			f.Run = c.run(s, t.Name)
			e, err := registry.NewFederated(f)
			if err != nil {
				view.Refused = err.Error()
				break
			}
			view.Served = true
			sv.entries = append(sv.entries, e)
		}
		sv.tools = append(sv.tools, view)
	}
	return sv
}

// describe reads an upstream tool: its schemas, and what it does from its
// annotations with the server's overrides on top. Missing annotations take
// the MCP specification's defaults: not read-only, so mutating, and then
// destructive. Contradictory annotations (readOnlyHint with destructiveHint)
// count as destructive, and floor, the gate of the accepted definition,
// keeps a tool at least as mutating and destructive as accepted.
func describe(s *gtmgate.MCPServer, t *mcp.Tool, floor *gtmgate.MCPAcceptedTool) (registry.Federated, error) {
	f := registry.Federated{Server: s.Name, Upstream: t.Name, Title: t.Title, Description: t.Description,
		Mutating: true, Destructive: true, OpenWorld: true, Category: gtmgate.CategoryDataQuery}
	if a := t.Annotations; a != nil {
		f.Mutating, f.Destructive = gateOf(a)
		if a.OpenWorldHint != nil {
			f.OpenWorld = *a.OpenWorldHint
		}
		f.Idempotent = a.IdempotentHint
		if f.Title == "" {
			f.Title = a.Title
		}
	}
	if floor != nil {
		f.Mutating = f.Mutating || floor.Mutating
		f.Destructive = f.Destructive || floor.Destructive
	}
	if o, ok := s.Overrides[t.Name]; ok {
		if o.Mutating != nil {
			f.Mutating = *o.Mutating
		}
		if o.Destructive != nil {
			f.Destructive = *o.Destructive
		}
		if o.Category != "" {
			f.Category = o.Category
		}
	}
	if !f.Mutating {
		f.Destructive = false
	}
	var err error
	if f.Input, err = schemaOf(t.InputSchema); err != nil {
		return f, fmt.Errorf("its input schema cannot be served: %w", err)
	}
	if f.Output, err = outputSchemaOf(t.OutputSchema); err != nil {
		return f, fmt.Errorf("its output schema is unreadable: %w", err)
	}
	return f, nil
}
