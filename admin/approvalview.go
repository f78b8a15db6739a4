package admin

import (
	"context"

	"github.com/gtmgate/gtmgate"
)

// ApprovalView is an approval as the admin API shows it: the stored gate
// and what the gateway knows of its action and account, so a reader such
// as the console can say what approving it does without importing the
// tools.
type ApprovalView struct {
	*gtmgate.Approval
	// Destructive says the held action deletes or irreversibly changes
	// data (gtmgate.Action.Destructive); false when the tool is gone.
	Destructive bool `json:"destructive,omitempty"`
	// AccountLabel is the label the tenant gives the account the call acts
	// as ("alex@ledgerly.example" for Gmail's "me"); "" when it has none
	// or the account is no longer configured.
	AccountLabel string `json:"account_label,omitempty"`
}

// approvalViews puts beside each approval what the gateway knows of its
// action and account, looking each tool and tenant up once.
func (h *Handler) approvalViews(ctx context.Context, as []*gtmgate.Approval) []ApprovalView {
	type key struct{ tenant, tool, action string }
	type known struct {
		destructive bool
		provider    string
	}
	actions := map[key]known{}
	tenants := map[string]*gtmgate.Tenant{}
	out := make([]ApprovalView, 0, len(as))
	for _, a := range as {
		k := key{a.TenantID, a.Tool, a.Action}
		act, seen := actions[k]
		if !seen {
			act.destructive, act.provider = h.heldAction(ctx, a)
			actions[k] = act
		}
		v := ApprovalView{Approval: a, Destructive: act.destructive}
		if act.provider != "" && a.AccountID != "" {
			t, seen := tenants[a.TenantID]
			if !seen {
				t, _ = h.opts.Store.GetTenant(ctx, a.TenantID) // nil: no label, the gate is shown all the same
				tenants[a.TenantID] = t
			}
			if t != nil {
				if acct, ok := t.Providers[act.provider].Account(a.AccountID); ok && acct.Label != acct.ID {
					v.AccountLabel = acct.Label
				}
			}
		}
		out = append(out, v)
	}
	return out
}

// heldAction reports whether a's action is marked destructive in the tool
// a's tenant sees under its name now, and the tool's provider.
func (h *Handler) heldAction(ctx context.Context, a *gtmgate.Approval) (destructive bool, provider string) {
	if h.opts.Runner == nil {
		return false, ""
	}
	e, ok := h.opts.Runner.Tool(ctx, a.TenantID, a.Tool)
	if !ok {
		return false, ""
	}
	act, ok := e.Action(a.Action)
	return ok && act.Destructive, e.Provider
}
