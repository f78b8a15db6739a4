package bigquery

import (
	"context"
	"testing"

	"github.com/gtmgate/gtmgate/provider/apispec/spectest"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// setup starts a sandbox and returns it with the tools wired to it.
func setup(t *testing.T) (*Sandbox, map[string]gtmgate.Tool) {
	t.Helper()
	sb := NewSandbox()
	opts := Options(providertest.Serve(t, sb.ProviderSandbox))
	opts.Backoff = time.Millisecond
	tools := map[string]gtmgate.Tool{}
	for _, tool := range Tools(upstream.MustNew(opts), nil) {
		tools[tool.Name] = tool
	}
	return sb, tools
}

func run(t *testing.T, sb *Sandbox, tool gtmgate.Tool, input string) (map[string]any, error) {
	t.Helper()
	out, err := providertest.Run(t, tool, sb.Accounts[0], SandboxToken, input)
	if err != nil {
		return nil, err
	}
	return out.(map[string]any), nil
}

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

func providertestRun(t *testing.T, sb *Sandbox, tool gtmgate.Tool, token, input string) (any, error) {
	t.Helper()
	return providertest.Run(t, tool, sb.Accounts[0], token, input)
}

func TestMain(m *testing.M) { spectest.Main(m) }
