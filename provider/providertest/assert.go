package providertest

import (
	"context"
	"errors"
	"testing"

	"github.com/gtmgate/gtmgate"
)

// WantCode fails the test unless err is a *gtmgate.Error with code, and returns it.
func WantCode(t testing.TB, err error, code string) *gtmgate.Error {
	t.Helper()
	var ge *gtmgate.Error
	if !errors.As(err, &ge) {
		t.Fatalf("error = %v (%T), want *gtmgate.Error %s", err, err, code)
	}
	if ge.Code != code {
		t.Fatalf("code = %s (%s), want %s", ge.Code, ge.Message, code)
	}
	return ge
}

// Items returns a list result's "items" as objects (empty when absent).
func Items(t testing.TB, out map[string]any) []map[string]any {
	t.Helper()
	raw, _ := out["items"].([]any)
	res := make([]map[string]any, len(raw))
	for i, r := range raw {
		res[i] = r.(map[string]any)
	}
	return res
}

// RefreshingToken is a TokenSource whose token is Stale and whose refresh
// yields Fresh, for testing the provider-401 refresh path.
type RefreshingToken struct{ Stale, Fresh string }

// Token returns the stale token.
func (r RefreshingToken) Token(context.Context) (string, error) { return r.Stale, nil }

// Refresh returns the fresh token.
func (r RefreshingToken) Refresh(context.Context, string) (string, error) { return r.Fresh, nil }
