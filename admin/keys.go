package admin

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
	"github.com/gtmgate/gtmgate/secret"
)

// AdminKeyPrefix starts every named admin key, so that one pasted where it
// should not be is recognised (by people and by secret scanners).
const AdminKeyPrefix = "gtmak_"

// adminKeyShown is how many leading characters of a named key its Prefix
// keeps: AdminKeyPrefix and 6 random ones, enough to tell keys apart.
const adminKeyShown = 12

// AdminKeyBody is POST /admin/admin-keys's body. An expiry is optional and
// has no upper bound: a key without one lasts until it is revoked.
type AdminKeyBody struct {
	// Name is 1 to 64 printable characters, unique among the keys not revoked.
	Name string `json:"name"`
	// Owner answers for the key; default: the creating actor's name.
	Owner string `json:"owner,omitempty"`
	// Scopes are some of read, approve and write.
	Scopes []string `json:"scopes"`
	// Tenants limit the key to these tenants; none: every tenant and, with
	// write, the operator's routes.
	Tenants []string `json:"tenants,omitempty"`
	// ExpiresIn is a Go duration from now, e.g. "720h".
	ExpiresIn string `json:"expires_in,omitempty"`
	// ExpiresAt is an RFC 3339 time in the future; not with expires_in.
	ExpiresAt *time.Time `json:"expires_at,omitempty"`
}

// AdminKeyView is a named admin key as the admin API shows it: never its
// hash, and the key itself only once, when it is created.
type AdminKeyView struct {
	ID     string   `json:"id"`
	Name   string   `json:"name"`
	Owner  string   `json:"owner"`
	Prefix string   `json:"prefix"`
	Scopes []string `json:"scopes"`
	// Tenants is absent for a key limited to no tenant.
	Tenants []string `json:"tenants,omitempty"`
	// Status is active, expired or revoked.
	Status     string     `json:"status"`
	CreatedAt  time.Time  `json:"created_at"`
	CreatedBy  string     `json:"created_by"`
	ExpiresAt  *time.Time `json:"expires_at,omitempty"`
	RevokedAt  *time.Time `json:"revoked_at,omitempty"`
	LastUsedAt *time.Time `json:"last_used_at,omitempty"`
}

// AdminKeyList is the answer to GET /admin/admin-keys.
type AdminKeyList struct {
	AdminKeys []AdminKeyView `json:"admin_keys"`
}

// AdminKeyCreated is the answer to POST /admin/admin-keys: the key's view
// and the key, shown this once.
type AdminKeyCreated struct {
	AdminKeyView
	Key string `json:"key"`
}

// keyNow is the time of a key's creation or revocation at the stores'
// precision, so the answer shows what later listings will.
func (h *Handler) keyNow() time.Time { return h.opts.Now().UTC().Truncate(time.Microsecond) }

func (h *Handler) keyView(k *gtmgate.AdminKey) AdminKeyView {
	return AdminKeyView{ID: k.ID, Name: k.Name, Owner: k.Owner, Prefix: k.Prefix, Scopes: k.Scopes, Tenants: k.Tenants,
		Status: k.Status(h.opts.Now()), CreatedAt: k.CreatedAt, CreatedBy: k.CreatedBy, ExpiresAt: k.ExpiresAt,
		RevokedAt: k.RevokedAt, LastUsedAt: k.LastUsedAt}
}

// listAdminKeys serves GET /admin/admin-keys: every key, revoked ones
// included, oldest first.
func (h *Handler) listAdminKeys(w http.ResponseWriter, r *http.Request) {
	keys, err := h.opts.Store.ListAdminKeys(r.Context())
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	out := AdminKeyList{AdminKeys: make([]AdminKeyView, 0, len(keys))}
	for _, k := range keys {
		out.AdminKeys = append(out.AdminKeys, h.keyView(k))
	}
	jsonapi.Write(w, http.StatusOK, out)
}

// createAdminKey serves POST /admin/admin-keys: it makes the key, keeps
// its hash and answers the key once.
func (h *Handler) createAdminKey(w http.ResponseWriter, r *http.Request) {
	var body AdminKeyBody
	if err := jsonapi.Decode(w, r, h.opts.MaxBodyBytes, &body); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	actor, now := gtmgate.ActorFromContext(r.Context()), h.keyNow()
	k, err := validateAdminKey(&body, actor, now)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	if err := keyWithin(actor, k); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	for _, t := range k.Tenants {
		if _, err := h.tenant(r, t); err != nil {
			jsonapi.WriteError(w, r, err)
			return
		}
	}
	key, err := secret.NewToken(AdminKeyPrefix)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	k.ID, k.Hash, k.Prefix = gtmgate.NewID("ak_"), secret.HashToken(key), key[:adminKeyShown]
	k.CreatedAt, k.CreatedBy = now, actor.AuditKey()
	if err := h.opts.Store.CreateAdminKey(r.Context(), k); err != nil {
		if errors.Is(err, gtmgate.ErrConflict) {
			err = gtmgate.Errorf(gtmgate.EConflict, "an admin key named %q exists and is not revoked", k.Name).
				WithHint("choose another name, or revoke that key first (DELETE /admin/admin-keys/{key_id})")
		}
		jsonapi.WriteError(w, r, err)
		return
	}
	setAuditDetail(w, fmt.Sprintf("admin key %s (%s…) created: %s", k.Name, k.Prefix, keyReach(k)))
	jsonapi.Write(w, http.StatusCreated, AdminKeyCreated{AdminKeyView: h.keyView(k), Key: key})
}

// validateAdminKey checks a body made at now and returns the key it asks
// for, its scopes in the order of gtmgate.AdminKeyScopes and its tenants
// sorted.
func validateAdminKey(b *AdminKeyBody, actor *gtmgate.Actor, now time.Time) (*gtmgate.AdminKey, error) {
	k := &gtmgate.AdminKey{Name: b.Name, Owner: b.Owner, Scopes: b.Scopes, Tenants: b.Tenants}
	if k.Owner == "" {
		k.Owner = actor.Name
	}
	if err := k.Validate(); err != nil {
		return nil, err
	}
	for i, t := range k.Tenants {
		if !tenantIDPattern.MatchString(t) {
			return nil, gtmgate.Errorf(gtmgate.EValidation, "tenants[%d] %q is not a tenant id", i, t)
		}
	}
	slices.SortFunc(k.Scopes, func(a, b string) int {
		return slices.Index(gtmgate.AdminKeyScopes, a) - slices.Index(gtmgate.AdminKeyScopes, b)
	})
	slices.Sort(k.Tenants)
	switch {
	case b.ExpiresIn != "" && b.ExpiresAt != nil:
		return nil, gtmgate.Errorf(gtmgate.EValidation, "send expires_in or expires_at, not both")
	case b.ExpiresIn != "":
		d, err := time.ParseDuration(b.ExpiresIn)
		if err != nil || d <= 0 {
			return nil, gtmgate.Errorf(gtmgate.EValidation, "expires_in %q is not a positive duration", b.ExpiresIn).
				WithHint(`a Go duration such as "720h" (30 days) or "90m"`)
		}
		at := now.Add(d).Truncate(time.Microsecond)
		k.ExpiresAt = &at
	case b.ExpiresAt != nil:
		if !b.ExpiresAt.After(now) {
			return nil, gtmgate.Errorf(gtmgate.EValidation, "expires_at %s is not in the future", b.ExpiresAt.UTC().Format(time.RFC3339))
		}
		at := b.ExpiresAt.UTC().Truncate(time.Microsecond)
		k.ExpiresAt = &at
	}
	return k, nil
}

// keyWithin refuses a key wider than the named key creating it: a scope it
// lacks, a tenant outside its limit. An unlimited write key operates the
// gateway and may create any key; the route's operator access admits no
// other named key today, so this holds should that access ever widen.
func keyWithin(a *gtmgate.Actor, k *gtmgate.AdminKey) error {
	if a.Kind != gtmgate.ActorAPIKey || len(a.Tenants) == 0 && slices.Contains(a.Scopes, gtmgate.ScopeWrite) {
		return nil
	}
	for _, s := range k.Scopes {
		if !slices.Contains(a.Scopes, s) {
			return gtmgate.Errorf(gtmgate.EForbidden, "admin key %s has no %s scope: it cannot create a key that has", a.Name, s)
		}
	}
	if len(a.Tenants) == 0 {
		return nil
	}
	if len(k.Tenants) == 0 {
		return gtmgate.Errorf(gtmgate.EForbidden, "admin key %s is limited to tenants %s: it cannot create a key limited to none",
			a.Name, strings.Join(a.Tenants, ", ")).WithHint("send tenants, some of " + strings.Join(a.Tenants, ", "))
	}
	for _, t := range k.Tenants {
		if !slices.Contains(a.Tenants, t) {
			return gtmgate.Errorf(gtmgate.EForbidden, "admin key %s is limited to tenants %s: it cannot create a key for tenant %s",
				a.Name, strings.Join(a.Tenants, ", "), t)
		}
	}
	return nil
}

// revokeAdminKey serves DELETE /admin/admin-keys/{key_id}; the key is
// refused from its next request on.
func (h *Handler) revokeAdminKey(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("key_id")
	k, err := h.adminKey(r, id)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	if k.RevokedAt != nil {
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.ENotFound, "admin key %s (%s…) was already revoked at %s", k.Name, k.Prefix,
			k.RevokedAt.UTC().Format(time.RFC3339)))
		return
	}
	at := h.keyNow()
	if err := h.opts.Store.RevokeAdminKey(r.Context(), id, at); err != nil {
		if errors.Is(err, gtmgate.ErrNotFound) { // revoked meanwhile
			err = gtmgate.Errorf(gtmgate.ENotFound, "admin key %s (%s…) was already revoked", k.Name, k.Prefix)
		}
		jsonapi.WriteError(w, r, err)
		return
	}
	k.RevokedAt = &at
	setAuditDetail(w, fmt.Sprintf("admin key %s (%s…) revoked", k.Name, k.Prefix))
	jsonapi.Write(w, http.StatusOK, h.keyView(k))
}

// adminKey finds a key by id among the stored ones (there are a few dozen,
// not thousands); NOT_FOUND names it.
func (h *Handler) adminKey(r *http.Request, id string) (*gtmgate.AdminKey, error) {
	keys, err := h.opts.Store.ListAdminKeys(r.Context())
	if err != nil {
		return nil, err
	}
	if i := slices.IndexFunc(keys, func(k *gtmgate.AdminKey) bool { return k.ID == id }); i >= 0 {
		return keys[i], nil
	}
	return nil, gtmgate.Errorf(gtmgate.ENotFound, "no admin key %q", id).WithHint("list them with GET /admin/admin-keys")
}

// keyReach says what a key may do, for its audit entry.
func keyReach(k *gtmgate.AdminKey) string {
	reach := "scopes " + strings.Join(k.Scopes, " ")
	if len(k.Tenants) > 0 {
		reach += ", tenants " + strings.Join(k.Tenants, " ")
	}
	if k.ExpiresAt != nil {
		reach += ", expires " + k.ExpiresAt.UTC().Format(time.RFC3339)
	}
	return reach
}
