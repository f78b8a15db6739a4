package gtmgate

import (
	"context"
	"time"
)

// OAuth token kinds, the Kind of an OAuthToken.
const (
	OAuthAccessToken  = "access"
	OAuthRefreshToken = "refresh"
)

// OAuthClient is an OAuth client registered with the gateway's authorization
// server (RFC 7591). Clients identified by a metadata document URL are not
// stored. SecretHash is the SHA-256 hex of the client secret, empty for
// public clients.
type OAuthClient struct {
	ID           string    `json:"client_id"`
	SecretHash   string    `json:"-"`
	Name         string    `json:"client_name,omitempty"`
	RedirectURIs []string  `json:"redirect_uris"`
	AuthMethod   string    `json:"token_endpoint_auth_method"`
	Scope        string    `json:"scope,omitempty"`
	CreatedAt    time.Time `json:"client_id_issued_at"`
}

// OAuthCode is an authorization code, stored as the SHA-256 hex of its value
// and bound to everything the token request must repeat. FamilyID names the
// tokens issued from it, so a replayed code can revoke them.
type OAuthCode struct {
	Hash          string
	FamilyID      string
	ClientID      string
	RedirectURI   string
	CodeChallenge string // S256 challenge
	Scopes        []string
	TenantID      string
	Resource      string
	CreatedAt     time.Time
	ExpiresAt     time.Time
	UsedAt        *time.Time
	// ConsentedBy is the actor key of the person who consented
	// ("person:<id>"), "" when a tenant token or connect code did.
	ConsentedBy string
	// Toolset limits the grant's agent to one of the tenant's toolsets:
	// the toolset of the tenant token that proved the tenant, or the one a
	// signed-in person chose ("" none).
	Toolset string
}

// OAuthToken is an access or refresh token, stored as the SHA-256 hex of its
// value. Tokens of one grant share a FamilyID: the tokens issued from one
// authorization code and every rotation of its refresh token.
type OAuthToken struct {
	ID        string
	Hash      string
	Kind      string // OAuthAccessToken or OAuthRefreshToken
	FamilyID  string
	TenantID  string
	ClientID  string
	Scopes    []string
	Resource  string // the audience: the protected resource the token is for
	CreatedAt time.Time
	ExpiresAt time.Time
	// UsedAt is when a refresh token was rotated (exchanged for new tokens).
	UsedAt    *time.Time
	RevokedAt *time.Time
	// ConsentedBy is the grant's consenting person (see OAuthCode).
	ConsentedBy string
	// Toolset is the grant's toolset (see OAuthCode).
	Toolset string
}

// ConnectCode is a one-time code an operator hands to a person so that they
// can authorize an OAuth client for a tenant without a tenant token. Only its
// SHA-256 hex is stored.
type ConnectCode struct {
	Hash      string
	TenantID  string
	CreatedAt time.Time
	ExpiresAt time.Time
	UsedAt    *time.Time
}

// OAuthStore keeps the state of the gateway's OAuth authorization server.
// Every time that matters is passed in, so callers control the clock.
type OAuthStore interface {
	// CreateOAuthClient stores a registered client; ErrConflict when its id exists.
	CreateOAuthClient(ctx context.Context, c *OAuthClient) error
	// GetOAuthClient returns ErrNotFound for an unknown id.
	GetOAuthClient(ctx context.Context, id string) (*OAuthClient, error)

	// CreateOAuthCode stores an authorization code; ErrConflict when the hash
	// exists, ErrNotFound when the tenant does not.
	CreateOAuthCode(ctx context.Context, c *OAuthCode) error
	// ConsumeOAuthCode marks the code used at at and returns it, exactly once:
	// of concurrent calls one wins. A code already used returns ErrConflict
	// and, in the same transaction, revokes every token of its family. An
	// unknown hash returns ErrNotFound. Expiry is the caller's to check.
	ConsumeOAuthCode(ctx context.Context, hash string, at time.Time) (*OAuthCode, error)

	// CreateOAuthTokens stores tokens in one transaction; ErrConflict when a
	// hash or id exists, ErrNotFound when the tenant does not.
	CreateOAuthTokens(ctx context.Context, ts ...*OAuthToken) error
	// FindOAuthToken returns the token with this hash, revoked, used and
	// expired ones included (the caller decides), or ErrNotFound.
	FindOAuthToken(ctx context.Context, hash string) (*OAuthToken, error)
	// RotateRefreshToken marks the refresh token with oldHash used and stores
	// next, in one transaction. When the old token was already used or
	// revoked it stores nothing, revokes the token's whole family and returns
	// ErrConflict. An unknown hash returns ErrNotFound.
	RotateRefreshToken(ctx context.Context, oldHash string, at time.Time, next ...*OAuthToken) error
	// RevokeOAuthToken revokes one token by id; revoking twice keeps the first
	// time. ErrNotFound for an unknown id.
	RevokeOAuthToken(ctx context.Context, id string, at time.Time) error
	// RevokeOAuthFamily revokes every token of a family and reports how many
	// were live.
	RevokeOAuthFamily(ctx context.Context, familyID string, at time.Time) (int64, error)

	// CreateConnectCode stores a connect code; ErrConflict when the hash
	// exists, ErrNotFound when the tenant does not.
	CreateConnectCode(ctx context.Context, c *ConnectCode) error
	// ConsumeConnectCode marks an unused connect code that has not expired at
	// at as used and returns it, exactly once. Unknown, used and expired codes
	// all return ErrNotFound.
	ConsumeConnectCode(ctx context.Context, hash string, at time.Time) (*ConnectCode, error)

	// ListOAuthGrants lists the clients holding live (unexpired, unrevoked)
	// tokens for a tenant at at, by client id.
	ListOAuthGrants(ctx context.Context, tenantID string, at time.Time) ([]OAuthGrant, error)
	// RevokeOAuthGrant revokes every token a client holds for a tenant and
	// reports how many; ErrNotFound when it holds no live token.
	RevokeOAuthGrant(ctx context.Context, tenantID, clientID string, at time.Time) (int64, error)
}
