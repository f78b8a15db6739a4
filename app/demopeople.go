package app

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/idpsandbox"
	"github.com/gtmgate/gtmgate/sso"
)

// The demo's sandbox IdP: served on the gateway listener under
// DemoIdPPath, registered as IdP DemoIdP with the people below, so SSO
// sign-in, the tenant portal and role checks work on a fresh clone.
const (
	DemoIdP         = "demo-idp"
	DemoIdPPath     = "/demo-idp"
	demoIdPClientID = "gtmgate-console"
)

// DemoPeople are the demo IdP's people; the README says how to sign in as
// each. Their roles come from demoGrants.
var DemoPeople = []idpsandbox.Person{
	{Subject: "demo-operator", Email: "olivia@agency.example", EmailVerified: true, Name: "Olivia Operator", Groups: []string{"gtmgate-operators"}},
	{Subject: "demo-approver", Email: "ada@demo.example", EmailVerified: true, Name: "Ada Approver", Groups: []string{"demo-marketing"}},
	{Subject: "demo-viewer", Email: "victor@demo.example", EmailVerified: true, Name: "Victor Viewer"},
	{Subject: "demo-newcomer", Email: "nina@demo.example", EmailVerified: true, Name: "Nina Newcomer (no role yet)"},
}

// demoGrants give the demo people their roles, one of each kind of grant.
var demoGrants = []gtmgate.RoleGrant{
	{IdP: DemoIdP, Kind: gtmgate.GrantGroup, Match: "gtmgate-operators", Role: gtmgate.RoleAdmin},
	{IdP: DemoIdP, Kind: gtmgate.GrantGroup, Match: "demo-marketing", Role: gtmgate.RoleApprover, TenantID: DemoTenant},
	{IdP: DemoIdP, Kind: gtmgate.GrantEmail, Match: "victor@demo.example", Role: gtmgate.RoleViewer, TenantID: DemoTenant},
}

// demoIdP is the demo's sandbox IdP mounted on the gateway.
type demoIdP struct{ p *idpsandbox.Provider }

// Mount serves the sandbox IdP under DemoIdPPath.
func (d demoIdP) Mount(mux gtmgate.Router) { mux.Handle(DemoIdPPath+"/", d.p) }

// demoIdPIssuer is the sandbox IdP's issuer, "" when the gateway's URL is
// not known before it listens (port 0).
func (a *App) demoIdPIssuer() string {
	if !a.cfg.Demo || a.cfg.GatewayURL == "" || strings.HasSuffix(a.cfg.GatewayURL, ":0") {
		return ""
	}
	return a.cfg.GatewayURL + DemoIdPPath
}

func (a *App) demoIdPSecret() string {
	return hex.EncodeToString(a.derivedKey("gtmgate demo idp client secret"))
}

// startDemoIdP builds the sandbox IdP; nil without --demo.
func (a *App) startDemoIdP() (*demoIdP, error) {
	issuer := a.demoIdPIssuer()
	if issuer == "" {
		if a.cfg.Demo {
			a.logger.Warn("demo: no sandbox IdP: GATEWAY_URL is not known before listening (port 0)")
		}
		return nil, nil
	}
	p, err := idpsandbox.New(idpsandbox.Options{Issuer: issuer, People: DemoPeople, Logger: a.logger,
		Clients: []idpsandbox.Client{{ID: demoIdPClientID, Secret: a.demoIdPSecret(), RedirectURIs: []string{sso.RedirectURI(a.cfg.GatewayURL)}}}})
	if err != nil {
		return nil, fmt.Errorf("demo IdP: %w", err)
	}
	return &demoIdP{p: p}, nil
}

// seedDemoPeople registers the sandbox IdP and the demo people's grants.
func (a *App) seedDemoPeople(ctx context.Context) error {
	issuer := a.demoIdPIssuer()
	if issuer == "" {
		return nil
	}
	if _, err := a.store.PutIdP(ctx, &gtmgate.IdP{Name: DemoIdP, DisplayName: "the demo's sandbox IdP", Issuer: issuer,
		ClientID: demoIdPClientID, ClientSecret: a.demoIdPSecret(), GroupsClaim: "groups"}); err != nil {
		return fmt.Errorf("seed demo IdP: %w", err)
	}
	for _, g := range demoGrants {
		g.CreatedBy = "demo"
		if err := a.store.PutRoleGrant(ctx, &g); err != nil && !errors.Is(err, gtmgate.ErrConflict) {
			return fmt.Errorf("seed demo grant %s %s: %w", g.Kind, g.Match, err)
		}
	}
	return nil
}
