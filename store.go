package gtmgate

import (
	"context"
	"time"
)

// Store is everything gtmgate keeps. Implementations: sqlite (default) and
// postgres; both pass the behavioural suite in storetest. Methods return
// ErrNotFound and ErrConflict (wrapped) for those conditions.
type Store interface {
	TenantStore
	TokenStore
	AuditStore
	AuditJournalStore
	UsageStore
	LedgerStore
	FeedbackStore
	ApprovalStore
	ProviderOAuthStore
	OAuthStore
	QualityStore
	AgentStore
	BillingStore
	OperationsStore
	RetentionStore
	ConsoleStore
	PeopleStore
	AdminKeyStore
	CredentialStore
	ConnectStore
	MCPServerStore
	// Ping checks that the store is reachable.
	Ping(ctx context.Context) error
	// Close releases the store.
	Close() error
}

// TenantStore keeps tenant configurations.
type TenantStore interface {
	// GetTenant returns ErrNotFound for an unknown id.
	GetTenant(ctx context.Context, id string) (*Tenant, error)
	// PutTenant creates or replaces a tenant; created reports which.
	PutTenant(ctx context.Context, t *Tenant) (created bool, err error)
	// ListTenants returns all tenants ordered by id.
	ListTenants(ctx context.Context) ([]*Tenant, error)
}

// TokenStore keeps tenant bearer tokens (hashed) and provider tokens (encrypted).
type TokenStore interface {
	// CreateTenantToken stores a new token; ErrConflict when the hash exists.
	CreateTenantToken(ctx context.Context, t *TenantToken) error
	// FindTenantToken returns the unrevoked token with this SHA-256 hash, or ErrNotFound.
	FindTenantToken(ctx context.Context, hash string) (*TenantToken, error)
	// ListTenantTokens returns a tenant's tokens, revoked ones included, oldest first.
	ListTenantTokens(ctx context.Context, tenantID string) ([]*TenantToken, error)
	// RevokeTenantToken marks a token revoked; ErrNotFound when the tenant has no such token.
	RevokeTenantToken(ctx context.Context, tenantID, tokenID string, at time.Time) error

	// PutProviderToken creates or replaces the token of one provider account.
	PutProviderToken(ctx context.Context, t *ProviderToken) error
	// GetProviderToken returns ErrNotFound when no token is stored.
	GetProviderToken(ctx context.Context, tenantID, provider, accountID string) (*ProviderToken, error)
	// ListProviderTokens describes a tenant's stored provider tokens, secrets
	// left out, by provider and account.
	ListProviderTokens(ctx context.Context, tenantID string) ([]ProviderTokenInfo, error)
}

// AuditStore keeps the audit log and the usage meter. WriteCalls writes audit
// entries and usage events in one transaction: a call's response is sent only
// after it returns, so an acknowledged call is never lost.
type AuditStore interface {
	WriteCalls(ctx context.Context, audit []AuditEntry, usage []UsageEvent) error
	// QueryAudit returns entries newest first and the cursor of the next page
	// (0 = none). A filter Validate refuses is VALIDATION_ERROR.
	QueryAudit(ctx context.Context, f AuditFilter) ([]AuditEntry, int64, error)
	// FollowAudit returns entries after a follow cursor ("" = from the
	// first), oldest first in commit order, and the cursor to pass next. It
	// never skips an entry that commits after a later one was returned. An
	// unreadable cursor is ErrInvalidCursor (wrapped); a filter Validate
	// refuses is VALIDATION_ERROR.
	FollowAudit(ctx context.Context, f AuditFilter, after string) ([]AuditEntry, string, error)
	// AuditStats counts entries over the 24 h, 7 d and 30 d before now.
	AuditStats(ctx context.Context, now time.Time) (*AuditStats, error)
}

// AuditJournalStore records how far each local audit journal has been
// written into the store. A journal is an append-only file of calls that were
// acknowledged before they reached the store; its mark is a byte offset.
type AuditJournalStore interface {
	// ApplyJournal writes the calls read from bytes [from, to) of the named
	// journal and moves its mark from from to to, in one transaction. When the
	// mark already stands at or past to it writes nothing: that range was
	// applied before. Any other mark is an ErrConflict.
	ApplyJournal(ctx context.Context, journal string, from, to int64, audit []AuditEntry, usage []UsageEvent) error
	// JournalMark returns the named journal's mark, 0 when it has none.
	JournalMark(ctx context.Context, journal string) (int64, error)
	// ForgetJournal drops the mark of a journal whose file is gone.
	ForgetJournal(ctx context.Context, journal string) error
}

// UsageStore reads the usage meter.
type UsageStore interface {
	// ListUsage returns a tenant's usage events in [From, To).
	ListUsage(ctx context.Context, q UsageQuery) ([]UsageEvent, error)
}

// LedgerStore keeps the error ledger.
type LedgerStore interface {
	AddLedgerEntry(ctx context.Context, e *LedgerEntry) error
	// GetLedgerEntry returns ErrNotFound for an unknown id.
	GetLedgerEntry(ctx context.Context, id string) (*LedgerEntry, error)
	ListLedger(ctx context.Context, f LedgerFilter) ([]*LedgerEntry, error)
	// AddLedgerReplay appends a replay outcome. When the entry is a mutation and
	// already has a successful or pending replay and r is not forced, it returns
	// ErrConflict without writing.
	AddLedgerReplay(ctx context.Context, id string, r LedgerReplay) error
}

// FeedbackStore keeps agent feedback.
type FeedbackStore interface {
	AddFeedback(ctx context.Context, f *Feedback) error
	ListFeedback(ctx context.Context, f FeedbackFilter) ([]*Feedback, error)
	// ResolveFeedback marks an entry resolved; ErrNotFound for an unknown id.
	ResolveFeedback(ctx context.Context, id, by string, at time.Time) (*Feedback, error)
}

// ApprovalStore keeps approval gates.
type ApprovalStore interface {
	CreateApproval(ctx context.Context, a *Approval) error
	// GetApproval returns ErrNotFound for an unknown id.
	GetApproval(ctx context.Context, id string) (*Approval, error)
	ListApprovals(ctx context.Context, f ApprovalFilter) ([]*Approval, error)
	// DecideApproval moves a pending, unexpired gate to d.Status atomically. A
	// gate in any other state returns ErrConflict and the gate as it is, so two
	// concurrent approvals never both succeed. An expired pending gate becomes
	// expired and returns ErrConflict. An approval of a gate that requires
	// more than one (Approval.ApprovalsRequired) is added to its Approvals,
	// compared and set with them, and the gate stays pending until the last;
	// one from a decider who already approved it returns ErrConflict and
	// the gate, still pending.
	DecideApproval(ctx context.Context, d ApprovalDecision) (*Approval, error)
	// ExpireApprovals marks every pending gate whose deadline is at or
	// before now expired, at most limit of them, and returns how many.
	ExpireApprovals(ctx context.Context, now time.Time, limit int) (int64, error)
	// FinishApproval stores the outcome of an approved gate's execution
	// (status executed or failed); ErrConflict unless it is approved.
	FinishApproval(ctx context.Context, id, status string, result []byte) error
	// WithdrawApprovals moves every pending, unexpired gate of w's run to
	// withdrawn, with the reason, in one statement, and reports how many.
	WithdrawApprovals(ctx context.Context, w ApprovalWithdrawal) (int64, error)
}

// ProviderOAuth configures the durable refresh of one provider account's token.
// ClientSecret and RefreshToken are plaintext in memory and encrypted at rest.
type ProviderOAuth struct {
	TenantID      string `json:"tenant_id"`
	Provider      string `json:"provider"`
	AccountID     string `json:"account_id"`
	ClientID      string `json:"client_id"`
	ClientSecret  string `json:"-"`
	TokenEndpoint string `json:"token_endpoint"`
	RefreshToken  string `json:"-"`
	// Resource is the canonical URI of the upstream MCP server an "mcp:"
	// grant is for (RFC 8707): every refresh names it. Empty otherwise.
	Resource      string     `json:"resource,omitempty"`
	NeedsReauth   bool       `json:"needs_reauth"`
	LastError     string     `json:"last_error,omitempty"`
	LastRefreshAt *time.Time `json:"last_refresh_at,omitempty"`
	UpdatedAt     time.Time  `json:"updated_at"`
}

// ProviderOAuthStore keeps OAuth refresh credentials and coordinates refreshers.
type ProviderOAuthStore interface {
	PutProviderOAuth(ctx context.Context, o *ProviderOAuth) error
	// GetProviderOAuth returns ErrNotFound when the account has no seeding record.
	GetProviderOAuth(ctx context.Context, tenantID, provider, accountID string) (*ProviderOAuth, error)
	// ListProviderOAuth returns every seeding record (all tenants when tenantID is empty).
	ListProviderOAuth(ctx context.Context, tenantID string) ([]*ProviderOAuth, error)
	// ClaimRefresh takes the refresh lease of one account until leaseUntil if no
	// other holder's lease is live at now; it reports whether it got the lease.
	ClaimRefresh(ctx context.Context, tenantID, provider, accountID, holder string, now, leaseUntil time.Time) (bool, error)
	// CompleteRefresh stores a refresh's outcome (new token, rotated refresh
	// token, or failure) and releases the lease, in one transaction.
	CompleteRefresh(ctx context.Context, r RefreshResult) error
}

// RefreshResult is the outcome of one provider token refresh.
type RefreshResult struct {
	TenantID, Provider, AccountID string
	At                            time.Time
	// Token is the new access token on success, nil on failure.
	Token *ProviderToken
	// RotatedRefreshToken replaces the stored refresh token when not empty.
	RotatedRefreshToken string
	// Err is set on failure; NeedsReauth marks the account as needing re-authorisation.
	Err         string
	NeedsReauth bool
}
