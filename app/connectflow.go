package app

import (
	"context"
	"errors"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/connect"
	"github.com/gtmgate/gtmgate/connectflow"
	"github.com/gtmgate/gtmgate/egress"
)

// connectFlow builds the connect-link flow (#33): its admin routes go in
// admin.Options.Extra, its pages on the gateway listener.
func (a *App) connectFlow() *connectflow.Flow {
	bases := a.cfg.Upstreams
	if a.connectBases != nil {
		// Under --demo: the sandboxes' authorization servers and discovery
		// hosts, each overridden by config.Upstreams already.
		bases = a.connectBases
	}
	devToken := a.cfg.GoogleAdsDeveloperToken
	if devToken == "" && a.cfg.Demo {
		devToken = "sandbox-developer-token"
	}
	// Provider endpoints are fixed; an override (tests, the demo's
	// sandboxes) goes through the outbound address policy: loopback only
	// under --demo or with the setting that allows a loopback token
	// endpoint to the refresher (GTMGATE_ALLOW_INSECURE_TOKEN_ENDPOINT).
	policy := egress.Policy{AllowLoopback: a.cfg.Demo || a.cfg.AllowInsecureTokenEndpoint}
	client := &connect.Client{HTTP: connect.NewHTTPClient(policy), Bases: bases, Version: a.cfg.APIVersion, Timeout: a.cfg.UpstreamTimeout,
		GoogleAdsDeveloperToken: devToken, Now: a.connectNow}
	// Grants are written through the MCP grants' store: a re-connect drops
	// the grant's cached token.
	return connectflow.New(connectflow.Options{Store: a.mcpGrants.watch(), Registry: a.registry, Client: client, Seeder: a.refresher,
		Recorder: a.recorder, GatewayURL: a.cfg.GatewayURL,
		OperatorName: a.cfg.OperatorName, OperatorLogoURL: a.cfg.OperatorLogoURL, MaxBodyBytes: a.cfg.MaxBodyBytes, Now: a.connectNow,
		FormKey: a.derivedKey("gtmgate connect link start"),
		// Links to tenants' upstream MCP servers of auth kind oauth.
		MCPClient:                   a.mcpOAuthClient(),
		AllowLoopbackClientMetadata: a.cfg.Demo || a.cfg.AllowInsecureTokenEndpoint,
		OnMCPConnected:              a.listAfterConnect,
		Logger:                      a.logger.With("component", "connect")})
}

// connectNow is the clock connect links expire by: time.Now unless a test
// set another (SetConnectClock).
func (a *App) connectNow() time.Time {
	if f, ok := a.connectClock.Load().(func() time.Time); ok && f != nil {
		return f()
	}
	return time.Now()
}

// SetConnectClock replaces the clock connect links expire by, for tests
// that let a link expire without waiting.
func (a *App) SetConnectClock(now func() time.Time) { a.connectClock.Store(now) }

// registerDemoOAuthApps stores, under --demo, each sandbox's OAuth app as
// the gateway-wide app of its family when none is registered, or the
// demo's own app of an earlier start is (its secret is renewed), so a
// connect link works with no setup on a fresh or a reused data directory.
func (a *App) registerDemoOAuthApps(ctx context.Context) error {
	for family, app := range a.demoOAuthApps {
		stored, err := a.store.GetOAuthApp(ctx, "", family)
		switch {
		case err == nil && (stored.ClientID != app.ClientID || stored.ClientSecret == app.ClientSecret):
			// The operator's own app, or the demo's as this start's sandbox knows it.
			continue
		case err != nil && !errors.Is(err, gtmgate.ErrNotFound):
			return err
		}
		// None yet, or the demo's app from an earlier start: the sandboxes
		// make their client secret anew at each start (#43 item 8).
		app := app
		if _, err := a.store.PutOAuthApp(ctx, &app); err != nil {
			return err
		}
	}
	return nil
}
