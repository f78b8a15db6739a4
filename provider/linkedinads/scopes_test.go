package linkedinads

import (
	"testing"

	"github.com/gtmgate/gtmgate/provider/apispec/spectest"
)

func TestSpecScopes(t *testing.T) {
	t.Parallel()
	if Spec() != liSpec() {
		t.Fatal("Spec is not the sandbox's parse")
	}
	if ops := spectest.Unscoped(Spec()); len(ops) > 0 {
		t.Fatalf("operations without OAuth scopes: %v", ops)
	}
}
