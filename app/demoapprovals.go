package app

import (
	"context"
	"fmt"
	"slices"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/idpsandbox"
)

// The demo tenant's approval route: ad changes are announced to the
// sandbox receiver's /approvals, naming Ada, the demo's approver.
const (
	demoRouteWebhook = "whk_demo_receiver"
	demoRoutePath    = "/approvals"
	demoApprover     = "demo-approver"
)

// seedDemoApprovalRoute gives the demo tenant, when it has no approval
// policy of its own, the default policy with a route for ads_mutate: its
// notices go to the sandbox receiver (signed with the route webhook's own
// secret) and name Ada. Ada is registered as a person of the sandbox IdP,
// as her first sign-in would, so the route can name her by id; without
// the IdP (a gateway on port 0) the route names nobody and the tenant's
// deciders are named instead. On every start the demo's webhook follows the
// receiver, which listens on a new port.
func (a *App) seedDemoApprovalRoute(ctx context.Context) error {
	t, err := a.store.GetTenant(ctx, DemoTenant)
	if err != nil {
		return fmt.Errorf("seed demo approval route: %w", err)
	}
	cp := *t // the store's copy may be cached: never changed in place
	switch {
	case t.Approval == nil:
		route := gtmgate.ApprovalRoute{Categories: []string{string(gtmgate.CategoryAdsMutate)}}
		if ada, err := a.demoPerson(ctx, demoApprover); err != nil {
			return err
		} else if ada != nil {
			route.Approvers = []string{ada.ID}
		}
		if a.demoRoute.URL != "" {
			route.Webhooks = []gtmgate.ApprovalWebhook{a.demoRoute}
		}
		if len(route.Approvers) == 0 && len(route.Webhooks) == 0 {
			return nil
		}
		p := gtmgate.DefaultApprovalPolicy()
		p.Routes = []gtmgate.ApprovalRoute{route}
		cp.Approval = &p
	default:
		// The receiver listens on a new port every start, or not at all
		// (a real ALERT_WEBHOOK_URL): its webhook follows it or goes.
		p := *t.Approval
		p.Routes = slices.Clone(p.Routes)
		found := false
		for i, r := range p.Routes {
			j := slices.IndexFunc(r.Webhooks, func(w gtmgate.ApprovalWebhook) bool { return w.ID == demoRouteWebhook })
			if j < 0 {
				continue
			}
			found = true
			p.Routes[i].Webhooks = slices.Clone(r.Webhooks)
			if a.demoRoute.URL == "" {
				p.Routes[i].Webhooks = slices.Delete(p.Routes[i].Webhooks, j, j+1)
			} else {
				w := &p.Routes[i].Webhooks[j]
				w.URL, w.Secret = a.demoRoute.URL, a.demoRoute.Secret
			}
		}
		if !found {
			return nil // the operator's own policy
		}
		cp.Approval = &p
	}
	if _, err := a.store.PutTenant(ctx, &cp); err != nil {
		return fmt.Errorf("seed demo approval route: %w", err)
	}
	return nil
}

// demoPerson is the demo IdP's person of subject, registered as their
// sign-in would (same issuer and subject, so signing in finds them); nil
// when the sandbox IdP is not served.
func (a *App) demoPerson(ctx context.Context, subject string) (*gtmgate.Person, error) {
	issuer := a.demoIdPIssuer()
	i := slices.IndexFunc(DemoPeople, func(p idpsandbox.Person) bool { return p.Subject == subject })
	if issuer == "" || i < 0 {
		return nil, nil
	}
	people, err := a.store.ListPeople(ctx)
	if err != nil {
		return nil, fmt.Errorf("seed demo person %s: %w", subject, err)
	}
	if j := slices.IndexFunc(people, func(p *gtmgate.Person) bool { return p.Issuer == issuer && p.Subject == subject }); j >= 0 {
		return people[j], nil
	}
	d := DemoPeople[i]
	p, err := a.store.SignedIn(ctx, DemoIdP, gtmgate.Identity{Issuer: issuer, Subject: d.Subject, Email: d.Email, EmailVerified: d.EmailVerified,
		Name: d.Name}, a.started)
	if err != nil {
		return nil, fmt.Errorf("seed demo person %s: %w", subject, err)
	}
	return p, nil
}
