package agent

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gtmgate/gtmgate"
)

// A run acts for the credential that started it (or created its schedule).
// Once that credential is revoked the run is cancelled with the reason and
// its gates are withdrawn: at once when the revocation tells the runs
// (CredentialsRevoked), at the latest before its next step (advance) or by
// the sweep.

// credentialRevoked returns why r must stop ("" while it may go on),
// deciding on the run's principal: the credential it acts for.
func (a *Agents) credentialRevoked(ctx context.Context, r *gtmgate.AgentRun) (string, error) {
	if gtmgate.RunFinished(r.Status) {
		return "", nil
	}
	c := principal(r).Credential()
	if !c.Revocable() {
		return "", nil
	}
	at, err := a.opts.Store.CredentialRevoked(ctx, r.TenantID, c, a.opts.Now())
	switch {
	case errors.Is(err, gtmgate.ErrNotFound):
		return "cancelled: " + c.String() + ", which it acts for, no longer exists", nil
	case err != nil:
		return "", fmt.Errorf("check the credential of run %s: %w", r.ID, err)
	case at == nil:
		return "", nil
	}
	return fmt.Sprintf("cancelled: %s, which it acts for, was revoked at %s", &c, at.UTC().Format(time.RFC3339)), nil
}

// stopRevoked ends a run whose credential was revoked: the step it was
// about to make fails as unauthorized, its gates are withdrawn, and it is
// cancelled with the reason.
func (a *Agents) stopRevoked(ctx context.Context, r *gtmgate.AgentRun, reason string, unit time.Time) error {
	for i := range r.Steps {
		if st := &r.Steps[i]; st.Status == gtmgate.StepPlanned {
			a.settle(r, st, nil, gtmgate.Errorf(gtmgate.EUnauthorized, "the credential this run acts for was revoked; the call was not made"))
			break
		}
	}
	if err := a.withdraw(ctx, r, "gtmgate", reason); err != nil {
		return err
	}
	a.finish(r, gtmgate.RunCancelled, reason)
	a.opts.Logger.Warn("agent: run cancelled, its credential was revoked", "run_id", r.ID, "reason", reason)
	return a.save(ctx, r, unit)
}

// CredentialsRevoked cancels every unfinished run of tenantID ("" = every
// tenant) whose credential was revoked, withdrawing its gates; a
// gtmgate.RevocationListener calls it once a token or grant is revoked.
func (a *Agents) CredentialsRevoked(ctx context.Context, tenantID string) error {
	var errs []error
	reasons := map[[2]string]string{}
	for _, status := range []string{gtmgate.RunQueued, gtmgate.RunRunning, gtmgate.RunWaitingApproval} {
		runs, err := a.opts.Store.ListAgentRuns(ctx, gtmgate.AgentRunFilter{TenantID: tenantID, Status: status, Limit: 1000})
		if err != nil {
			return fmt.Errorf("list %s runs: %w", status, err)
		}
		for _, r := range runs {
			c := principal(r).Credential()
			if !c.Revocable() {
				continue
			}
			key := [2]string{r.TenantID, c.Kind + ":" + c.ID}
			reason, seen := reasons[key]
			if !seen {
				if reason, err = a.credentialRevoked(ctx, r); err != nil {
					errs = append(errs, err)
					continue
				}
				reasons[key] = reason
			}
			if reason == "" {
				continue
			}
			if _, err := a.cancel(ctx, r.TenantID, r.ID, "gtmgate", reason); err != nil && gtmgate.ErrorCode(err) != gtmgate.EConflict {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}
