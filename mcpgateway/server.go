// Package mcpgateway is the gateway's MCP endpoint: the tool registry served
// over streamable HTTP (spec 2025-11-25 and 2026-07-28, stateless so any
// replica answers any request), every tools/call running the same execution
// path as REST.
package mcpgateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
	"github.com/gtmgate/gtmgate/mcpcapability"
	"github.com/gtmgate/gtmgate/registry"
	"github.com/gtmgate/gtmgate/telemetry"
	"github.com/gtmgate/gtmgate/toolrun"
	"github.com/gtmgate/gtmgate/toolset"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/trace"
)

// Options configures the MCP endpoint. Runner and Authenticate are required.
type Options struct {
	Runner *toolrun.Runner
	// Require authenticates a request (writing the 401 itself) and puts the
	// principal in the context.
	Require func(http.Handler) http.Handler
	// DenyScope writes the 403 insufficient_scope challenge asking an OAuth
	// client to step up to a scope a tools/call needs. Without it such calls
	// get a FORBIDDEN tool result.
	DenyScope func(http.ResponseWriter, *http.Request)
	// AllowedOrigins are the browser origins allowed to call /mcp.
	AllowedOrigins []string
	// LoopbackOrigins also allows an Origin naming a loopback host, for a
	// gateway bound to loopback only (local MCP clients in a browser).
	LoopbackOrigins bool
	Version         string
	MaxBodyBytes    int64
	// Held, when set, answers calls held for approval inside the protocol
	// to clients that can take it (MCP 2026-07-28); see held.go.
	Held *HeldOptions
	// Recorder, when set, audits initialize and tools/list.
	Recorder gtmgate.Recorder
	Logger   *slog.Logger
}

type extraKey string

const (
	principalExtra extraKey = "principal"
	requestIDExtra extraKey = "request_id"
	stepUpExtra    extraKey = "step_up"
	traceExtra     extraKey = "trace"
	// requestExtra is the HTTP request's context: a stateless server's
	// handler context outlives it, so a client that hangs up (the only
	// cancellation a stateless server can see) cancels the call through it.
	requestExtra extraKey = "request"

	// correlationExtra is the client's X-Request-Id, when it sent one.
	correlationExtra extraKey = "correlation_id"
)

type stepUpKey struct{}

// New returns the /mcp handler.
func New(opts Options) http.Handler {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	servers := &tenantServers{opts: opts, base: newServer(opts, opts.Runner.Registry().Tools()), byTenant: map[string]tenantServer{}}
	newHandler := func(json bool) http.Handler {
		return mcp.NewStreamableHTTPHandler(servers.get, &mcp.StreamableHTTPOptions{
			Stateless:           true,
			JSONResponse:        json,
			MaxRequestBodyBytes: opts.MaxBodyBytes,
			Logger:              sdkLogger(opts.Logger),
		})
	}
	streamable, streaming := newHandler(true), newHandler(false)
	// The SDK hands tool handlers the bearer token's TokenInfo; carry the
	// principal (already authenticated by Require), request id and
	// correlation id in it.
	withInfo := auth.RequireBearerToken(func(ctx context.Context, _ string, r *http.Request) (*auth.TokenInfo, error) {
		p := gtmgate.PrincipalFromContext(r.Context())
		if p == nil {
			return nil, auth.ErrInvalidToken
		}
		extra := map[string]any{string(principalExtra): p, string(requestIDExtra): gtmgate.RequestIDFromContext(r.Context()),
			string(requestExtra): r.Context()}
		if cid := gtmgate.CorrelationIDFromContext(r.Context()); cid != "" {
			extra[string(correlationExtra)] = cid
		}
		if sc := trace.SpanContextFromContext(r.Context()); sc.IsValid() {
			extra[string(traceExtra)] = sc
		}
		if su, ok := r.Context().Value(stepUpKey{}).(*stepUp); ok {
			extra[string(stepUpExtra)] = su
		}
		return &auth.TokenInfo{UserID: p.TenantID, Scopes: p.Scopes, Extra: extra}, nil
	}, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})
	return checkOrigin(opts.AllowedOrigins, opts.LoopbackOrigins, opts.Require(withStepUp(opts.DenyScope, withInfo(protocolErrors(opts.MaxBodyBytes, streamable, streaming)))))
}

// newServer returns an MCP server offering tools.
func newServer(opts Options, tools []*registry.Entry) *mcp.Server {
	// Stateless: no session to send notifications/tools/list_changed on,
	// so none is promised; clients see new tools on their next tools/list.
	// No logging either: the gateway sends no log messages. No prompts,
	// resources or completions: their methods answer -32601.
	caps := &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}}
	server := mcp.NewServer(&mcp.Implementation{Name: "gtmgate", Title: "gtmgate tool gateway", Version: opts.Version}, &mcp.ServerOptions{
		Instructions: "Go-to-market tools acting for the tenant of your credential. Every call needs a rationale. " +
			"Calls held for approval return APPROVAL_REQUIRED with an approval_id: check it with approval_status. " +
			"Report blockers with submit_feedback.",
		Logger:       sdkLogger(opts.Logger),
		Capabilities: caps,
		SetCacheable: listCaching,
	})
	server.AddReceivingMiddleware(auditSessions(opts.Recorder))
	// Added last, so outermost: the _meta trace reaches the audit too.
	server.AddReceivingMiddleware(traceFromMeta, mcpcapability.DeclaredOnly(caps))
	held := newHeldCalls(opts)
	for _, e := range tools {
		server.AddTool(toolOf(e), handler(opts.Runner, held, e.Name))
	}
	return server
}

// ListTTL is how long a client may keep a tools/list answer (MCP
// 2026-07-28's ttlMs; the go-sdk client honours it): a tenant's tools
// change when an operator changes its upstream servers or an agent's
// toolset, or when an upstream announces list_changed, and the stateless
// endpoint cannot notify clients, so a client that honours the hint sees
// the change within this time. Short, because a new upstream tool should
// reach agents in seconds; long enough to spare a busy agent a list per call.
const ListTTL = 10 * time.Second

// listCaching marks every list answer private (it is the tenant's and the
// agent's own) and fresh for ListTTL.
func listCaching(_ context.Context, _ mcp.Request, c *mcp.Cacheable) {
	c.CacheScope, c.TTLMs = "private", int(ListTTL/time.Millisecond)
}

// tenantServers gives each request the server of its tenant's tools: the
// built-in ones, and those of the upstream MCP servers the tenant brought,
// cut to its agent's toolset when it has one.
type tenantServers struct {
	opts Options
	base *mcp.Server

	mu       sync.Mutex
	byTenant map[string]tenantServer
}

type tenantServer struct {
	revision string
	server   *mcp.Server
}

func (s *tenantServers) get(r *http.Request) *mcp.Server {
	p := gtmgate.PrincipalFromContext(r.Context())
	if p == nil {
		return s.base
	}
	var tools []*registry.Entry
	var revision string
	if fed := s.opts.Runner.Federated(); fed != nil {
		var err error
		tools, revision, err = fed.Tools(r.Context(), p.TenantID)
		if err != nil {
			s.opts.Logger.Warn("mcp: the tenant's federated tools are unavailable; serving the built-in ones", "tenant", p.TenantID, "err", err)
			tools, revision = nil, ""
		}
	}
	ts, name, tsErr := s.opts.Runner.Toolset(r.Context(), p)
	if tsErr != nil {
		// Fail closed: an agent whose toolset cannot be read or is gone
		// sees only the gateway's own tools (its calls are refused alike).
		ts = &gtmgate.Toolset{}
	}
	if len(tools) == 0 && name == "" {
		return s.base
	}
	key := p.TenantID
	if name != "" {
		b, _ := json.Marshal(ts)
		key, revision = key+"\x00"+name, revision+"\x00"+string(b)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if cached, ok := s.byTenant[key]; ok && cached.revision == revision {
		return cached.server
	}
	if tsErr != nil {
		s.opts.Logger.Warn("mcp: the agent's toolset cannot be applied; listing the gateway's own tools only", "tenant", p.TenantID, "toolset", name, "err", tsErr)
	}
	server, err := s.build(tools, ts)
	if err != nil {
		s.opts.Logger.Error("mcp: the tenant's federated tools cannot be served; serving the built-in ones", "tenant", p.TenantID, "err", err)
		if server, err = s.build(nil, ts); err != nil {
			server = newServer(s.opts, nil)
		}
	}
	s.byTenant[key] = tenantServer{revision: revision, server: server}
	return server
}

// build returns a server with the built-in tools and tools, each cut to
// what ts allows (a tool with no allowed action is not listed). The SDK
// panics on a tool it cannot serve; one upstream's tool must not take the
// tenant's whole endpoint down with it.
func (s *tenantServers) build(tools []*registry.Entry, ts *gtmgate.Toolset) (server *mcp.Server, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("add tool: %v", v)
		}
	}()
	var listed []*registry.Entry
	for _, e := range append(slices.Clip(s.opts.Runner.Registry().Tools()), tools...) {
		if actions := toolset.Actions(ts, e); len(actions) > 0 {
			listed = append(listed, e.Narrowed(actions))
		}
	}
	if ts != nil && ts.Discovery {
		return discoveryServer(s.opts, listed, ts), nil
	}
	return newServer(s.opts, listed), nil
}

// withStepUp gives each request a step-up flag that its tool handlers can set
// and the response writer honours.
func withStepUp(deny func(http.ResponseWriter, *http.Request), next http.Handler) http.Handler {
	if deny == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		flag := &stepUp{}
		sw := &stepUpWriter{ResponseWriter: w, r: r, flag: flag, deny: deny}
		next.ServeHTTP(sw, r.WithContext(context.WithValue(r.Context(), stepUpKey{}, flag)))
	})
}

// toolOf is e as tools/list shows it. The title is the tool's own, not
// repeated in the annotations: MCP (2025-11-25) shows a tool's title before
// annotations.title, which is for clients of 2025-03-26, before tools had one.
func toolOf(e *registry.Entry) *mcp.Tool {
	h := e.Hints()
	t := &mcp.Tool{
		Name:        e.Name,
		Title:       e.Title,
		Description: e.Description,
		InputSchema: e.Schema,
		Annotations: &mcp.ToolAnnotations{
			ReadOnlyHint: h.ReadOnly, DestructiveHint: &h.Destructive,
			IdempotentHint: h.Idempotent, OpenWorldHint: &h.OpenWorld,
		},
	}
	if e.Output != nil { // a nil *jsonschema.Schema in OutputSchema (an interface) makes AddTool panic
		t.OutputSchema = e.Output
	}
	return t
}

// handler runs one tool through toolrun. Tool failures, input validation
// included, are tool results with isError, never protocol errors.
// held (nil: none) answers calls held for approval, or waiting for an
// account their agent's person can connect, inside the protocol.
func handler(runner *toolrun.Runner, held *heldCalls, name string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var p *gtmgate.Principal
		var rid string
		var su *stepUp
		if req.Extra != nil && req.Extra.TokenInfo != nil {
			p, _ = req.Extra.TokenInfo.Extra[string(principalExtra)].(*gtmgate.Principal)
			rid, _ = req.Extra.TokenInfo.Extra[string(requestIDExtra)].(string)
			su, _ = req.Extra.TokenInfo.Extra[string(stepUpExtra)].(*stepUp)
			if cid, _ := req.Extra.TokenInfo.Extra[string(correlationExtra)].(string); cid != "" {
				ctx = gtmgate.NewContextWithCorrelationID(ctx, cid)
			}
			// Continue the HTTP request's trace whether or not the SDK
			// handed its context down.
			if sc, ok := req.Extra.TokenInfo.Extra[string(traceExtra)].(trace.SpanContext); ok && !trace.SpanContextFromContext(ctx).IsValid() {
				ctx = trace.ContextWithSpanContext(ctx, sc)
			}
			if rctx, ok := req.Extra.TokenInfo.Extra[string(requestExtra)].(context.Context); ok {
				var cancel context.CancelCauseFunc
				ctx, cancel = context.WithCancelCause(ctx)
				defer cancel(nil)
				stop := context.AfterFunc(rctx, func() { cancel(context.Cause(rctx)) })
				defer stop()
			}
		}
		ctx, span := telemetry.Start(ctx, "tools/call", name, telemetry.MCPMethodName.String("tools/call"), telemetry.GenAIToolName.String(name))
		defer span.End()
		if p == nil {
			return errorResult(gtmgate.Errorf(gtmgate.EUnauthorized, "missing credential"), rid), nil
		}
		if tok := req.Params.GetProgressToken(); tok != nil && req.Session != nil {
			session := req.Session
			ctx = gtmgate.NewContextWithProgress(ctx, func(progress, total float64, message string) {
				session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: progress, Total: total, Message: message})
			})
		}
		input := json.RawMessage(req.Params.Arguments)
		if len(input) == 0 || string(input) == "null" {
			input = json.RawMessage(`{}`)
		}
		hc := heldCall{principal: p, tool: name, input: input, requestID: rid}
		if state := req.Params.RequestState; state != "" && held != nil {
			// A retry: a held call's outcome, or (nil) the call again.
			if res := held.resume(ctx, hc, state); res != nil {
				return res, nil
			}
		}
		out, err := runner.Call(ctx, &toolrun.Request{
			Principal: p, TenantID: p.TenantID, Tool: name, Input: input, Source: gtmgate.SourceMCP, RequestID: rid,
		})
		if err != nil {
			if su != nil && errors.Is(err, gtmgate.ErrInsufficientScope) {
				su.needed.Store(true)
			}
			if res := held.ask(req, hc, err); res != nil {
				return res, nil
			}
			return errorResult(err, rid), nil
		}
		if res, ok := out.Result.(*mcp.CallToolResult); ok {
			// An upstream MCP server's tool answers as the upstream did:
			// its content and structuredContent, held to its own
			// outputSchema. The gateway's facts go in _meta.
			meta := mcp.Meta{"gtmgate/request_id": rid, "gtmgate/duration_ms": out.DurationMS}
			if out.QuotaWarning != "" {
				meta["gtmgate/quota_warning"] = out.QuotaWarning
			}
			return &mcp.CallToolResult{Content: res.Content, StructuredContent: res.StructuredContent, Meta: meta}, nil
		}
		body := map[string]any{"ok": true, "tool": out.Tool, "action": out.Action, "result": out.Result, "request_id": rid, "duration_ms": out.DurationMS}
		if out.QuotaWarning != "" {
			body["quota_warning"] = out.QuotaWarning
		}
		text, mErr := json.Marshal(body)
		if mErr != nil {
			return errorResult(mErr, rid), nil
		}
		// structuredContent is the same bytes as the text, handed over as
		// raw JSON: the SDK would otherwise encode the result a second time
		// by reflection.
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}, StructuredContent: json.RawMessage(text)}, nil
	}
}

// errorResult renders err as the gateway's JSON error body inside an isError
// result, as text only: structuredContent is held to the tool's
// outputSchema, which describes success, and clients (the MCP TypeScript SDK
// among them) validate it on error results too.
func errorResult(err error, requestID string) *mcp.CallToolResult {
	body := jsonapi.NewErrorBody(err, requestID)
	text, _ := json.Marshal(body)
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}}
}
