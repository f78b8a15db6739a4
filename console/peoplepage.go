package console

import (
	"cmp"
	"net/http"
	"strings"
)

// peopleView is the People page's data: the IdPs people sign in through,
// the grants that give roles, who has signed in, and the grant form.
type peopleView struct {
	IdPs        []obj
	RedirectURI string
	Grants      []obj
	People      []obj
	Form        grantForm
}

// grantForm is the grant form's fields.
type grantForm struct {
	IdP, Kind, Match, Role, Tenant, Categories, Tools string
}

func (c *Console) people(w http.ResponseWriter, r *http.Request, _ *session) {
	c.renderPeople(w, r, http.StatusOK, grantForm{Kind: "email", Role: "approver"}, "")
}

func (c *Console) renderPeople(w http.ResponseWriter, r *http.Request, status int, form grantForm, problem string) {
	f := &fetch{c: c, r: r}
	var idps struct {
		IdPs        []obj  `json:"idps"`
		RedirectURI string `json:"redirect_uri"`
	}
	f.get("/admin/sso/idps", &idps)
	var grants struct{ Grants []obj }
	f.get("/admin/role-grants", &grants)
	var people struct{ People []obj }
	f.get("/admin/people", &people)
	if form.IdP == "" && len(idps.IdPs) > 0 {
		form.IdP = anyString(idps.IdPs[0]["name"])
	}
	c.render(w, r, status, "people", &page{Title: "People", Nav: "people", Error: cmp.Or(problem, f.message()),
		Data: &peopleView{IdPs: idps.IdPs, RedirectURI: idps.RedirectURI, Grants: grants.Grants, People: people.People, Form: form}})
}

// grant gives a role; a refusal shows the page again with the API's reason
// and what was typed.
func (c *Console) grant(w http.ResponseWriter, r *http.Request, _ *session) {
	v := func(k string) string { return strings.TrimSpace(r.PostForm.Get(k)) }
	form := grantForm{IdP: v("idp"), Kind: v("kind"), Match: v("match"), Role: v("role"), Tenant: v("tenant"),
		Categories: v("categories"), Tools: v("tools")}
	body := obj{"idp": form.IdP, "kind": form.Kind, "match": form.Match, "role": form.Role, "tenant_id": form.Tenant,
		"categories": scopeList(form.Categories), "tools": scopeList(form.Tools)}
	if err := c.call(r, http.MethodPost, "/admin/role-grants", body, nil); err != nil {
		c.renderPeople(w, r, http.StatusUnprocessableEntity, form, "Not granted: "+err.Error())
		return
	}
	who := form.Role
	if form.Tenant != "" {
		who += " of " + form.Tenant
	}
	c.done(w, r, "/console/people", "Granted "+who+" to the "+form.Kind+" "+form.Match+" at "+form.IdP+".")
}

func (c *Console) revokeRoleGrant(w http.ResponseWriter, r *http.Request, _ *session) {
	id := r.PathValue("id")
	c.act(w, r, http.MethodDelete, "/admin/role-grants/"+esc(id), nil, "/console/people",
		"Grant "+id+" revoked: the sessions it carried end at their next request.")
}

func (c *Console) removePerson(w http.ResponseWriter, r *http.Request, _ *session) {
	id := r.PathValue("id")
	c.act(w, r, http.MethodDelete, "/admin/people/"+esc(id), nil, "/console/people",
		"Person "+id+" removed and signed out everywhere.")
}
