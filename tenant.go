package gtmgate

import "time"

// TenantStatus values. Only active tenants may call tools.
const (
	TenantActive    = "active"
	TenantSuspended = "suspended"
)

// Tenant is one client of the operator: its name, status and provider accounts.
type Tenant struct {
	ID        string                      `json:"id"`
	Name      string                      `json:"name"`
	Status    string                      `json:"status"`
	Providers map[string]ProviderAccounts `json:"providers"`
	// AllowedModels, when not empty, limits chat completions to these models.
	AllowedModels []string `json:"allowed_models,omitempty"`
	// Approval overrides the default approval policy.
	Approval *ApprovalPolicy `json:"approval_policy,omitempty"`
	// Production marks a tenant whose calls matter most: the quality
	// harness samples its calls at a raised rate.
	Production bool `json:"production,omitempty"`
	// RateLimits bound the tenant's requests per second.
	RateLimits *RateLimits `json:"rate_limits,omitempty"`
	// Limits bound the tenant's runs, schedules and run steps (nil: the
	// gateway's defaults).
	Limits *TenantLimits `json:"limits,omitempty"`
	// Toolsets are the tenant's named cuts of its tools and accounts, given
	// to agents (tokens) by name.
	Toolsets  map[string]*Toolset `json:"toolsets,omitempty"`
	CreatedAt time.Time           `json:"created_at"`
	UpdatedAt time.Time           `json:"updated_at"`
}

// ProviderAccounts lists a tenant's accounts at one provider and which is the default.
type ProviderAccounts struct {
	Accounts []Account `json:"accounts"`
	Default  string    `json:"default"`
}

// Account is one provider account (a HubSpot portal, a Google Ads customer, a GA4 property…).
type Account struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	// LoginCustomerID is, for a Google Ads customer reached through a manager
	// account, that manager's customer id (sent as login-customer-id).
	LoginCustomerID string `json:"login_customer_id,omitempty"`
	// Person is the person of the tenant ("p_…") whose own account this is
	// (their mailbox, their calendar): only agents acting for that person
	// reach it, and it is their default. "" for an account the tenant shares.
	Person string `json:"person,omitempty"`
}

// MayUse reports whether an agent acting for person ("" for none) may act
// on a: a shared account, or the person's own.
func (a Account) MayUse(person string) bool {
	return a.Person == "" || a.Person == person
}

// Account returns the account with the given id, or the default when id is empty.
func (p ProviderAccounts) Account(id string) (Account, bool) {
	if id == "" {
		id = p.Default
	}
	for _, a := range p.Accounts {
		if a.ID == id {
			return a, true
		}
	}
	return Account{}, false
}

// ApprovalPolicy says which calls need a human's approval before they run.
type ApprovalPolicy struct {
	// Categories gated, for example ads_mutate, email_send.
	Categories []string `json:"categories"`
	// Actions gated, as "tool.action", for example calendar_events.delete.
	Actions []string `json:"actions"`
	// Destructive gates every action marked destructive.
	Destructive bool `json:"destructive"`
	// NoSelfApproval refuses an approval from the person the held call's
	// agent acts for: someone else must decide their agent's call.
	NoSelfApproval bool `json:"no_self_approval,omitempty"`
	// TwoApproversForDestructive makes a held call of an action marked
	// destructive wait for two approvals by different deciders before it
	// runs; rejecting still takes one.
	TwoApproversForDestructive bool `json:"two_approvers_for_destructive,omitempty"`
	// Routes send the notices of the gates they match to their webhooks,
	// naming their approvers (see ApprovalRoute). They decide where a gate
	// is announced, not whether a call is held.
	Routes []ApprovalRoute `json:"routes,omitempty"`
}

// DefaultApprovalPolicy gates ad changes, outgoing email and destructive actions.
func DefaultApprovalPolicy() ApprovalPolicy {
	return ApprovalPolicy{Categories: []string{string(CategoryAdsMutate), string(CategoryEmailSend)}, Destructive: true}
}

// TenantToken is a bearer credential of a tenant. Only its hash is stored.
type TenantToken struct {
	ID       string `json:"id"`
	TenantID string `json:"tenant_id"`
	Hash     string `json:"-"`
	Prefix   string `json:"prefix"`
	Label    string `json:"label,omitempty"`
	// Toolset names the tenant toolset that limits what the token's agent
	// sees and calls; "" for every tool and account.
	Toolset string `json:"toolset,omitempty"`
	// Person is the person of the tenant ("p_…") the token's agent acts
	// for: it reaches their own accounts and the shared ones, never another
	// person's. "" for an agent of the tenant (shared accounts only).
	Person string `json:"person,omitempty"`
	// CreatedBy is the agent's owner: who issued the token, as the audit
	// names actors ("person:p_…", "api-key:ak_…", "admin-key").
	CreatedBy string     `json:"created_by,omitempty"`
	CreatedAt time.Time  `json:"created_at"`
	RevokedAt *time.Time `json:"revoked_at,omitempty"`
}

// ProviderToken is a tenant's access token for one provider account.
// AccessToken is plaintext in memory and encrypted at rest by the store.
type ProviderToken struct {
	TenantID    string    `json:"tenant_id"`
	Provider    string    `json:"provider"`
	AccountID   string    `json:"account_id"`
	AccessToken string    `json:"-"`
	TokenType   string    `json:"token_type"`
	ExpiresAt   time.Time `json:"expires_at"`
	UpdatedAt   time.Time `json:"updated_at"`
}

// ActsFor returns nil when p may act for the tenant a request's path names,
// and otherwise TenantNotFound: a credential acts only for its own tenant.
// It looks nothing up, so another tenant's id and an id no tenant has get
// the same answer in the same time, and a credential learns nothing about
// which tenants exist.
func (p *Principal) ActsFor(tenantID string) error {
	if p == nil || p.TenantID != tenantID {
		return TenantNotFound(tenantID)
	}
	return nil
}

// TenantNotFound is the one answer for a tenant a credential cannot reach:
// another tenant's, one never provisioned, or its own once removed.
func TenantNotFound(tenantID string) *Error {
	return Errorf(ETenantNotFound, "tenant %q not found", tenantID).
		WithHint("use the tenant id your token was issued for")
}
