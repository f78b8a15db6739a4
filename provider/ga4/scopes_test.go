package ga4

import (
	"testing"

	"github.com/gtmgate/gtmgate/provider/apispec/spectest"
)

func TestSpecScopes(t *testing.T) {
	t.Parallel()
	if Spec() != Spec() {
		t.Fatal("Spec parsed twice")
	}
	if ops := spectest.Unscoped(Spec()); len(ops) > 0 {
		t.Fatalf("operations without OAuth scopes: %v", ops)
	}
}
