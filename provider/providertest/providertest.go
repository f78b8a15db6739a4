// Package providertest runs a provider adapter's tool against its sandbox the
// way the gateway would: input validated against the registry's schema, the
// account and token of the sandbox's demo tenant, the sandbox behind a real
// loopback HTTP server.
package providertest

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/registry"
)

// Serve starts the sandbox on a loopback server closed at the end of the test
// and returns its base URL.
func Serve(t testing.TB, sb gtmgate.ProviderSandbox) string {
	t.Helper()
	srv := httptest.NewServer(sb.Handler)
	t.Cleanup(srv.Close)
	if sb.Spec != nil {
		// Runs at the test's end, when its requests have been answered.
		t.Cleanup(func() {
			for _, v := range sb.Spec.TakeViolations() {
				t.Errorf("the provider's published spec does not allow this: %s", v)
			}
		})
	}
	return srv.URL
}

// Run validates input (a JSON object) against tool's schema and runs it with
// the given account and static token (none when empty). It returns the
// result re-encoded as generic JSON (maps and slices), as a client would see it.
func Run(t testing.TB, tool gtmgate.Tool, account gtmgate.Account, token string, input string) (any, error) {
	t.Helper()
	var ts gtmgate.TokenSource
	if token != "" {
		ts = gtmgate.StaticToken(token)
	}
	return RunWith(t, tool, account, ts, input)
}

// RunWith is Run with any token source, for testing refresh after a 401.
func RunWith(t testing.TB, tool gtmgate.Tool, account gtmgate.Account, ts gtmgate.TokenSource, input string) (any, error) {
	t.Helper()
	reg, err := registry.New(tool)
	if err != nil {
		t.Fatalf("registry: %v", err)
	}
	entry, _ := reg.Tool(tool.Name)
	m, action, err := entry.Validate(json.RawMessage(input))
	if err != nil {
		return nil, err
	}
	call := &gtmgate.Call{RequestID: "test", TenantID: "test", Tool: entry.Tool, Action: action,
		Input: json.RawMessage(input), Account: account, Token: ts}
	call.Limit, call.Cursor, call.Filter = registry.ListParams(m)
	res, err := tool.Run(context.Background(), call)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatalf("result does not encode as JSON: %v", err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("decode result: %v", err)
	}
	return out, nil
}
