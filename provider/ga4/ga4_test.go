package ga4

import (
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// fixture is a sandbox behind a loopback server and the tools pointed at it.
type fixture struct {
	tools   map[string]gtmgate.Tool
	sandbox *Sandbox
	account gtmgate.Account
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	sb := NewSandbox()
	url := providertest.Serve(t, sb)
	f := &fixture{tools: map[string]gtmgate.Tool{}, sandbox: sb.Handler.(*Sandbox), account: sb.Accounts[0]}
	for _, tl := range Tools(upstream.MustNew(upstream.Options{Provider: Provider, BaseURL: url})) {
		f.tools[tl.Name] = tl
	}
	return f
}

// run calls a tool with the sandbox token and fails the test on error.
func (f *fixture) run(t *testing.T, tool, input string) map[string]any {
	t.Helper()
	res, err := providertest.Run(t, f.tools[tool], f.account, SandboxToken, input)
	if err != nil {
		t.Fatalf("%s %s: %v", tool, input, err)
	}
	return res.(map[string]any)
}

func items(t *testing.T, res map[string]any) []map[string]any {
	t.Helper()
	raw, ok := res["items"].([]any)
	if !ok {
		t.Fatalf("result has no items: %v", res)
	}
	out := make([]map[string]any, len(raw))
	for i, r := range raw {
		out[i] = r.(map[string]any)
	}
	return out
}
