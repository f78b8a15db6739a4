package toolrun

import "github.com/gtmgate/gtmgate"

// Held reports whether tenant t's approval policy, as it stands now, holds
// a call of action a of tool for a human. It is the very decision a call
// takes before it runs (gated), for the surfaces that show it before any
// call is made (the console's tools list and playground). An open quality
// incident on the tool holds its mutating actions too; that is decided at
// call time and not part of the policy.
func Held(t *gtmgate.Tenant, tool *gtmgate.Tool, a gtmgate.Action) bool { return gated(t, tool, a) }
