package spectest

import (
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/provider/apispec"
)

// Decoded fails t for every field that typ, the Go type an adapter decodes
// the answer of operationID into, reads and the operation's response schema
// does not declare (apispec.Spec.Undeclared): a misspelled json tag would
// drop the provider's data without an error. allowed are paths the facts
// lack though the provider sends them, each to be explained where it is
// listed; an allowed path the schema does declare fails too, so the list
// never outlives its reason.
func Decoded(t testing.TB, spec *apispec.Spec, operationID string, typ reflect.Type, allowed ...string) {
	t.Helper()
	op, ok := spec.Operation(operationID)
	if !ok {
		t.Errorf("%s decodes %s: %s has no operation %s", typ, operationID, spec.Title, operationID)
		return
	}
	if op.Response == nil {
		t.Errorf("%s decodes %s, whose facts have no response schema", typ, operationID)
		return
	}
	used := map[string]bool{}
	for _, p := range spec.Undeclared(op.Response, typ) {
		path, _, _ := strings.Cut(p, ": ")
		if slices.Contains(allowed, path) {
			used[path] = true
			continue
		}
		t.Errorf("%s decoding the answer of %s: %s", typ, operationID, p)
	}
	for _, a := range allowed {
		if !used[a] {
			t.Errorf("%s decoding the answer of %s: %s is allowed as undeclared, but the schema declares it or the type no longer reads it", typ, operationID, a)
		}
	}
}

// DecodedAll is Decoded for each operation of decodes and the type its
// answer is decoded into, with nothing allowed.
func DecodedAll(t testing.TB, spec *apispec.Spec, decodes map[string]reflect.Type) {
	t.Helper()
	for _, op := range slices.Sorted(maps.Keys(decodes)) {
		Decoded(t, spec, op, decodes[op])
	}
}
