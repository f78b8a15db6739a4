// Package spectest makes a provider package's tests fail on any request or
// answer of its sandbox that the provider's published spec does not allow.
package spectest

import (
	"fmt"
	"os"
	"testing"

	"github.com/gtmgate/gtmgate/provider/apispec"
)

// Main runs the package's tests, then fails the binary when a sandbox saw a
// request or sent an answer its spec refuses and no test took it
// (Enforcer.TakeViolations). Call it from TestMain.
func Main(m *testing.M) {
	code := m.Run()
	if v := apispec.Unexpected(); len(v) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: %d request(s) or answer(s) the provider's published spec does not allow:\n", len(v))
		for _, s := range v {
			fmt.Fprintln(os.Stderr, "  "+s)
		}
		code = 1
	}
	os.Exit(code)
}

// Check fails t at its end with every violation e saw during it that the
// test did not take.
func Check(t testing.TB, e *apispec.Enforcer) {
	t.Helper()
	t.Cleanup(func() {
		for _, v := range e.TakeViolations() {
			t.Errorf("the provider's published spec does not allow this: %s", v)
		}
	})
}
