package gtmgate

import (
	"context"
	"time"
)

// OAuthApp is the operator's OAuth client at a provider, through which
// tenants' account owners connect their accounts (connect links). A
// gateway-wide app has TenantID ""; a tenant's own app (white-label) takes
// precedence for that tenant. Provider is the name connect flows use:
// "google" (every Google tool), "hubspot", "meta", "linkedin".
type OAuthApp struct {
	Provider string `json:"provider"`
	TenantID string `json:"tenant_id,omitempty"`
	ClientID string `json:"client_id"`
	// ClientSecret is sealed at rest and never shown.
	ClientSecret string `json:"-"`
	// ExtraScopes are asked for on top of the scopes the tenant's tools need.
	ExtraScopes []string  `json:"extra_scopes,omitempty"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
}

// Connect link states, a ConnectLink's Status.
const (
	ConnectCreated = "created" // made, not opened yet
	ConnectOpened  = "opened"  // sent to the provider's consent page
	// ConnectExchanging: the provider answered and one replica claimed the
	// answer to exchange its code (a code can be exchanged once; a second
	// delivery of the same answer is refused with 409 before it tries).
	ConnectExchanging = "exchanging"
	ConnectChoosing   = "choosing"  // consent given; the person picks the accounts to connect
	ConnectCompleted  = "completed" // accounts connected
	ConnectFailed     = "failed"    // refused, denied or failed; Result says why
)

// ConnectLink is a single-use link that lets an account's owner connect a
// tenant's provider account without a token passing through anyone's
// hands. The secret in its URL is stored only as TokenHash (SHA-256 hex);
// the OAuth state sent to the provider only as StateHash.
type ConnectLink struct {
	ID          string `json:"id"`
	TokenHash   string `json:"-"`
	TenantID    string `json:"tenant_id"`
	Provider    string `json:"provider"`
	AccountHint string `json:"account_hint,omitempty"`
	// Products are the provider keys of the family the link connects
	// ("google_ads"); empty for every product of the family.
	Products []string `json:"products,omitempty"`
	// Person, when set, is the person ("p_…") whose own accounts the link
	// connects: the rep connects their own mailbox, which only agents
	// acting for them reach.
	Person string   `json:"person,omitempty"`
	Scopes []string `json:"scopes"`
	Status string   `json:"status"`
	// StateHash is the SHA-256 hex of the state sent to the provider, set
	// when the link is opened.
	StateHash string `json:"-"`
	// Secret holds what the flow must keep between its steps and nobody
	// may read: the PKCE verifier while opened, the tokens while the person
	// chooses accounts. Sealed at rest; cleared when the link finishes.
	Secret    string     `json:"-"`
	CreatedBy string     `json:"created_by"`
	CreatedAt time.Time  `json:"created_at"`
	ExpiresAt time.Time  `json:"expires_at"`
	OpenedAt  *time.Time `json:"opened_at,omitempty"`
	// FinishedAt is when it completed or failed.
	FinishedAt *time.Time `json:"finished_at,omitempty"`
	// Result says what was connected, or why it failed; never a token.
	Result string `json:"result,omitempty"`
}

// ConnectStore keeps OAuth apps and connect links.
type ConnectStore interface {
	// PutOAuthApp creates or replaces the app of (TenantID, Provider).
	PutOAuthApp(ctx context.Context, a *OAuthApp) (created bool, err error)
	// GetOAuthApp returns ErrNotFound when (tenantID, provider) has no app;
	// it does not fall back from a tenant to the gateway-wide app.
	GetOAuthApp(ctx context.Context, tenantID, provider string) (*OAuthApp, error)
	// ListOAuthApps returns every app, gateway-wide and per tenant, secrets included.
	ListOAuthApps(ctx context.Context) ([]*OAuthApp, error)
	// DeleteOAuthApp returns ErrNotFound when there is no such app.
	DeleteOAuthApp(ctx context.Context, tenantID, provider string) error

	// CreateConnectLink stores a new link; ErrConflict when its id or token hash exists.
	CreateConnectLink(ctx context.Context, l *ConnectLink) error
	// GetConnectLink finds a link by its token hash; ErrNotFound when none.
	GetConnectLink(ctx context.Context, tokenHash string) (*ConnectLink, error)
	// GetConnectLinkByState finds a link by its state hash; ErrNotFound when none.
	GetConnectLinkByState(ctx context.Context, stateHash string) (*ConnectLink, error)
	// ListConnectLinks returns a tenant's links (all tenants for ""), newest first.
	ListConnectLinks(ctx context.Context, tenantID string, limit int) ([]*ConnectLink, error)
	// AdvanceConnectLink moves link id from status from to l's Status,
	// storing l's StateHash, Secret, OpenedAt, FinishedAt and Result, in one
	// compare-and-set: ErrConflict when the link is not in status from any
	// more (used, replayed, raced), ErrNotFound when there is no such link.
	AdvanceConnectLink(ctx context.Context, from string, l *ConnectLink) error
}
