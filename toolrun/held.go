package toolrun

import (
	"context"
	"errors"

	"github.com/gtmgate/gtmgate"
)

// Held returns the gate holding one of p's own calls, as of now. A gate of
// another tenant or of another agent is NOT_FOUND, exactly like a missing
// one: an agent reads back its own held calls only.
func (r *Runner) Held(ctx context.Context, p *gtmgate.Principal, id string) (*gtmgate.Approval, error) {
	a, err := r.opts.Store.GetApproval(ctx, id)
	if errors.Is(err, gtmgate.ErrNotFound) || (err == nil && (a.TenantID != p.TenantID || a.Agent != p.KeyID)) {
		return nil, gtmgate.Errorf(gtmgate.ENotFound, "no held call %q of this agent", id)
	} else if err != nil {
		return nil, err
	}
	return a.AsOf(r.opts.Now()), nil
}
