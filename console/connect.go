package console

import (
	"errors"
	"net/http"

	"github.com/gtmgate/gtmgate"
)

// The page where a person connects an account of their own
// (gtmgate.ConnectPagePath): where a call refused for want of one sends
// them. Its button asks the admin API for a connect link whose person is
// the signed-in one (POST …/connect-links/mine, which takes no person) and
// sends the browser on to it.

// connectOwnView is the connect page's data.
type connectOwnView struct {
	TenantID, TenantName, Provider string
	// Action is the page's own path, where its form posts.
	Action string
	// Yours are the person's own accounts of the provider in the tenant.
	Yours []string
	// Form says the signed-in person may connect one here.
	Form bool
}

func (c *Console) connectOwnPage(w http.ResponseWriter, r *http.Request, s *session) {
	c.renderConnectOwn(w, r, s, http.StatusOK, "")
}

// connectOwn creates the signed-in person's link and sends the browser to
// the provider's consent through it.
func (c *Console) connectOwn(w http.ResponseWriter, r *http.Request, s *session) {
	if s.actor.Kind != gtmgate.ActorPerson {
		c.renderConnectOwn(w, r, s, http.StatusForbidden, "")
		return
	}
	var link struct{ URL string }
	err := c.call(r, http.MethodPost, "/admin/tenants/"+esc(r.PathValue("tenant"))+"/connect-links/mine",
		obj{"provider": r.PathValue("provider")}, &link)
	if err != nil {
		c.renderConnectOwn(w, r, s, statusOf(err), "No connect link: "+err.Error())
		return
	}
	http.Redirect(w, r, link.URL, http.StatusSeeOther)
}

func (c *Console) renderConnectOwn(w http.ResponseWriter, r *http.Request, s *session, status int, problem string) {
	tenantID, provider := r.PathValue("tenant"), r.PathValue("provider")
	v := &connectOwnView{TenantID: tenantID, Provider: provider, Action: gtmgate.ConnectPagePath(tenantID, provider)}
	p := &page{Title: "Connect your own " + provider + " account", Error: problem, Data: v}
	if s.actor.Kind != gtmgate.ActorPerson {
		p.Error = "You signed in with the admin key, which is no person and has no account of its own to connect. " +
			"Sign out, then sign in as yourself through your identity provider."
		c.render(w, r, http.StatusForbidden, "connectown", p)
		return
	}
	var t struct{ Tenant obj }
	if err := c.call(r, http.MethodGet, "/admin/tenants/"+esc(tenantID), nil, &t); err != nil {
		p.Error = err.Error()
		c.render(w, r, statusOf(err), "connectown", p)
		return
	}
	v.TenantName, _ = t.Tenant["name"].(string)
	v.Yours = ownAccounts(t.Tenant, provider, s.actor.ID)
	v.Form = true
	c.render(w, r, status, "connectown", p)
}

// ownAccounts lists the ids of person's own accounts of provider in the
// tenant as the admin API shows it.
func ownAccounts(tenant obj, provider, person string) []string {
	providers, _ := tenant["providers"].(obj)
	pa, _ := providers[provider].(obj)
	accounts, _ := pa["accounts"].([]any)
	var out []string
	for _, a := range accounts {
		if a, _ := a.(obj); a["person"] == person {
			if id, _ := a["id"].(string); id != "" {
				out = append(out, id)
			}
		}
	}
	return out
}

// statusOf is the status of an admin API refusal, 500 for any other error.
func statusOf(err error) int {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae.Status
	}
	return http.StatusInternalServerError
}
