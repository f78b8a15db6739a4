package brave

import (
	"reflect"
	"testing"

	"github.com/gtmgate/gtmgate/provider/apispec/spectest"
)

// TestDecodedFieldsAreDeclared: every field the tools decode Brave's answers
// into is one its reference gives that endpoint's answer, so a misspelled
// tag (a result's description) cannot drop what Brave sends.
func TestDecodedFieldsAreDeclared(t *testing.T) {
	t.Parallel()
	spectest.Decoded(t, braveSpec, webEndpoint.op.ID, reflect.TypeFor[webAnswer]())
	spectest.Decoded(t, braveSpec, newsEndpoint.op.ID, reflect.TypeFor[newsAnswer](),
		// result serves both endpoints; a NewsResult has no profile in
		// Brave's reference, so it stays nil there and the item's source
		// is meta_url's hostname (result.item).
		"results[].profile")
}
