package refresh

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gtmgate/gtmgate"
)

// AccountStatus is a seeding record without its secrets, with the expiry of
// the account's stored access token.
type AccountStatus struct {
	TenantID        string     `json:"tenant_id"`
	Provider        string     `json:"provider"`
	AccountID       string     `json:"account_id"`
	ClientID        string     `json:"client_id"`
	TokenEndpoint   string     `json:"token_endpoint"`
	HasClientSecret bool       `json:"has_client_secret"`
	NeedsReauth     bool       `json:"needs_reauth"`
	LastError       string     `json:"last_error,omitempty"`
	LastRefreshAt   *time.Time `json:"last_refresh_at,omitempty"`
	// HasToken reports whether an access token is stored.
	HasToken bool `json:"has_token"`
	// TokenExpiresAt is the stored access token's expiry, when known.
	TokenExpiresAt *time.Time `json:"token_expires_at,omitempty"`
	UpdatedAt      time.Time  `json:"updated_at"`
}

// Accounts returns the status of every seeded account of a tenant, or of all
// tenants when tenantID is empty.
func (r *Refresher) Accounts(ctx context.Context, tenantID string) ([]AccountStatus, error) {
	records, err := r.opts.Store.ListProviderOAuth(ctx, tenantID)
	if err != nil {
		return nil, fmt.Errorf("refresh: list accounts: %w", err)
	}
	out := make([]AccountStatus, 0, len(records))
	for _, o := range records {
		s, err := r.status(ctx, o)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// status describes o and its stored token.
func (r *Refresher) status(ctx context.Context, o *gtmgate.ProviderOAuth) (AccountStatus, error) {
	s := AccountStatus{TenantID: o.TenantID, Provider: o.Provider, AccountID: o.AccountID, ClientID: o.ClientID,
		TokenEndpoint: o.TokenEndpoint, HasClientSecret: o.ClientSecret != "", NeedsReauth: o.NeedsReauth,
		LastError: o.LastError, LastRefreshAt: o.LastRefreshAt, UpdatedAt: o.UpdatedAt}
	tok, err := r.opts.Store.GetProviderToken(ctx, o.TenantID, o.Provider, o.AccountID)
	switch {
	case errors.Is(err, gtmgate.ErrNotFound):
	case err != nil:
		return s, fmt.Errorf("refresh: status of %s/%s/%s: %w", o.TenantID, o.Provider, o.AccountID, err)
	default:
		s.HasToken = true
		if !tok.ExpiresAt.IsZero() {
			exp := tok.ExpiresAt
			s.TokenExpiresAt = &exp
		}
	}
	return s, nil
}

// Health is the refresher's part of the system health snapshot.
type Health struct {
	// Accounts is the number of seeded accounts.
	Accounts int `json:"accounts"`
	// NeedsReauth lists the accounts whose refresh was refused: tool calls on
	// them fail with REAUTH_REQUIRED until they are seeded again.
	NeedsReauth []AccountStatus `json:"needs_reauth"`
	// Failing lists the accounts whose last refresh failed for a reason that
	// may pass (endpoint down, time-out); they are retried.
	Failing []AccountStatus `json:"failing"`
	// Expired lists the other accounts whose stored token has expired or is missing.
	Expired []AccountStatus `json:"expired"`
}

// Healthy reports whether no account needs attention.
func (h *Health) Healthy() bool {
	return len(h.NeedsReauth) == 0 && len(h.Failing) == 0 && len(h.Expired) == 0
}

// Health returns the accounts that need re-authorisation or whose refresh is failing.
func (r *Refresher) Health(ctx context.Context) (*Health, error) {
	all, err := r.Accounts(ctx, "")
	if err != nil {
		return nil, err
	}
	h := &Health{Accounts: len(all), NeedsReauth: []AccountStatus{}, Failing: []AccountStatus{}, Expired: []AccountStatus{}}
	now := r.opts.Now()
	for _, s := range all {
		switch {
		case s.NeedsReauth:
			h.NeedsReauth = append(h.NeedsReauth, s)
		case s.LastError != "":
			h.Failing = append(h.Failing, s)
		case !s.HasToken || (s.TokenExpiresAt != nil && !now.Before(*s.TokenExpiresAt)):
			h.Expired = append(h.Expired, s)
		}
	}
	return h, nil
}
