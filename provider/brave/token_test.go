package brave

import (
	"context"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

// refreshedBadToken is a TokenSource whose refresh "succeeds" with another
// token the provider also refuses, so the second 401 reaches the caller as
// UPSTREAM_ERROR (a StaticToken ends in REAUTH_REQUIRED instead).
type refreshedBadToken string

func (b refreshedBadToken) Token(context.Context) (string, error) { return string(b), nil }

func (b refreshedBadToken) Refresh(context.Context, string) (string, error) {
	return string(b) + "-refreshed", nil
}

// runWithSource runs tool like providertest.Run but with any TokenSource.
func runWithSource(t *testing.T, tool gtmgate.Tool, account gtmgate.Account, ts gtmgate.TokenSource, input string) (any, error) {
	t.Helper()
	return providertest.RunWith(t, tool, account, ts, input)
}
