package providertest

import (
	"testing"

	"github.com/gtmgate/gtmgate"
)

// Kit holds one provider's tools and the sandbox account they act for, and
// runs them the way the gateway does (registry validation, then the tool).
// Adapter tests embed it in their own fixture next to their sandbox.
type Kit struct {
	Tools   map[string]gtmgate.Tool
	Account gtmgate.Account
	// Token is the provider token Run and MustRun send.
	Token string
}

// NewKit indexes tools by name.
func NewKit(tools []gtmgate.Tool, account gtmgate.Account, token string) Kit {
	k := Kit{Tools: make(map[string]gtmgate.Tool, len(tools)), Account: account, Token: token}
	for _, tool := range tools {
		k.Tools[tool.Name] = tool
	}
	return k
}

// Run calls a tool with the kit's token and returns its result object.
func (k Kit) Run(t testing.TB, tool, input string) (map[string]any, error) {
	t.Helper()
	out, err := Run(t, k.Tools[tool], k.Account, k.Token, input)
	if err != nil {
		return nil, err
	}
	return out.(map[string]any), nil
}

// MustRun is Run failing the test on error.
func (k Kit) MustRun(t testing.TB, tool, input string) map[string]any {
	t.Helper()
	out, err := k.Run(t, tool, input)
	if err != nil {
		t.Fatalf("%s %s: %v", tool, input, err)
	}
	return out
}

// RunWithTokens calls a tool with any TokenSource, for refresh paths.
func (k Kit) RunWithTokens(t testing.TB, tool string, ts gtmgate.TokenSource, input string) error {
	t.Helper()
	_, err := RunWith(t, k.Tools[tool], k.Account, ts, input)
	return err
}
