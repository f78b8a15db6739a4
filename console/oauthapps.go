package console

import (
	"cmp"
	"net/http"
	"net/url"
	"strings"
)

// oauthAppsView is the OAuth apps page's data.
type oauthAppsView struct {
	// Apps are the gateway-wide apps, then each tenant's (the API's order).
	Apps []obj
	// RedirectURI is every app's redirect URI, to paste into the
	// provider's app settings; the list carries it even when empty.
	RedirectURI string
	// Form is what the register form shows: a refused submission's fields,
	// or the app picked with Replace. Never a client secret.
	Form oauthAppForm
}

// oauthAppForm is the register form's fields, without the secret.
type oauthAppForm struct {
	Provider, Tenant, ClientID, ExtraScopes string
	// Replacing says an app with this provider and tenant exists, so an
	// empty secret keeps the stored one.
	Replacing bool
}

// readOAuthAppForm reads a posted register form; the secret is returned
// apart so it goes to the API and nowhere else.
func readOAuthAppForm(r *http.Request) (oauthAppForm, string) {
	f := oauthAppForm{Provider: strings.TrimSpace(r.PostForm.Get("provider")), Tenant: strings.TrimSpace(r.PostForm.Get("tenant")),
		ClientID: strings.TrimSpace(r.PostForm.Get("client_id")), ExtraScopes: strings.TrimSpace(r.PostForm.Get("extra_scopes"))}
	return f, strings.TrimSpace(r.PostForm.Get("client_secret"))
}

// oauthAppPath is the admin API path of a gateway-wide app (tenant "") or
// a tenant's own.
func oauthAppPath(tenant, provider string) string {
	if tenant == "" {
		return "/admin/oauth-apps/" + esc(provider)
	}
	return "/admin/tenants/" + esc(tenant) + "/oauth-apps/" + esc(provider)
}

// oauthAppName names an app in messages.
func oauthAppName(tenant, provider string) string {
	if tenant == "" {
		return "The gateway-wide " + provider + " app"
	}
	return "Tenant " + tenant + "'s " + provider + " app"
}

func (c *Console) oauthApps(w http.ResponseWriter, r *http.Request, _ *session) {
	q := r.URL.Query()
	c.renderOAuthApps(w, r, http.StatusOK, oauthAppForm{Provider: q.Get("provider"), Tenant: q.Get("tenant")}, "")
}

// renderOAuthApps shows the apps and the register form; a form naming an
// existing app (Replace) is filled with its client id and scopes.
func (c *Console) renderOAuthApps(w http.ResponseWriter, r *http.Request, status int, form oauthAppForm, problem string) {
	f := &fetch{c: c, r: r}
	var list struct {
		Apps        []obj  `json:"oauth_apps"`
		RedirectURI string `json:"redirect_uri"`
	}
	f.get("/admin/oauth-apps", &list)
	for _, a := range list.Apps {
		a["replace_link"] = replaceLink(a["provider"], a["tenant_id"])
		if anyString(a["provider"]) != form.Provider || anyString(a["tenant_id"]) != form.Tenant {
			continue
		}
		form.Replacing = true
		if problem == "" {
			form.ClientID, form.ExtraScopes = anyString(a["client_id"]), joinList(a["extra_scopes"], " ")
		}
	}
	c.render(w, r, status, "oauthapps", &page{Title: "OAuth apps", Nav: "oauthapps", Error: cmp.Or(problem, f.message()),
		Data: &oauthAppsView{Apps: list.Apps, RedirectURI: list.RedirectURI, Form: form}})
}

// saveOAuthApp registers or replaces an app. A refusal shows the page again
// with the API's reason and what was typed, except the secret.
func (c *Console) saveOAuthApp(w http.ResponseWriter, r *http.Request, _ *session) {
	form, clientSecret := readOAuthAppForm(r)
	if form.Provider == "" {
		c.renderOAuthApps(w, r, http.StatusUnprocessableEntity, form, "Not saved: choose a provider.")
		return
	}
	body := obj{"client_id": form.ClientID, "extra_scopes": scopeList(form.ExtraScopes)}
	if clientSecret != "" {
		body["client_secret"] = clientSecret
	}
	var saved struct {
		Created bool
	}
	if err := c.call(r, http.MethodPut, oauthAppPath(form.Tenant, form.Provider), body, &saved); err != nil {
		c.renderOAuthApps(w, r, http.StatusUnprocessableEntity, form, "Not saved: "+err.Error())
		return
	}
	msg := oauthAppName(form.Tenant, form.Provider) + " replaced"
	switch {
	case saved.Created:
		msg = oauthAppName(form.Tenant, form.Provider) + " registered"
	case clientSecret == "":
		msg += ", its secret kept"
	}
	c.done(w, r, "/console/oauth-apps", msg+".")
}

func (c *Console) deleteOAuthApp(w http.ResponseWriter, r *http.Request, _ *session) {
	provider, tenant := r.PathValue("provider"), strings.TrimSpace(r.PostForm.Get("tenant"))
	c.act(w, r, http.MethodDelete, oauthAppPath(tenant, provider), nil, "/console/oauth-apps", oauthAppName(tenant, provider)+" deleted.")
}

// scopeList splits the form's extra scopes on spaces and commas.
func scopeList(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r' })
}

// replaceLink is the page's address with the register form filled for an
// existing app.
func replaceLink(provider, tenant any) string {
	q := url.Values{"provider": {anyString(provider)}}
	if t := anyString(tenant); t != "" {
		q.Set("tenant", t)
	}
	return "/console/oauth-apps?" + q.Encode() + "#register"
}
