package spectest

import (
	"slices"

	"github.com/gtmgate/gtmgate/provider/apispec"
)

// Unadmitted lists the ids of the operations of spec that no scope of
// granted admits; operations that name no scope are skipped. A sandbox's
// default grant should leave it empty.
func Unadmitted(spec *apispec.Spec, granted []string) []string {
	var out []string
	for _, op := range spec.Operations {
		if len(op.Scopes) > 0 && !slices.ContainsFunc(op.Scopes, func(s string) bool { return slices.Contains(granted, s) }) {
			out = append(out, op.ID)
		}
	}
	slices.Sort(out)
	return out
}

// Unscoped lists the ids of the operations of spec that name no OAuth
// scope: facts a scope check cannot use.
func Unscoped(spec *apispec.Spec) []string {
	var out []string
	for _, op := range spec.Operations {
		if len(op.Scopes) == 0 {
			out = append(out, op.ID)
		}
	}
	slices.Sort(out)
	return out
}
