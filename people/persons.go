package people

import (
	"errors"
	"net/http"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/admin"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// listPeople serves GET /admin/people.
func (a *API) listPeople(w http.ResponseWriter, r *http.Request) {
	people, err := a.opts.Store.ListPeople(r.Context())
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, PeopleList{People: people})
}

// deletePerson serves DELETE /admin/people/{person_id}: the store ends the
// person's sessions and removes their subject grants and their own grants
// of upstream MCP servers. Their email and group grants stay, so they can
// sign in again and hold those roles (and connect again).
func (a *API) deletePerson(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("person_id")
	p, err := a.opts.Store.GetPerson(r.Context(), id)
	if err == nil {
		err = a.opts.Store.DeletePerson(r.Context(), id)
	}
	if errors.Is(err, gtmgate.ErrNotFound) {
		err = gtmgate.Errorf(gtmgate.ENotFound, "no person %q", id).WithHint("list people with GET /admin/people")
	}
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	admin.SetAuditDetail(w, "person "+p.ID+" of idp "+p.IdP+" deleted, sessions ended, their MCP server grants removed")
	jsonapi.Write(w, http.StatusOK, PersonDeleted{Person: p, Deleted: true})
}
