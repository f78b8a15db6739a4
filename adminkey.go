package gtmgate

import (
	"context"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// AdminKeyScopes lists the scopes a named admin key may hold, in the order they
// are shown.
var AdminKeyScopes = []string{ScopeRead, ScopeApprove, ScopeWrite}

// Admin key statuses, as the admin API shows them.
const (
	AdminKeyActive  = "active"
	AdminKeyExpired = "expired"
	AdminKeyRevoked = "revoked"
)

// AdminKeyTouchInterval is how stale an admin key's LastUsedAt may be: a
// key in use is written at most this often, not on every request.
const AdminKeyTouchInterval = time.Minute

// Limits of a named admin key's text.
const (
	maxAdminKeyName  = 64
	maxAdminKeyOwner = 254
)

// AdminKey is a named admin API key of a person or an automation, besides
// the bootstrap ADMIN_API_KEY: what it may do (its scopes), optionally on
// which tenants, until when. Only the SHA-256 of the key is stored; Prefix
// (its first characters) names it in lists and messages.
type AdminKey struct {
	ID string `json:"id"`
	// Name is unique among the keys not revoked.
	Name string `json:"name"`
	// Owner is who answers for the key: a person's email, a team.
	Owner  string `json:"owner"`
	Prefix string `json:"prefix"`
	// Hash is the SHA-256 hex of the key.
	Hash string `json:"-"`
	// Scopes are some of read, approve and write.
	Scopes []string `json:"scopes"`
	// Tenants limit the key to these tenants; none: every tenant and, with
	// the write scope, the operator's routes.
	Tenants   []string  `json:"tenants,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	// CreatedBy is the creating actor's AuditKey.
	CreatedBy string `json:"created_by"`
	// ExpiresAt is nil for a key that does not expire.
	ExpiresAt  *time.Time `json:"expires_at,omitempty"`
	RevokedAt  *time.Time `json:"revoked_at,omitempty"`
	LastUsedAt *time.Time `json:"last_used_at,omitempty"`
}

// Validate checks the key's shape: a name of 1 to 64 printable
// characters, an owner, a non-empty set of known scopes, and tenant ids
// that are each named once.
func (k *AdminKey) Validate() error {
	if err := printableText("name", k.Name, maxAdminKeyName); err != nil {
		return err
	}
	if err := printableText("owner", k.Owner, maxAdminKeyOwner); err != nil {
		return err
	}
	if len(k.Scopes) == 0 {
		return Errorf(EValidation, "scopes must hold at least one of read, approve and write")
	}
	for i, s := range k.Scopes {
		if !slices.Contains(AdminKeyScopes, s) {
			return Errorf(EValidation, "scopes[%d] %q is not read, approve or write", i, s)
		}
		if slices.Index(k.Scopes, s) < i {
			return Errorf(EValidation, "scopes names %s twice", s)
		}
	}
	for i, t := range k.Tenants {
		if t == "" || strings.ContainsFunc(t, unicode.IsSpace) {
			return Errorf(EValidation, "tenants[%d] %q is not a tenant id", i, t)
		}
		if slices.Index(k.Tenants, t) < i {
			return Errorf(EValidation, "tenants names %s twice", t)
		}
	}
	return nil
}

// printableText checks that a field is 1 to max printable characters
// without surrounding spaces.
func printableText(field, v string, max int) error {
	switch {
	case v == "":
		return Errorf(EValidation, "%s is required", field)
	case !utf8.ValidString(v) || utf8.RuneCountInString(v) > max || strings.ContainsFunc(v, func(r rune) bool { return !unicode.IsPrint(r) }):
		return Errorf(EValidation, "%s must be 1 to %d printable characters", field, max)
	case strings.TrimSpace(v) != v:
		return Errorf(EValidation, "%s %q starts or ends with a space", field, v)
	}
	return nil
}

// Status is the key's state at now: revoked, expired (ExpiresAt at or
// before now) or active.
func (k *AdminKey) Status(now time.Time) string {
	switch {
	case k.RevokedAt != nil:
		return AdminKeyRevoked
	case k.ExpiresAt != nil && !now.Before(*k.ExpiresAt):
		return AdminKeyExpired
	}
	return AdminKeyActive
}

// Actor is the actor of a request made with the key, signed in via how.
func (k *AdminKey) Actor(via string) *Actor {
	return &Actor{Kind: ActorAPIKey, ID: k.ID, Name: k.Name, Via: via,
		Scopes: slices.Clone(k.Scopes), Tenants: slices.Clone(k.Tenants)}
}

// AdminKeyStore keeps named admin API keys, by the SHA-256 of the key.
type AdminKeyStore interface {
	// CreateAdminKey stores a new key (ID and CreatedAt are set when
	// empty); VALIDATION_ERROR when Validate refuses it, ErrConflict when
	// its id or hash exists or a key not revoked has its name (a revoked
	// key's name may be taken again).
	CreateAdminKey(ctx context.Context, k *AdminKey) error
	// FindAdminKey returns the key whose hash is hash, revoked and expired
	// ones included (the caller says which), or ErrNotFound.
	FindAdminKey(ctx context.Context, hash string) (*AdminKey, error)
	// ListAdminKeys returns every key, revoked ones included, oldest first.
	ListAdminKeys(ctx context.Context) ([]*AdminKey, error)
	// RevokeAdminKey marks the key revoked at at; ErrNotFound when no key
	// has the id or it is already revoked.
	RevokeAdminKey(ctx context.Context, id string, at time.Time) error
	// TouchAdminKey sets the key's LastUsedAt to at unless it is already
	// less than AdminKeyTouchInterval before at. An unknown id touches
	// nothing and is no error: it returns only the store's failures.
	TouchAdminKey(ctx context.Context, id string, at time.Time) error
}
