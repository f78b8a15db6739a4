package app

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"slices"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/admin"
	"github.com/gtmgate/gtmgate/agenttools"
	"github.com/gtmgate/gtmgate/gateway"
	"github.com/gtmgate/gtmgate/mcpgateway"
	"github.com/gtmgate/gtmgate/provider/upstream"
	"github.com/gtmgate/gtmgate/registry"
	"github.com/gtmgate/gtmgate/toolrun"
)

// buildTools creates one upstream client per provider (pointed at its
// sandbox in demo mode unless overridden), the registry and the runner.
func (a *App) buildTools(ctx context.Context) error {
	var tools []gtmgate.Tool
	var demo []gtmgate.ProviderSandbox
	for _, p := range providers() {
		base := p.baseURL
		if a.cfg.Demo && p.sandbox != nil {
			sb := p.sandbox()
			url, err := a.startSandbox(sb)
			if err != nil {
				return err
			}
			base = url
			demo = append(demo, sb)
		}
		if u, ok := a.cfg.Upstreams[p.key]; ok {
			base = u
		}
		opts := p.options(&a.cfg, base)
		opts.Timeout = a.cfg.UpstreamTimeout
		c, err := upstream.New(opts)
		if err != nil {
			return err
		}
		tools = append(tools, p.tools(c)...)
	}
	tools = append(tools, a.extraTools()...)
	tools = append(tools, agenttools.Tools(a.store, nil)...)
	reg, err := registry.New(tools...)
	if err != nil {
		return err
	}
	a.registry = reg
	a.runner = toolrun.New(toolrun.Options{
		Registry: reg, Store: a.store, Recorder: a.recorder,
		Tokens:      &toolrun.StoredTokens{Store: a.store},
		CallTimeout: 4*a.cfg.UpstreamTimeout + 5*time.Second,
		ApprovalTTL: a.cfg.ApprovalTTL, Logger: a.logger,
	})
	if a.cfg.Demo {
		return a.seedDemo(ctx, demo)
	}
	return nil
}

// startSandbox serves a provider sandbox on a loopback port.
func (a *App) startSandbox(sb gtmgate.ProviderSandbox) (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("sandbox %s: %w", sb.Provider, err)
	}
	srv := &http.Server{Handler: sb.Handler, ReadHeaderTimeout: 5 * time.Second}
	a.sandboxes = append(a.sandboxes, srv)
	go srv.Serve(ln)
	return "http://" + ln.Addr().String(), nil
}

// providerKeys lists the providers tenants may configure.
func (a *App) providerKeys() []string {
	var keys []string
	for _, e := range a.registry.Tools() {
		if e.Provider != "" && !slices.Contains(keys, e.Provider) {
			keys = append(keys, e.Provider)
		}
	}
	slices.Sort(keys)
	return keys
}

// buildSurfaces builds the handlers of the three listeners.
func (a *App) buildSurfaces(ctx context.Context) error {
	keyHash, generated, err := adminKeyHash(a.cfg)
	if err != nil {
		return err
	}
	a.AdminKey = generated
	auth := &gateway.Authenticator{Tokens: a.store}
	adminAPI := admin.New(admin.Options{
		Store: a.store, Recorder: a.recorder, Runner: a.runner, KeyHash: keyHash,
		Providers: a.providerKeys(), MaxBodyBytes: a.cfg.MaxBodyBytes,
	})
	mcp := mcpgateway.New(mcpgateway.Options{
		Runner: a.runner, Require: auth.Require, AllowedOrigins: append([]string{a.cfg.GatewayURL}, a.cfg.AllowedOrigins...),
		Version: a.version, MaxBodyBytes: a.cfg.MaxBodyBytes, Logger: a.logger,
	})
	a.handlers[SurfaceGateway] = gateway.New(gateway.Options{
		Runner: a.runner, Auth: auth, Store: a.store, StoreBackend: a.backend, Version: a.version,
		MaxBodyBytes: a.cfg.MaxBodyBytes, Metrics: a.metrics, Logger: a.logger, Admin: adminAPI, MCP: mcp,
	})
	return a.buildContentSurfaces(ctx)
}
