package hubspot

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// testEnv is a sandbox behind a loopback server and the tools pointed at it.
type testEnv struct {
	t       *testing.T
	sandbox *Sandbox
	tools   map[string]gtmgate.Tool
	account gtmgate.Account
	token   string
}

func newTestEnv(t *testing.T) *testEnv {
	t.Helper()
	sb := NewSandbox()
	base := providertest.Serve(t, sb)
	c := upstream.MustNew(upstream.Options{Provider: Provider, BaseURL: base, Timeout: 5 * time.Second, Backoff: 10 * time.Millisecond})
	e := &testEnv{t: t, sandbox: sb.Handler.(*Sandbox), tools: map[string]gtmgate.Tool{}, account: sb.Accounts[0], token: sb.Token}
	for _, tool := range Tools(c) {
		e.tools[tool.Name] = tool
	}
	return e
}

// run calls a tool the way the gateway does.
func (e *testEnv) run(tool, input string) (any, error) {
	e.t.Helper()
	tl, ok := e.tools[tool]
	if !ok {
		e.t.Fatalf("no tool %q", tool)
	}
	return providertest.Run(e.t, tl, e.account, e.token, input)
}

// mustRun calls a tool and decodes its result into T.
func mustRun[T any](e *testEnv, tool, input string) T {
	e.t.Helper()
	res, err := e.run(tool, input)
	if err != nil {
		e.t.Fatalf("%s %s: %v", tool, input, err)
	}
	return decodeAs[T](e.t, res)
}

func decodeAs[T any](t testing.TB, v any) T {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	var out T
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
	return out
}

// upstreamDetail returns the error's UpstreamDetail.
func upstreamDetail(t testing.TB, ge *gtmgate.Error) gtmgate.UpstreamDetail {
	t.Helper()
	d, ok := ge.Detail.(gtmgate.UpstreamDetail)
	if !ok {
		t.Fatalf("detail = %#v, want gtmgate.UpstreamDetail", ge.Detail)
	}
	return d
}

// runWithTokenSource runs a tool with any TokenSource, to exercise the 401 refresh path.
func (e *testEnv) runWithTokenSource(tool string, ts gtmgate.TokenSource, input string) (any, error) {
	e.t.Helper()
	return providertest.RunWith(e.t, e.tools[tool], e.account, ts, input)
}

// propValue returns a record property's value, "" when null or absent.
func propValue(it Item, name string) string {
	if v := it.Properties[name]; v != nil {
		return *v
	}
	return ""
}
