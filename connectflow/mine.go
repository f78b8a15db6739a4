package connectflow

import (
	"net/http"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// MineBody is the body of POST /admin/tenants/{tenant_id}/connect-links/mine.
// It names no person: the link is always the caller's own.
type MineBody struct {
	// Provider is the family or one of its products, as in CreateBody.
	Provider string `json:"provider"`
	// Products narrows the link to these products of the family.
	Products []string `json:"products,omitempty"`
	// ReadOnly asks for read scopes only.
	ReadOnly bool `json:"read_only,omitempty"`
}

// createMine serves POST /admin/tenants/{tenant_id}/connect-links/mine: a
// link through which the signed-in person connects an account of their
// own, which only agents acting for them reach. Any role in the tenant may
// (admin/access.go): it changes nothing of anyone else's, and the link
// never takes over an account the tenant shares or another person owns
// (save). The admin key and named admin keys are no person, so have no
// account of their own.
func (f *Flow) createMine(w http.ResponseWriter, r *http.Request) {
	a := gtmgate.ActorFromContext(r.Context())
	if a == nil || a.Kind != gtmgate.ActorPerson || a.ID == "" {
		name := "this caller"
		if a != nil {
			name = a.Name
		}
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EForbidden, "%s is no person, so has no account of its own to connect", name).
			WithHint("sign in to the console as yourself through your identity provider; to connect an account for a person, "+
				"POST /admin/tenants/{tenant_id}/connect-links with \"person\""))
		return
	}
	var body MineBody
	if err := jsonapi.Decode(w, r, f.opts.MaxBodyBytes, &body); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	f.issue(w, r, CreateBody{Provider: body.Provider, Products: body.Products, ReadOnly: body.ReadOnly, Person: a.ID})
}
