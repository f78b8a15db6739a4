package schedule

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gtmgate/gtmgate"
)

// A schedule acts for the credential that created it. Revoking that
// credential disables it: at once when the revocation tells the scheduler
// (CredentialsRevoked), and in any case before its next tick runs (standing).

// standing returns why sc may no longer run ("" when it may), disabling it
// with that reason: its credential was revoked, or it predates credentials
// and was made by a tenant's agent.
func (s *Scheduler) standing(ctx context.Context, sc *gtmgate.Schedule, now time.Time) (string, error) {
	c := sc.CreatedBy
	switch {
	case c == nil && (sc.UpdatedBy == "admin" || sc.UpdatedBy == "demo" || sc.UpdatedBy == ""):
		return "", nil // stored by an operator before schedules carried credentials
	case c == nil:
		reason := "it was created by a tenant's agent before schedules carried their creator's rights; put it again to bind it to your credential"
		return reason, s.disableUnbound(ctx, sc, reason, now)
	case !c.Revocable():
		return "", nil
	}
	reason, err := s.revoked(ctx, sc.TenantID, *c, now)
	if err != nil || reason == "" {
		return "", err
	}
	if _, err := s.opts.Store.DisableSchedules(ctx, gtmgate.ScheduleDisable{TenantID: sc.TenantID, Credential: *c, Reason: reason, At: now}); err != nil {
		return "", fmt.Errorf("disable the schedules of %s: %w", c, err)
	}
	s.opts.Logger.Warn("schedule disabled: its credential was revoked", "tenant_id", sc.TenantID, "job_id", sc.JobID, "reason", reason)
	return reason, nil
}

// revoked returns, when credential c of a tenant was revoked, the reason its
// schedules are disabled ("" while it stands).
func (s *Scheduler) revoked(ctx context.Context, tenantID string, c gtmgate.Credential, now time.Time) (string, error) {
	at, err := s.opts.Store.CredentialRevoked(ctx, tenantID, c, now)
	switch {
	case errors.Is(err, gtmgate.ErrNotFound):
		return c.String() + ", which created it, no longer exists", nil
	case err != nil:
		return "", fmt.Errorf("check %s: %w", &c, err)
	case at == nil:
		return "", nil
	}
	return fmt.Sprintf("%s, which created it, was revoked at %s", &c, at.UTC().Format(time.RFC3339)), nil
}

// disableUnbound disables a schedule with no credential.
func (s *Scheduler) disableUnbound(ctx context.Context, sc *gtmgate.Schedule, reason string, now time.Time) error {
	off := *sc
	off.Enabled, off.NextRunAt, off.DisabledReason, off.DisabledAt = false, nil, reason, &now
	if _, err := s.opts.Store.PutSchedule(ctx, &off); err != nil {
		return fmt.Errorf("disable schedule %s/%s: %w", sc.TenantID, sc.JobID, err)
	}
	s.opts.Logger.Warn("schedule disabled", "tenant_id", sc.TenantID, "job_id", sc.JobID, "reason", reason)
	return nil
}

// CredentialsRevoked disables every enabled schedule of tenantID ("" =
// every tenant) whose credential was revoked; a gtmgate.RevocationListener
// calls it once a token or grant is revoked.
func (s *Scheduler) CredentialsRevoked(ctx context.Context, tenantID string) error {
	scs, err := s.opts.Store.ListSchedules(ctx, gtmgate.ScheduleFilter{TenantID: tenantID})
	if err != nil {
		return fmt.Errorf("list schedules: %w", err)
	}
	now := s.opts.Now()
	checked := map[[2]string]bool{}
	var errs []error
	for _, sc := range scs {
		c := sc.CreatedBy
		if !sc.Enabled || !c.Revocable() {
			continue
		}
		key := [2]string{sc.TenantID, c.Kind + ":" + c.ID}
		if checked[key] {
			continue
		}
		checked[key] = true
		if _, err := s.standing(ctx, sc, now); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
