package toolrun

import (
	"context"
	"encoding/json"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// ledger keeps a failed call with what is needed to replay it, and logs
// the cause of an UNAVAILABLE failure. The input is
// the caller's tool input, which never holds a credential: those stay in
// headers and the token store.
func (r *Runner) ledger(ctx context.Context, c *call, err error) {
	e := gtmgate.AsError(err)
	if e.Code == gtmgate.EUnavailable {
		// The caller sees only the safe message; without this line the
		// operator would see nothing of why (a store outage, a key that
		// cannot open a stored secret). Causes never hold secrets.
		jsonapi.LoggerFrom(ctx).Warn("call failed: "+e.Message, "tool", c.req.Tool, "tenant", c.recordTenant(), "err", e.Err)
	}
	entry := &gtmgate.LedgerEntry{
		ID: gtmgate.NewID("led_"), Kind: gtmgate.LedgerFailure, Time: c.start,
		TenantID: c.recordTenant(), Source: c.req.Source, Tool: c.req.Tool, ErrorCode: e.Code,
		Message: jsonapi.NewErrorBody(e, "").Error.Message, RequestID: c.req.RequestID,
	}
	if json.Valid(c.req.Input) {
		entry.Input = c.req.Input
	}
	if c.entry != nil {
		entry.Action = c.action.Name
		entry.Mutating = c.action.Mutating
	}
	if e.Detail != nil {
		if b, mErr := json.Marshal(e.Detail); mErr == nil {
			entry.Detail = b
		}
	}
	if lerr := r.opts.Store.AddLedgerEntry(ctx, entry); lerr != nil {
		jsonapi.LoggerFrom(ctx).Error("error ledger write failed", "err", lerr)
	}
}
