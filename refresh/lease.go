package refresh

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gtmgate/gtmgate"
)

// account names one tenant's provider account.
type account struct{ tenant, provider, id string }

func (a account) key() string { return a.tenant + "\x00" + a.provider + "\x00" + a.id }

func (a account) String() string { return a.tenant + "/" + a.provider + "/" + a.id }

// outcome is the result of one shared refresh.
type outcome struct {
	token string
	// renewed is set when the token endpoint issued token just now.
	renewed bool
}

// needsFunc reports whether the stored token t (nil when none) must be renewed at now.
type needsFunc func(t *gtmgate.ProviderToken, now time.Time) bool

// errLeased is returned to the worker when another replica holds the lease.
var errLeased = errors.New("another refresher holds the lease")

// Backoff of a caller waiting for another replica's refresh.
const (
	firstPoll = 50 * time.Millisecond
	maxPoll   = time.Second
)

// refreshAccount renews a's token when needs says so, under the store lease.
// When another replica holds the lease it returns errLeased, or with wait
// polls the store until that replica's outcome is there.
func (r *Refresher) refreshAccount(ctx context.Context, a account, needs needsFunc, wait bool) (outcome, error) {
	o, tok, err := r.load(ctx, a)
	if err != nil {
		return outcome{}, err
	}
	seen := o.UpdatedAt
	waitCtx, cancel := context.WithTimeout(ctx, r.opts.WaitBudget)
	defer cancel()
	for poll := firstPoll; ; poll = min(2*poll, maxPoll) {
		if o.NeedsReauth {
			return outcome{}, reauthError(a, o.LastError)
		}
		now := r.opts.Now()
		if !needs(tok, now) {
			return outcome{token: tok.AccessToken}, nil
		}
		if o.LastError != "" && !o.UpdatedAt.Equal(seen) {
			// The lease holder's attempt just failed; do not repeat it at once.
			return outcome{}, transientError(a, &failure{message: o.LastError})
		}
		got, err := r.opts.Store.ClaimRefresh(ctx, a.tenant, a.provider, a.id, r.opts.Holder, now, now.Add(r.opts.Lease))
		if err != nil {
			return outcome{}, fmt.Errorf("refresh %s: claim lease: %w", a, err)
		}
		if got {
			return r.refreshLeased(ctx, a, needs)
		}
		if !wait {
			return outcome{}, errLeased
		}
		if err := sleep(waitCtx, poll); err != nil {
			if ctx.Err() != nil {
				return outcome{}, ctx.Err()
			}
			return outcome{}, busyError(a, r.opts.WaitBudget)
		}
		if o, tok, err = r.load(ctx, a); err != nil {
			return outcome{}, err
		}
	}
}

// refreshLeased runs with the lease held: it reads the record again (another
// replica may have refreshed, or rotated the refresh token, since), calls the
// token endpoint if still needed, and stores the outcome, which releases the
// lease.
func (r *Refresher) refreshLeased(ctx context.Context, a account, needs needsFunc) (outcome, error) {
	o, tok, err := r.load(ctx, a)
	if err != nil {
		return outcome{}, err
	}
	if o.NeedsReauth || !needs(tok, r.opts.Now()) {
		// Release the lease, leaving the record as it is.
		rel := gtmgate.RefreshResult{TenantID: a.tenant, Provider: a.provider, AccountID: a.id, At: r.opts.Now(),
			Err: o.LastError, NeedsReauth: o.NeedsReauth}
		if err := r.opts.Store.CompleteRefresh(ctx, rel); err != nil {
			r.opts.Logger.Warn("oauth refresh: release lease", "account", a.String(), "err", err)
		}
		if o.NeedsReauth {
			return outcome{}, reauthError(a, o.LastError)
		}
		return outcome{token: tok.AccessToken}, nil
	}
	res, f := r.callEndpoint(ctx, a, o)
	now := r.opts.Now()
	out := gtmgate.RefreshResult{TenantID: a.tenant, Provider: a.provider, AccountID: a.id, At: now}
	if f != nil {
		out.Err, out.NeedsReauth = f.message, f.reauth
		if err := r.opts.Store.CompleteRefresh(ctx, out); err != nil {
			r.opts.Logger.Error("oauth refresh: store failure", "account", a.String(), "err", err)
		}
		r.opts.Logger.Warn("oauth refresh failed", "account", a.String(), "needs_reauth", f.reauth, "error", f.message)
		if f.reauth {
			return outcome{}, reauthError(a, f.message)
		}
		return outcome{}, transientError(a, f)
	}
	out.Token = &gtmgate.ProviderToken{AccessToken: res.AccessToken, TokenType: res.TokenType, UpdatedAt: now}
	if res.ExpiresIn > 0 {
		out.Token.ExpiresAt = now.Add(time.Duration(res.ExpiresIn) * time.Second)
	}
	if res.RefreshToken != o.RefreshToken {
		out.RotatedRefreshToken = res.RefreshToken
	}
	if err := r.opts.Store.CompleteRefresh(ctx, out); err != nil {
		// The new token is valid: serve this call with it. A rotated refresh
		// token is lost, which the next refresh reports as invalid_grant.
		r.opts.Logger.Error("oauth refresh: store new token", "account", a.String(), "err", err)
		return outcome{token: res.AccessToken, renewed: true}, nil
	}
	r.opts.Logger.Info("oauth token refreshed", "account", a.String(), "expires_at", out.Token.ExpiresAt,
		"refresh_token_rotated", out.RotatedRefreshToken != "")
	return outcome{token: res.AccessToken, renewed: true}, nil
}

// load reads a's seeding record and stored token (nil when none).
func (r *Refresher) load(ctx context.Context, a account) (*gtmgate.ProviderOAuth, *gtmgate.ProviderToken, error) {
	o, err := r.opts.Store.GetProviderOAuth(ctx, a.tenant, a.provider, a.id)
	if errors.Is(err, gtmgate.ErrNotFound) {
		return nil, nil, notConfiguredError(a)
	} else if err != nil {
		return nil, nil, fmt.Errorf("refresh %s: read seeding record: %w", a, err)
	}
	tok, err := r.opts.Store.GetProviderToken(ctx, a.tenant, a.provider, a.id)
	if errors.Is(err, gtmgate.ErrNotFound) {
		return o, nil, nil
	} else if err != nil {
		return nil, nil, fmt.Errorf("refresh %s: read token: %w", a, err)
	}
	return o, tok, nil
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
