package providercheck

import (
	"context"
	"slices"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/apispec"
)

// ScopeFacts say what a provider's tools need of a credential and how to
// learn what one holds.
type ScopeFacts struct {
	// Spec lists the operations the provider's tools call, each with the
	// OAuth scopes that admit it (any one).
	Spec *apispec.Spec
	// Granted returns the scopes the account's credential holds; nil when
	// the provider does not say (NotReported says why).
	Granted     func(ctx context.Context, ts gtmgate.TokenSource) ([]string, error)
	NotReported string
}

// ScopeReport is an account's granted scopes against what the tools need.
type ScopeReport struct {
	// Checked is false when the provider does not report a token's scopes,
	// or they could not be read (Note says which).
	Checked bool     `json:"checked"`
	Granted []string `json:"granted,omitempty"`
	// Missing lists each operation the tools call that no granted scope admits.
	Missing []MissingScope `json:"missing,omitempty"`
	Note    string         `json:"note,omitempty"`
}

// MissingScope is one operation the credential cannot call.
type MissingScope struct {
	Operation string   `json:"operation"`
	AnyOf     []string `json:"any_of"`
}

// checkScopes reads the credential's scopes and compares them with every
// operation of the provider's spec.
func (c *Checker) checkScopes(ctx context.Context, facts ScopeFacts, ts gtmgate.TokenSource) *ScopeReport {
	if facts.Granted == nil {
		return &ScopeReport{Note: facts.NotReported}
	}
	granted, err := facts.Granted(ctx, ts)
	if err != nil {
		return &ScopeReport{Note: "the provider did not say which scopes the credential holds: " + gtmgate.AsError(err).Message}
	}
	slices.Sort(granted)
	return &ScopeReport{Checked: true, Granted: granted, Missing: Missing(facts.Spec, granted)}
}

// Missing lists the operations of spec that none of granted admits
// (operations that name no scope are skipped).
func Missing(spec *apispec.Spec, granted []string) []MissingScope {
	var out []MissingScope
	for _, op := range spec.Operations {
		if len(op.Scopes) == 0 || slices.ContainsFunc(op.Scopes, func(s string) bool { return slices.Contains(granted, s) }) {
			continue
		}
		out = append(out, MissingScope{Operation: op.ID, AnyOf: op.Scopes})
	}
	slices.SortFunc(out, func(a, b MissingScope) int {
		if a.Operation < b.Operation {
			return -1
		}
		if a.Operation > b.Operation {
			return 1
		}
		return 0
	})
	return out
}

// MinimalGrant is a small set of scopes that admits every operation of
// spec, chosen greedily (the scope admitting most operations not yet
// admitted first): what the demo's sandboxes grant.
func MinimalGrant(spec *apispec.Spec) []string {
	var grant []string
	for {
		count := map[string]int{}
		for _, op := range spec.Operations {
			if len(op.Scopes) == 0 || slices.ContainsFunc(op.Scopes, func(s string) bool { return slices.Contains(grant, s) }) {
				continue
			}
			for _, s := range op.Scopes {
				count[s]++
			}
		}
		if len(count) == 0 {
			slices.Sort(grant)
			return grant
		}
		best := ""
		for s, n := range count {
			if n > count[best] || n == count[best] && s < best {
				best = s
			}
		}
		grant = append(grant, best)
	}
}
