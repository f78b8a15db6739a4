package registry

import "github.com/gtmgate/gtmgate"

// Hints are a tool's MCP annotations with the meaning the MCP specification
// (2025-11-25, ToolAnnotations) gives them. Clients act on them, some by
// approving a read-only tool's calls without asking, so each errs on the
// side the specification's defaults take: a hint is only relaxed where the
// actions' own flags prove it.
type Hints struct {
	// ReadOnly (readOnlyHint): the tool changes nothing; no action mutates
	// and it makes no other tool's calls.
	ReadOnly bool
	// Destructive (destructiveHint): the tool may change or remove existing
	// data, not only add to it; true when an action is destructive, or
	// mutating without being additive. False for read-only tools, where the
	// specification gives it no meaning.
	Destructive bool
	// Idempotent (idempotentHint): repeating a call with the same arguments
	// has no further effect. True for read-only tools; actions do not declare
	// it, so a tool that mutates is never claimed idempotent.
	Idempotent bool
	// OpenWorld (openWorldHint): the tool reaches entities outside the
	// gateway: a provider's API, the public web (Tool.OpenWorld), or other
	// tools' (Tool.Delegates). False for tools over the gateway's own records.
	OpenWorld bool
}

// Hints returns the entry's MCP annotations.
func (e *Entry) Hints() Hints { return e.hints }

// ownHints derives a tool's hints from its actions' flags and its own facts;
// a delegating tool's are completed by delegateHints.
func ownHints(t *gtmgate.Tool) Hints {
	h := Hints{ReadOnly: !t.Delegates, OpenWorld: t.Provider != "" || t.OpenWorld || t.Delegates}
	for _, a := range t.Actions {
		if a.Mutating {
			h.ReadOnly = false
		}
		if a.Destructive || (a.Mutating && !a.Additive) {
			h.Destructive = true
		}
	}
	h.Idempotent = h.ReadOnly
	return h
}

// delegateHints gives every delegating tool the worst hint of the tools it
// could call on a caller's behalf: destructive when any of them is.
func (r *Registry) delegateHints() {
	destructive := false
	for _, e := range r.entries {
		if !e.Delegates && e.hints.Destructive {
			destructive = true
		}
	}
	for _, e := range r.entries {
		if e.Delegates {
			e.hints.Destructive = e.hints.Destructive || destructive
		}
	}
}
