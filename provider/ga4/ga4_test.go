package ga4

import (
	"testing"

	"github.com/gtmgate/gtmgate/provider/providertest"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// fixture is a sandbox behind a loopback server and the tools pointed at it.
type fixture struct {
	providertest.Kit
	sandbox *Sandbox
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	sb := NewSandbox()
	url := providertest.Serve(t, sb)
	tools := Tools(upstream.MustNew(Options(url)))
	return &fixture{Kit: providertest.NewKit(tools, sb.Accounts[0], SandboxToken), sandbox: sb.Handler.(*Sandbox)}
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
