package gtmgate

import (
	"context"
	"time"
)

// ConsoleSession is a signed-in session in the console. Only the SHA-256
// hex of the session cookie's value is stored. A session opened with the
// break-glass admin key keeps the key's hash (KeyHash) and ends when the
// key changes; a person's session (PersonID) keeps what their IdP asserted
// at sign-in (Identity), against which their grants are read on every
// request.
type ConsoleSession struct {
	Hash      string
	KeyHash   string
	PersonID  string
	IdP       string
	Identity  Identity
	Address   string // the client address that signed in, for the audit
	CreatedAt time.Time
	ExpiresAt time.Time
}

// ConsoleStore keeps console sessions, so that sign-out ends a session on
// every replica.
type ConsoleStore interface {
	// CreateConsoleSession stores a session; ErrConflict when its hash exists.
	CreateConsoleSession(ctx context.Context, s *ConsoleSession) error
	// GetConsoleSession returns the session with hash unless it expired by
	// at; ErrNotFound otherwise.
	GetConsoleSession(ctx context.Context, hash string, at time.Time) (*ConsoleSession, error)
	// DeleteConsoleSession ends a session; ending an unknown one is not an
	// error.
	DeleteConsoleSession(ctx context.Context, hash string) error
}

// ProviderTokenInfo describes a stored provider token without its secret.
type ProviderTokenInfo struct {
	Provider  string     `json:"provider"`
	AccountID string     `json:"account_id"`
	TokenType string     `json:"token_type,omitempty"`
	ExpiresAt *time.Time `json:"expires_at,omitempty"`
	UpdatedAt time.Time  `json:"updated_at"`
}

// OAuthGrant is an OAuth client's standing access to one tenant: the tokens
// it holds that are neither expired nor revoked.
type OAuthGrant struct {
	ClientID string `json:"client_id"`
	// ClientName is the registered name; empty for a client identified by a
	// metadata document URL (its id is that URL).
	ClientName   string    `json:"client_name,omitempty"`
	Scopes       []string  `json:"scopes"`
	ActiveTokens int       `json:"active_tokens"`
	FirstIssued  time.Time `json:"first_issued_at"`
	LastIssued   time.Time `json:"last_issued_at"`
	ExpiresAt    time.Time `json:"expires_at"`
	// ConsentedBy lists the people who consented to the client's live
	// grants ("person:<id>"); empty when tenant tokens or connect codes did.
	ConsentedBy []string `json:"consented_by,omitempty"`
	// Agents are the client's live grants: each grant is an agent, and its
	// calls carry its key.
	Agents []OAuthAgent `json:"agents"`
}

// OAuthAgent is one OAuth grant as an agent.
type OAuthAgent struct {
	// Key is "oauth:<grant id>", what its calls' audit entries carry.
	Key string `json:"key"`
	// ConsentedBy is the person who consented to it ("person:<id>"), the
	// person it acts for; empty when a tenant token or connect code did.
	ConsentedBy string `json:"consented_by,omitempty"`
	// Toolset is the tenant toolset the grant is limited to ("" none).
	Toolset string `json:"toolset,omitempty"`
}
