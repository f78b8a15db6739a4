package console

import (
	"cmp"
	"context"
	"net/http"
	"net/url"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/oauth"
)

// The console is how the OAuth consent page signs people in: its session
// cookie is the gateway's, so the person who signed in here is the person
// at the consent page.
var _ oauth.PeopleSignIn = (*Console)(nil)

// SignedIn returns the person whose console session r carries, with the
// roles their grants give now; nil for none (or for the break-glass key,
// which is not a person and consents to nothing).
func (c *Console) SignedIn(r *http.Request) *gtmgate.Actor {
	s, err := c.session(r)
	if err != nil || s.actor.Kind != gtmgate.ActorPerson {
		return nil
	}
	return s.actor
}

// SignInLinks are the sign-in buttons of the configured IdPs, each coming
// back to next once signed in.
func (c *Console) SignInLinks(ctx context.Context, next string) []oauth.SignInLink {
	if c.opts.SSO == nil || c.opts.IdPs == nil {
		return nil
	}
	idps, err := c.opts.IdPs(ctx)
	if err != nil {
		c.opts.Logger.Warn("console: list IdPs for sign-in links", "error", err)
		return nil
	}
	var out []oauth.SignInLink
	for _, p := range idps {
		out = append(out, oauth.SignInLink{Label: cmp.Or(p.DisplayName, p.Name),
			URL: "/console/sso/start?" + url.Values{"idp": {p.Name}, "next": {next}}.Encode()})
	}
	return out
}

// Tenants lists the tenants a may connect an application to: those where
// it may change working data (members, owners, operator admins).
func (c *Console) Tenants(ctx context.Context, a *gtmgate.Actor) ([]string, error) {
	var ids []string
	if a.Operator() == "" {
		ids = a.TenantIDs()
	} else if c.opts.Tenants != nil {
		ts, err := c.opts.Tenants(ctx)
		if err != nil {
			return nil, err
		}
		for _, t := range ts {
			ids = append(ids, t.ID)
		}
	}
	var out []string
	for _, id := range ids {
		if a.Allows(gtmgate.AccessWrite, id) {
			out = append(out, id)
		}
	}
	return out, nil
}
