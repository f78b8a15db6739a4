package app

import (
	"testing"

	"github.com/gtmgate/gtmgate/provider/apispec/spectest"
)

// TestProviderSpecsNameScopes: every OAuth provider's facts name, for every
// operation its tools call, the scopes that admit it (what providers check
// compares a credential with), and Spec returns one parse.
func TestProviderSpecsNameScopes(t *testing.T) {
	for _, p := range providers() {
		if p.spec == nil {
			continue
		}
		if p.spec() != p.spec() {
			t.Errorf("%s: Spec parsed twice", p.key)
		}
		if ops := spectest.Unscoped(p.spec()); len(ops) > 0 {
			t.Errorf("%s: operations without OAuth scopes: %v", p.key, ops)
		}
	}
}
