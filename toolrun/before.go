package toolrun

import (
	"context"
	"encoding/json"
	"errors"

	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/telemetry"
)

// beforeTimeout bounds reading the state a held call would change: the
// agent waits for its APPROVAL_REQUIRED while it runs, and a gate without
// the old value is still a gate.
const beforeTimeout = 5 * time.Second

// readBefore reads, through the held action's BeforeRead, the state the
// call would change (a campaign's current budget, a deal's stage) and puts
// it on the gate as Before, or why it could not be read as BeforeError. A
// failed read never stops the call being held.
//
// The read is the gateway's, not a tool call of the tenant: it makes no
// audit entry and no usage event and takes nothing from the tenant's
// quotas. It acts as the held call would, on the same provider account
// with the same token.
func (r *Runner) readBefore(ctx context.Context, c *call, a *gtmgate.Approval) {
	read := c.action.Before
	if read == nil {
		return
	}
	ctx, span := telemetry.Start(ctx, "toolrun.before_read", "", telemetry.Provider.String(c.entry.Provider))
	defer span.End()
	ctx, cancel := context.WithTimeout(ctx, beforeTimeout)
	defer cancel()
	state, err := r.before(ctx, c, read)
	if err == nil && state != nil {
		a.Before, err = json.Marshal(state)
	}
	if err != nil {
		a.Before, a.BeforeError = nil, beforeReason(err)
		telemetry.Fail(span, gtmgate.ErrorCode(err))
		r.opts.Logger.Warn("approval: reading the state before a held call", "tenant", c.tenant.ID,
			"tool", c.entry.Name, "action", c.action.Name, "request_id", c.req.RequestID, "err", err)
	}
}

// before runs read on the held call as the adapter would see it.
func (r *Runner) before(ctx context.Context, c *call, read gtmgate.BeforeRead) (map[string]any, error) {
	var tokens gtmgate.TokenSource
	if c.entry.Provider != "" {
		ts, err := r.opts.Tokens.TokenSource(ctx, c.tenant.ID, c.entry.Provider, c.account.ID)
		if err != nil {
			return nil, err
		}
		tokens = ts
	}
	return read(ctx, &gtmgate.Call{
		RequestID: c.req.RequestID, TenantID: c.tenant.ID, Tool: c.entry.Tool, Action: c.action,
		Input: c.req.Input, Args: c.input, Account: c.account, Token: tokens,
	})
}

// beforeReason says why the read failed in words an approver may see: the
// error's safe message, never its cause (which may quote a request).
func beforeReason(err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return "the provider did not answer within " + beforeTimeout.String()
	}
	e := gtmgate.AsError(err)
	if e.Code == gtmgate.EInternal {
		return "internal error"
	}
	return e.Message
}
