package gtmgate

import (
	"context"
	"time"
)

// Credential kinds: what a schedule or an agent run acts for.
const (
	// CredentialAdmin is the admin key (an operator): every right of the
	// tenant, never revoked.
	CredentialAdmin = "admin"
	// CredentialToken is a tenant bearer token; its ID is the token's id.
	CredentialToken = "token"
	// CredentialOAuth is an OAuth grant; its ID is the grant's token family
	// (every token issued from one authorization and its refreshes).
	CredentialOAuth = "oauth"
)

// Credential names the credential a schedule was created with, or an agent
// run started with: what they act for, and what revoking stops them.
type Credential struct {
	Kind string `json:"kind"`
	// ID is the token id or the OAuth grant id; empty for the admin key.
	ID string `json:"id,omitempty"`
	// ClientID is the OAuth client holding the grant.
	ClientID string `json:"client_id,omitempty"`
	// Toolset is the tenant toolset the credential's agent is limited to
	// ("" none): runs and schedules it starts carry it, so they can never do
	// more than the agent itself.
	Toolset string `json:"toolset,omitempty"`
	// Person is the person ("p_…") the credential's agent acts for: runs
	// and schedules it starts reach that person's accounts and no other's.
	Person string `json:"person,omitempty"`
}

// ReachesEveryAccount reports whether c acts for the tenant as a whole (the
// admin key, an operator): every account, shared or a person's. An agent
// (a token, an OAuth grant, what they start) reaches only the shared
// accounts and those of the person it acts for.
func (c Credential) ReachesEveryAccount() bool {
	return c.Kind != CredentialToken && c.Kind != CredentialOAuth
}

// Revocable reports whether the credential can be revoked (a token or an
// OAuth grant), and so must be checked before acting for it.
func (c *Credential) Revocable() bool {
	return c != nil && (c.Kind == CredentialToken || c.Kind == CredentialOAuth) && c.ID != ""
}

// String describes the credential for people: "tenant token tok_…",
// "OAuth grant … of client …", "the admin key".
func (c *Credential) String() string {
	switch {
	case c == nil || c.Kind == "":
		return "no recorded credential"
	case c.Kind == CredentialToken:
		return "tenant token " + c.ID
	case c.Kind == CredentialOAuth:
		return "OAuth grant " + c.ID + " of client " + c.ClientID
	}
	return "the admin key"
}

// CredentialStore answers whether a credential still stands.
type CredentialStore interface {
	// CredentialRevoked returns when c, a revocable credential of tenantID,
	// was revoked, or nil while it stands at at. A tenant token is revoked
	// when its revoked_at is set; an OAuth grant once it holds no live
	// token (unrevoked, unspent, unexpired) and at least one was revoked —
	// a grant that merely lapsed, or whose expired tokens were deleted, is
	// not revoked. An unknown token is ErrNotFound.
	CredentialRevoked(ctx context.Context, tenantID string, c Credential, at time.Time) (*time.Time, error)
}

// RevocationListener is told, after a credential of tenantID was revoked,
// to stop what acts for it (schedules, agent runs). tenantID "" means any
// tenant. It must not fail the revocation: it logs its own errors, and the
// schedules and runs check their credential again before each step.
type RevocationListener func(ctx context.Context, tenantID string)
