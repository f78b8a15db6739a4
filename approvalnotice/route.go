package approvalnotice

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/gtmgate/gtmgate"
)

// Approver is someone a notice names as who should decide the gate. An
// approver granted by email who has not signed in yet has only an email.
type Approver struct {
	ID    string `json:"id,omitempty"`
	Name  string `json:"name,omitempty"`
	Email string `json:"email,omitempty"`
}

// target is one webhook a notice is posted to: a route's endpoint, or the
// alert webhook ("").
type target struct {
	endpoint string
	format   string
}

// targets is where a gate's notices go: the webhooks of the route that
// matched it, else (no route, or a route naming approvers only) the alert
// webhook when there is one.
func targets(route gtmgate.ApprovalRoute, routed, alert bool) []target {
	if routed && len(route.Webhooks) > 0 {
		out := make([]target, len(route.Webhooks))
		for i, w := range route.Webhooks {
			out[i] = target{endpoint: w.ID, format: cmp.Or(w.Format, gtmgate.WebhookStandard)}
		}
		return out
	}
	if alert {
		return []target{{format: gtmgate.WebhookStandard}}
	}
	return nil
}

// approvers are the people a's notices name: the route's approvers when it
// names any, else the tenant's people whose grants let them decide a.
func (w *Worker) approvers(ctx context.Context, a *gtmgate.Approval, route gtmgate.ApprovalRoute, routed bool) ([]Approver, error) {
	out := []Approver{}
	if routed && len(route.Approvers) > 0 {
		for _, id := range route.Approvers {
			p, err := w.opts.Store.GetPerson(ctx, id)
			if errors.Is(err, gtmgate.ErrNotFound) {
				out = append(out, Approver{ID: id}) // deleted since: still who the route names
				continue
			} else if err != nil {
				return nil, err
			}
			out = append(out, Approver{ID: p.ID, Name: p.Name, Email: p.Email})
		}
		return out, nil
	}
	grants, err := w.opts.Store.ListRoleGrants(ctx, "")
	if err != nil {
		return nil, err
	}
	people, err := w.opts.Store.ListPeople(ctx)
	if err != nil {
		return nil, err
	}
	return Deciders(grants, people, a.TenantID, a.Category, a.Tool), nil
}

// Deciders are the people whose grants let them decide a gate of tenantID
// in category held on tool, as gtmgate.Actor.CanDecide judges a signed-in
// person: the tenant's owners, and its approvers whose grant is unlimited or
// names the category or the tool. A subject grant names the person of that
// subject; an email grant the people who signed in with that email, or,
// before anyone has, the email alone. A group grant names nobody: who is in
// a group is only known when they sign in. Operators' admins, who may
// decide any gate, are not the tenant's and are not named.
func Deciders(grants []*gtmgate.RoleGrant, people []*gtmgate.Person, tenantID, category, tool string) []Approver {
	out := []Approver{}
	add := func(ap Approver) {
		if !slices.ContainsFunc(out, func(x Approver) bool {
			return ap.ID != "" && x.ID == ap.ID || ap.ID == "" && x.ID == "" && strings.EqualFold(x.Email, ap.Email)
		}) {
			out = append(out, ap)
		}
	}
	for _, g := range grants {
		if g.TenantID != tenantID || !decides(g, category, tool) {
			continue
		}
		found := false
		for _, p := range people {
			if p.IdP != g.IdP {
				continue
			}
			switch {
			case g.Kind == gtmgate.GrantSubject && p.Subject == g.Match,
				g.Kind == gtmgate.GrantEmail && p.Email != "" && strings.EqualFold(p.Email, g.Match):
				add(Approver{ID: p.ID, Name: p.Name, Email: p.Email})
				found = true
			}
		}
		if !found && g.Kind == gtmgate.GrantEmail {
			add(Approver{Email: strings.ToLower(g.Match)})
		}
	}
	slices.SortFunc(out, func(x, y Approver) int {
		return cmp.Or(strings.Compare(strings.ToLower(x.Email), strings.ToLower(y.Email)), strings.Compare(x.ID, y.ID))
	})
	return out
}

// decides reports whether grant g lets its holder decide a gate in
// category held on tool (gtmgate.Actor.CanDecide, for one grant).
func decides(g *gtmgate.RoleGrant, category, tool string) bool {
	switch g.Role {
	case gtmgate.RoleOwner:
		return true
	case gtmgate.RoleApprover:
		return len(g.Categories) == 0 && len(g.Tools) == 0 || slices.Contains(g.Categories, category) || slices.Contains(g.Tools, tool)
	}
	return false
}
