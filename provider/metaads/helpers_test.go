package metaads

import (
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

var testNow = time.Date(2025, 6, 18, 15, 0, 0, 0, time.UTC)

type env struct {
	sb    *Sandbox
	tools map[string]gtmgate.Tool
	acct  gtmgate.Account
}

func newEnv(t *testing.T) *env {
	t.Helper()
	psb := NewSandbox()
	sb := psb.Handler.(*Sandbox)
	sb.now = func() time.Time { return testNow }
	opts := Options(providertest.Serve(t, psb))
	opts.Backoff = time.Millisecond
	e := &env{sb: sb, tools: map[string]gtmgate.Tool{}, acct: psb.Accounts[0]}
	for _, tool := range Tools(upstream.MustNew(opts)) {
		e.tools[tool.Name] = tool
	}
	return e
}

func (e *env) run(t *testing.T, tool, input string) (map[string]any, error) {
	t.Helper()
	out, err := providertest.Run(t, e.tools[tool], e.acct, SandboxToken, input)
	if err != nil {
		return nil, err
	}
	return out.(map[string]any), nil
}

func (e *env) mustRun(t *testing.T, tool, input string) map[string]any {
	t.Helper()
	out, err := e.run(t, tool, input)
	if err != nil {
		t.Fatalf("%s %s: %v", tool, input, err)
	}
	return out
}

func (e *env) runWithTokens(t *testing.T, tool string, ts gtmgate.TokenSource, input string) error {
	t.Helper()
	_, err := providertest.RunWith(t, e.tools[tool], e.acct, ts, input)
	return err
}
