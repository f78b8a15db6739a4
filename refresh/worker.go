package refresh

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gtmgate/gtmgate"
)

// Run renews tokens in the background until ctx is cancelled: once at start
// and then every Options.Interval it sweeps every seeding record (Sweep).
// Everything it needs is in the store, so it resumes after a restart, and
// several replicas may run it: the store lease lets one of them refresh each
// account.
func (r *Refresher) Run(ctx context.Context) {
	t := time.NewTicker(r.opts.Interval)
	defer t.Stop()
	for {
		if _, err := r.Sweep(ctx); err != nil && ctx.Err() == nil {
			r.opts.Logger.Error("oauth refresh sweep", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// SweepResult counts what one sweep did.
type SweepResult struct {
	// Checked is the number of seeding records looked at.
	Checked int `json:"checked"`
	// Refreshed is the number of tokens renewed (by this process).
	Refreshed int `json:"refreshed"`
	// Skipped counts accounts needing re-authorisation or leased by another replica.
	Skipped int `json:"skipped"`
	// Failed counts refreshes that failed.
	Failed int `json:"failed"`
}

// Sweep renews, under the lease, every token that is missing or expires
// within Options.LeadTime, skipping accounts that need re-authorisation.
// Accounts are refreshed one after another; a failure is stored as the
// account's last_error and does not stop the sweep. It returns an error only
// when the records cannot be listed.
func (r *Refresher) Sweep(ctx context.Context) (SweepResult, error) {
	var res SweepResult
	records, err := r.opts.Store.ListProviderOAuth(ctx, "")
	if err != nil {
		return res, fmt.Errorf("refresh: sweep: %w", err)
	}
	for _, o := range records {
		if ctx.Err() != nil {
			return res, nil
		}
		res.Checked++
		if o.NeedsReauth {
			res.Skipped++
			continue
		}
		a := account{tenant: o.TenantID, provider: o.Provider, id: o.AccountID}
		before, err := r.opts.Store.GetProviderToken(ctx, a.tenant, a.provider, a.id)
		if err != nil && !errors.Is(err, gtmgate.ErrNotFound) {
			res.Failed++
			r.opts.Logger.Error("oauth refresh sweep: read token", "account", a.String(), "err", err)
			continue
		}
		if err == nil && !r.due(before, r.opts.Now()) {
			continue
		}
		out, err := r.shared(ctx, a, r.due, false)
		switch {
		case errors.Is(err, errLeased):
			res.Skipped++
		case err != nil:
			res.Failed++
		case out.renewed:
			res.Refreshed++
		}
	}
	return res, nil
}

// due reports whether the worker renews t at now: it is missing or expires
// within the lead time. A token without a known expiry is renewed only when
// the provider refuses it.
func (r *Refresher) due(t *gtmgate.ProviderToken, now time.Time) bool {
	return t == nil || (!t.ExpiresAt.IsZero() && t.ExpiresAt.Sub(now) <= r.opts.LeadTime)
}
