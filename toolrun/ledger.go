package toolrun

import (
	"context"
	"encoding/json"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// failure is a failed call's error ledger entry, with what is needed to
// replay it; it also logs the cause of an UNAVAILABLE failure. The input is
// the caller's tool input, which never holds a credential: those stay in
// headers and the token store.
func failure(ctx context.Context, c *call, err error) *gtmgate.LedgerEntry {
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
	entry.Key = c.key() // the agent, as its audit entry names it
	if json.Valid(c.req.Input) {
		entry.Input = c.storedInput()
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
	return entry
}

// storeFailure writes a failure straight to the store: the way left when
// the recorder could not take the call's record.
func (r *Runner) storeFailure(ctx context.Context, f *gtmgate.LedgerEntry) {
	// Detached: a client that hung up, or a shutdown, must not keep its
	// failure out of the ledger.
	lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ledgerTimeout)
	defer cancel()
	if err := r.opts.Store.AddLedgerEntry(lctx, f); err != nil {
		jsonapi.LoggerFrom(ctx).Error("error ledger write failed", "err", err)
	}
}
