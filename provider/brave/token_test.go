package brave

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/registry"
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
	entry, _ := registry.MustNew(tool).Tool(tool.Name)
	m, action, err := entry.Validate(json.RawMessage(input))
	if err != nil {
		return nil, err
	}
	call := &gtmgate.Call{RequestID: "test", TenantID: "test", Tool: entry.Tool, Action: action,
		Input: json.RawMessage(input), Account: account, Token: ts}
	call.Limit, call.Cursor, call.Filter = registry.ListParams(m)
	return tool.Run(context.Background(), call)
}
