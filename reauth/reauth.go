// Package reauth lists the provider accounts whose owner must connect them
// again: the refresher was refused (needs_reauth), or the stored token
// expires within a warning window, or has expired, and nothing can refresh it
// (Meta's long-lived tokens, LinkedIn without refresh tokens, pasted tokens).
package reauth

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/connect"
)

// DefaultWarnBefore is how long before an unrefreshable token expires its
// account is listed, unless Options.WarnBefore says otherwise.
const DefaultWarnBefore = 7 * 24 * time.Hour

// Reasons, as Account.Kind.
const (
	// KindRefused: the provider refused the refresh.
	KindRefused = "refused"
	// KindExpiring: the token expires within the window and cannot be refreshed.
	KindExpiring = "expiring"
	// KindExpired: the token has expired and cannot be refreshed.
	KindExpired = "expired"
)

// Account is one provider account that needs re-authorisation.
type Account struct {
	TenantID  string `json:"tenant_id"`
	Provider  string `json:"provider"`
	AccountID string `json:"account_id"`
	// Family is the connect provider a re-connect link is made for
	// (google, hubspot, meta, linkedin); empty when no connect flow covers
	// the provider key.
	Family string `json:"family,omitempty"`
	// Kind is refused, expiring or expired.
	Kind string `json:"kind"`
	// Reason says why in words.
	Reason string `json:"reason"`
	// Since is when the refresh was refused (refused) or when the token
	// expires or expired (expiring, expired).
	Since time.Time `json:"since"`
}

// Store is what the listing reads.
type Store interface {
	GetTenant(ctx context.Context, id string) (*gtmgate.Tenant, error)
	ListTenants(ctx context.Context) ([]*gtmgate.Tenant, error)
	ListProviderOAuth(ctx context.Context, tenantID string) ([]*gtmgate.ProviderOAuth, error)
	ListProviderTokens(ctx context.Context, tenantID string) ([]gtmgate.ProviderTokenInfo, error)
}

// Options configures a Lister.
type Options struct {
	// WarnBefore is the warning window (DefaultWarnBefore when zero).
	WarnBefore time.Duration
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Lister lists the accounts that need re-authorisation.
type Lister struct {
	store Store
	opts  Options
}

// New returns a Lister reading store.
func New(store Store, opts *Options) *Lister {
	l := &Lister{store: store}
	if opts != nil {
		l.opts = *opts
	}
	if l.opts.WarnBefore <= 0 {
		l.opts.WarnBefore = DefaultWarnBefore
	}
	if l.opts.Now == nil {
		l.opts.Now = time.Now
	}
	return l
}

// Accounts lists the accounts of one tenant (all tenants when tenantID is
// empty) that need re-authorisation, by tenant, provider and account.
func (l *Lister) Accounts(ctx context.Context, tenantID string) ([]Account, error) {
	tenants := []string{tenantID}
	if tenantID == "" {
		all, err := l.store.ListTenants(ctx)
		if err != nil {
			return nil, fmt.Errorf("reauth: list tenants: %w", err)
		}
		tenants = tenants[:0]
		for _, t := range all {
			tenants = append(tenants, t.ID)
		}
	}
	now := l.opts.Now()
	var out []Account
	for _, id := range tenants {
		records, err := l.store.ListProviderOAuth(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("reauth: refresh records of %s: %w", id, err)
		}
		tokens, err := l.store.ListProviderTokens(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("reauth: provider tokens of %s: %w", id, err)
		}
		out = append(out, Select(id, records, tokens, now, l.opts.WarnBefore)...)
	}
	return out, nil
}

// Select picks, from one tenant's refresh records and stored tokens, the
// accounts that need re-authorisation at now: records marked needs_reauth,
// and tokens with no refresh record that expire before now+warnBefore. A
// token with a refresh record is the refresher's to renew and is not listed
// for its expiry.
func Select(tenantID string, records []*gtmgate.ProviderOAuth, tokens []gtmgate.ProviderTokenInfo, now time.Time, warnBefore time.Duration) []Account {
	type key struct{ provider, account string }
	refreshed := map[key]bool{}
	var out []Account
	for _, o := range records {
		refreshed[key{o.Provider, o.AccountID}] = true
		if !o.NeedsReauth {
			continue
		}
		a := Account{TenantID: tenantID, Provider: o.Provider, AccountID: o.AccountID, Kind: KindRefused,
			Reason: "the provider refused the refresh"}
		if o.LastError != "" {
			a.Reason += ": " + o.LastError
		}
		switch {
		case o.LastRefreshAt != nil:
			a.Since = o.LastRefreshAt.UTC()
		default:
			a.Since = o.UpdatedAt.UTC()
		}
		out = append(out, a)
	}
	for _, t := range tokens {
		if t.ExpiresAt == nil || t.ExpiresAt.IsZero() || refreshed[key{t.Provider, t.AccountID}] {
			continue
		}
		exp := t.ExpiresAt.UTC()
		a := Account{TenantID: tenantID, Provider: t.Provider, AccountID: t.AccountID, Since: exp}
		switch {
		case !exp.After(now):
			a.Kind, a.Reason = KindExpired, "its token expired on "+exp.Format(time.RFC3339)+" and cannot be refreshed"
		case exp.Before(now.Add(warnBefore)):
			a.Kind, a.Reason = KindExpiring, "its token expires on "+exp.Format(time.RFC3339)+" and cannot be refreshed"
		default:
			continue
		}
		out = append(out, a)
	}
	for i := range out {
		if p, ok := connect.Family(out[i].Provider); ok {
			out[i].Family = p.Name
		} else if strings.HasPrefix(out[i].Provider, gtmgate.MCPGrantPrefix) {
			// An upstream MCP server's grant is re-connected by a link to it.
			out[i].Family = out[i].Provider
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Provider != out[j].Provider {
			return out[i].Provider < out[j].Provider
		}
		return out[i].AccountID < out[j].AccountID
	})
	return out
}
