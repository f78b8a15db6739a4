package app

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"slices"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/admin"
	"github.com/gtmgate/gtmgate/agenttools"
	"github.com/gtmgate/gtmgate/chat"
	"github.com/gtmgate/gtmgate/clientip"
	"github.com/gtmgate/gtmgate/console"
	"github.com/gtmgate/gtmgate/gateway"
	"github.com/gtmgate/gtmgate/jsonapi"
	"github.com/gtmgate/gtmgate/mcpgateway"
	"github.com/gtmgate/gtmgate/mcpservers"
	"github.com/gtmgate/gtmgate/oauth"
	"github.com/gtmgate/gtmgate/oauthapps"
	"github.com/gtmgate/gtmgate/openapi"
	"github.com/gtmgate/gtmgate/people"
	"github.com/gtmgate/gtmgate/provider/googleapi"
	"github.com/gtmgate/gtmgate/provider/upstream"
	"github.com/gtmgate/gtmgate/providercheck"
	"github.com/gtmgate/gtmgate/quality"
	"github.com/gtmgate/gtmgate/reauth"
	"github.com/gtmgate/gtmgate/refresh"
	"github.com/gtmgate/gtmgate/registry"
	"github.com/gtmgate/gtmgate/sso"
	"github.com/gtmgate/gtmgate/throttle"
	"github.com/gtmgate/gtmgate/toolrun"
)

// buildTools creates one upstream client per provider (pointed at its
// sandbox in demo mode unless overridden), the registry and the runner.
func (a *App) buildTools(ctx context.Context) error {
	var tools []gtmgate.Tool
	var demo []gtmgate.ProviderSandbox
	var tokenInfo *googleapi.TokenInfoSandbox
	if a.cfg.Demo {
		tokenInfo = googleapi.NewTokenInfoSandbox(googleAPIScopes()...)
	}
	a.clients = map[string]*upstream.Client{}
	for _, p := range providers() {
		base := p.baseURL
		if a.cfg.Demo && p.sandbox != nil {
			sb := p.sandbox()
			if p.googleScopes {
				// One Google grant made on the demo's consent page reaches every Google sandbox.
				sb.Handler = tokenInfo.Accepting(sb.Token, sb.Handler)
			}
			url, err := a.startSandbox(sb)
			if err != nil {
				return err
			}
			a.noteDemoSandbox(p.key, sb.Handler, url)
			base = url
			demo = append(demo, sb)
			if p.googleScopes {
				// The demo's Google accounts hold the scopes their tools need.
				tokenInfo.Grant(sb.Token, providercheck.MinimalGrant(p.spec()))
			}
		}
		if u, ok := a.cfg.Upstreams[p.key]; ok {
			base = u
		}
		opts := p.options(&a.cfg, base)
		if opts.APIVersion == "" {
			opts.APIVersion = a.cfg.APIVersion(p.key)
		}
		opts.Timeout = a.cfg.UpstreamTimeout
		c, err := upstream.New(opts)
		if err != nil {
			return err
		}
		a.clients[p.key] = c
		tools = append(tools, p.tools(c)...)
	}
	if err := a.buildTokenInfoClient(tokenInfo); err != nil {
		return err
	}
	tools = append(tools, a.extraTools()...)
	tools = append(tools, agenttools.Tools(a.store, nil)...)
	tools = append(tools, delegating(a.agents.Tool()), delegating(a.scheduler.Tool()))
	reg, err := registry.New(tools...)
	if err != nil {
		return err
	}
	a.registry = reg
	// Accounts to connect again, by the connect links' clock so that tests
	// move both together.
	a.reauth = reauth.New(a.store, &reauth.Options{WarnBefore: a.cfg.ReauthWarnBefore, Now: a.connectNow})
	// The refresher writes grants through the MCP grants' store, so that
	// a renewal or a refusal drops the grant's cached token.
	a.mcpGrants = newMCPGrants(a.store, a.logger.With("component", "mcp-grants"))
	a.refresher, err = refresh.New(refresh.Options{Store: a.mcpGrants.watch(), Logger: a.logger.With("component", "oauth-refresh"),
		// The demo's authorization servers are http on loopback; connect links seed them.
		AllowInsecureTokenEndpoint: a.cfg.AllowInsecureTokenEndpoint || a.cfg.Demo})
	if err != nil {
		return err
	}
	a.buildFederation()
	runOpts := toolrun.Options{
		Registry: reg, Store: a.store, Recorder: a.calls, Quota: a.meter,
		Tokens:      &toolrun.StoredTokens{Store: a.store, Refresher: a.refresher},
		CallTimeout: a.callTimeout(),
		ApprovalTTL: a.cfg.ApprovalTTL, Logger: a.logger, Decided: a.agents.Decided, Federated: a.federation,
		// Every replica derives the same key from the shared encryption key.
		GateKey: a.derivedKey("gtmgate approval gate digest"),
	}
	// Notices go to the alert webhook or to a tenant's approval route:
	// either may be configured, so every gate is announced.
	runOpts.Notify = a.queueApprovalNotice
	if a.harness != nil {
		// Set only when on: a nil *Harness in the interface would not be nil.
		runOpts.Observer = a.harness
	}
	a.runner = toolrun.New(runOpts)
	a.agents.UseRunner(a.runner)
	if a.cfg.Demo {
		if err := a.seedDemo(ctx, demo); err != nil {
			return err
		}
		if err := a.registerDemoOAuthApps(ctx); err != nil {
			return err
		}
		if err := a.seedDemoMCPServer(ctx); err != nil {
			return err
		}
		if err := a.seedDemoPeople(ctx); err != nil {
			return err
		}
		if err := a.seedDemoApprovalRoute(ctx); err != nil {
			return err
		}
		return a.seedDemoSchedule(ctx)
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
	clients, err := clientip.New(a.cfg.TrustedProxies)
	if err != nil {
		return err
	}
	guard := a.credentialGuards(clients)
	oauthSrv, err := oauth.New(oauth.Options{Store: a.store, BaseURL: a.cfg.GatewayURL, CSRFKey: a.derivedKey("gtmgate oauth csrf"),
		Clients: clients, CredentialGuard: guard("consent"), TokenGuard: guard("oauth_token"), CredentialsRevoked: a.credentialsRevoked,
		Logger: a.logger})
	if err != nil {
		return err
	}
	// OAuth access tokens are issued for /mcp only; REST and chat take tenant
	// tokens. Both share one guard: a wrong token is a wrong token.
	bearerGuard := guard("bearer")
	restAuth := &gateway.Authenticator{Tokens: a.store, Guard: bearerGuard, Limiter: a.limiter}
	mcpAuth := &gateway.Authenticator{Tokens: a.store, OAuth: oauthSrv.Verify, Challenge: oauthSrv.Challenge(), Guard: bearerGuard,
		Limiter: a.limiter}
	connectFlow := a.connectFlow()
	adminGuard := guard("admin") // one count of wrong admin keys, API and console sign-in alike
	adminAPI := admin.New(admin.Options{
		Store: a.store, Recorder: a.recorder, Runner: a.runner, KeyHash: keyHash, KeyGuard: adminGuard, BillingChanged: a.meter.PlanChanged, UsageEventsKept: a.cfg.Retention.UsageEvents,
		Providers: a.providerKeys(), MaxBodyBytes: a.cfg.MaxBodyBytes, CredentialsRevoked: a.credentialsRevoked, RefreshAccounts: a.refresher.Accounts, Extra: []func(gtmgate.Router){oauthSrv.MountAdmin, a.refresher.Mount, a.jobs.Mount,
			quality.NewAdmin(quality.AdminOptions{Store: a.store, Harness: a.harness, Status: a.grading, MaxBodyBytes: a.cfg.MaxBodyBytes}).Mount,
			a.agents.Mount, a.scheduler.Mount, a.brief.Mount, a.mountHealth, a.mountProviderCheck,
			oauthapps.New(oauthapps.Options{Store: a.store, GatewayURL: a.cfg.GatewayURL, MaxBodyBytes: a.cfg.MaxBodyBytes}).Mount,
			people.New(people.Options{Store: a.store, GatewayURL: a.cfg.GatewayURL, MaxBodyBytes: a.cfg.MaxBodyBytes}).Mount,
			mcpservers.New(mcpservers.Options{Store: a.store, Catalog: a.federation, AllowedRanges: a.cfg.MCPUpstreamAllow, MaxBodyBytes: a.cfg.MaxBodyBytes, Logger: a.logger,
				LapseGrants: a.lapseMCPGrants}).Mount,
			connectFlow.MountAdmin, a.reauth.Mount},
	})
	mcp := mcpgateway.New(mcpgateway.Options{
		Runner:          a.runner,
		Require:         func(h http.Handler) http.Handler { return mcpAuth.Require(oauthSrv.RequireScope(h)) },
		DenyScope:       oauthSrv.DenyScope,
		AllowedOrigins:  append([]string{a.cfg.GatewayURL}, a.cfg.AllowedOrigins...),
		LoopbackOrigins: loopbackBind(a.cfg.GatewayAddr),
		Version:         a.version, MaxBodyBytes: a.cfg.MaxBodyBytes, Recorder: a.recorder, Logger: a.logger,
		Held: &mcpgateway.HeldOptions{Key: a.derivedKey("gtmgate mcp held call state"),
			PageURL: func(id string) string { return a.cfg.GatewayURL + gtmgate.ApprovalPagePath(id) },
			ConnectURL: func(tenantID, provider string) string {
				return a.cfg.GatewayURL + gtmgate.ConnectPagePath(tenantID, provider)
			}},
	})
	signIn := sso.New(sso.Options{Store: a.store, GatewayURL: a.cfg.GatewayURL, Timeout: a.cfg.UpstreamTimeout})
	operatorConsole, err := console.New(console.Options{Admin: adminAPI, Sessions: a.store, Recorder: a.recorder, KeyHash: keyHash,
		KeyGuard: adminGuard, CSRFKey: a.derivedKey("gtmgate console csrf"), GatewayURL: a.cfg.GatewayURL,
		MaxBodyBytes: a.cfg.MaxBodyBytes, Logger: a.logger, Client: clients.Addr, SSO: signIn, IdPs: a.store.ListIdPs,
		Tenants: a.store.ListTenants, Providers: a.providerKeys()})
	if err != nil {
		return err
	}
	oauthSrv.UsePeople(operatorConsole)
	public := []gateway.Mounter{connectFlow}
	if idp, err := a.startDemoIdP(); err != nil {
		return err
	} else if idp != nil {
		public = append(public, idp)
	}
	chatHandler, err := a.chatHandler()
	if err != nil {
		return err
	}
	gatewayAPI := &openapi.Published{}
	gw := gateway.New(gateway.Options{
		Runner: a.runner, Auth: restAuth, Store: a.store, StoreBackend: a.backend, Version: a.version,
		MaxBodyBytes: a.cfg.MaxBodyBytes, Metrics: a.metrics, Logger: a.logger, Admin: adminAPI, Console: operatorConsole, MCP: mcp,
		Chat: chatHandler, OAuth: oauthSrv, Public: public, Audit: a.recorder, Grading: a.gradingHealth(), Snapshot: a.snapshotStatus,
		Cache: a.cache, Lifecycle: &a.lifecycle,
		OpenAPI: gatewayAPI,
	})
	a.handlers[SurfaceGateway] = gw
	// One description, built once its routes are known: the gateway serves
	// it relative to itself, the docs host pointed at the gateway.
	api, err := openapi.Gateway(a.registry, gw.Patterns())
	if err != nil {
		return err
	}
	// Served compact: indented, the two copies held 3.2 MB of an idle
	// process's heap instead of 1.5 MB (cmd/specgen writes the indented file);
	// both are held gzip-compressed (openapi.Published), some 150 kB.
	body, err := json.Marshal(api)
	if err != nil {
		return fmt.Errorf("gateway API description: %w", err)
	}
	gatewayAPI.Set(body)
	api.Servers = []openapi.Server{{URL: a.cfg.GatewayURL, Description: "gtmgate gateway"}}
	if body, err = json.Marshal(api); err != nil {
		return fmt.Errorf("gateway API description: %w", err)
	}
	a.gatewayAPI = &openapi.Published{}
	a.gatewayAPI.Set(body)
	return a.buildContentSurfaces(ctx)
}

// credentialGuards returns a constructor of credential-guessing guards that
// share one client-address resolver and one set of metrics.
func (a *App) credentialGuards(clients *clientip.Resolver) func(name string) *throttle.Guard {
	metrics := throttle.NewMetrics(a.metrics.Registry)
	return func(name string) *throttle.Guard {
		return throttle.New(throttle.Options{Name: name, Clients: clients, Metrics: metrics, Logger: a.logger})
	}
}

// loopbackBind reports whether a listener address binds loopback only.
func loopbackBind(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	return err == nil && host != "" && mcpgateway.IsLoopbackHost(host)
}

// chatHandler is the OpenAI-compatible pass-through, or a handler that says
// MODEL_GATEWAY_URL is missing.
func (a *App) chatHandler() (gateway.ChatHandler, error) {
	if a.cfg.ModelGatewayURL == "" {
		return unconfiguredChat{}, nil
	}
	return chat.New(chat.Options{
		UpstreamURL: a.cfg.ModelGatewayURL, APIKey: a.cfg.ModelGatewayAPIKey, Tenants: a.store, Recorder: a.calls, Quota: a.meter,
		MaxBodyBytes: 4 << 20, MaxStreams: a.cfg.ChatMaxStreams, MaxStreamsPerTenant: a.cfg.ChatMaxStreamsPerTenant, Logger: a.logger,
	})
}

type unconfiguredChat struct{}

func (unconfiguredChat) ServeChatCompletions(w http.ResponseWriter, r *http.Request) {
	jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EUnavailable, "chat completions are not configured on this gateway").
		WithHint("the operator sets MODEL_GATEWAY_URL (and MODEL_GATEWAY_API_KEY)"))
}

func (u unconfiguredChat) ServeModels(w http.ResponseWriter, r *http.Request) {
	u.ServeChatCompletions(w, r)
}

// delegating marks a tool that makes other tools' calls on the caller's
// behalf (an agent run's steps, a schedule's ticks), so its MCP hints are
// never read-only and as destructive as the tools it can reach, whatever
// its own actions say.
func delegating(t gtmgate.Tool) gtmgate.Tool {
	t.Delegates = true
	return t
}
