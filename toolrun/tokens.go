package toolrun

import (
	"context"
	"errors"
	"time"

	"github.com/gtmgate/gtmgate"
)

// TokenProvider gives the token source of one tenant's provider account.
type TokenProvider interface {
	TokenSource(ctx context.Context, tenantID, provider, accountID string) (gtmgate.TokenSource, error)
}

// Refresher renews a provider token (the OAuth refresher); nil when none is configured.
type Refresher interface {
	// Refresh returns a fresh access token, sharing one refresh among concurrent callers.
	Refresh(ctx context.Context, tenantID, provider, accountID, stale string) (string, error)
	// Configured reports whether the account has OAuth refresh credentials.
	Configured(ctx context.Context, tenantID, provider, accountID string) bool
}

// StoredTokens reads provider tokens from the store and renews them through
// an optional Refresher when they have expired or the provider refuses them.
type StoredTokens struct {
	Store     gtmgate.TokenStore
	Refresher Refresher
	Now       func() time.Time
}

// TokenSource returns the account's token source, or REAUTH_REQUIRED when
// no token is stored and none can be obtained.
func (s *StoredTokens) TokenSource(ctx context.Context, tenantID, provider, accountID string) (gtmgate.TokenSource, error) {
	t, err := s.Store.GetProviderToken(ctx, tenantID, provider, accountID)
	if errors.Is(err, gtmgate.ErrNotFound) {
		if s.Refresher != nil && s.Refresher.Configured(ctx, tenantID, provider, accountID) {
			return &accountToken{s: s, tenant: tenantID, provider: provider, account: accountID}, nil
		}
		return nil, gtmgate.Errorf(gtmgate.EReauthRequired, "no %s token is stored for account %q of tenant %q", provider, accountID, tenantID).
			WithHint("store one with PUT /admin/tokens/" + tenantID + "/" + provider + "/" + accountID + " or seed OAuth with POST /admin/seed-oauth")
	} else if err != nil {
		return nil, err
	}
	return &accountToken{s: s, tenant: tenantID, provider: provider, account: accountID, token: t}, nil
}

type accountToken struct {
	s                         *StoredTokens
	tenant, provider, account string
	token                     *gtmgate.ProviderToken
}

func (a *accountToken) Token(ctx context.Context) (string, error) {
	now := time.Now
	if a.s.Now != nil {
		now = a.s.Now
	}
	if a.token != nil && (a.token.ExpiresAt.IsZero() || now().Before(a.token.ExpiresAt)) {
		return a.token.AccessToken, nil
	}
	stale := ""
	if a.token != nil {
		stale = a.token.AccessToken
	}
	return a.Refresh(ctx, stale)
}

func (a *accountToken) Refresh(ctx context.Context, stale string) (string, error) {
	if a.s.Refresher == nil || !a.s.Refresher.Configured(ctx, a.tenant, a.provider, a.account) {
		return "", gtmgate.Errorf(gtmgate.EReauthRequired, "the %s token of account %q has expired or was refused, and no OAuth refresh is configured", a.provider, a.account).
			WithHint("store a fresh token with PUT /admin/tokens/" + a.tenant + "/" + a.provider + "/" + a.account)
	}
	return a.s.Refresher.Refresh(ctx, a.tenant, a.provider, a.account, stale)
}
