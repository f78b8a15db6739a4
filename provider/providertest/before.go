package providertest

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/registry"
)

// Before runs the before-read of a held call of tool (input as the agent
// sent it) with the kit's account and token, as the gateway does when it
// holds the call, and returns the state re-encoded as generic JSON; it
// fails the test when the action declares no read.
func (k Kit) Before(t testing.TB, tool, input string) (map[string]any, error) {
	t.Helper()
	reg, err := registry.New(k.Tools[tool])
	if err != nil {
		t.Fatalf("registry: %v", err)
	}
	entry, _ := reg.Tool(tool)
	_, action, err := entry.Validate(json.RawMessage(input))
	if err != nil {
		t.Fatalf("%s %s: %v", tool, input, err)
	}
	if action.Before == nil {
		t.Fatalf("%s.%s reads no state before it", tool, action.Name)
	}
	var ts gtmgate.TokenSource
	if k.Token != "" {
		ts = gtmgate.StaticToken(k.Token)
	}
	state, err := action.Before(context.Background(), &gtmgate.Call{RequestID: "test", TenantID: "test", Tool: entry.Tool,
		Action: action, Input: json.RawMessage(input), Account: k.Account, Token: ts})
	if err != nil || state == nil {
		return nil, err
	}
	b, err := json.Marshal(state)
	if err != nil {
		t.Fatalf("before state does not encode as JSON: %v", err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("decode before state: %v", err)
	}
	return out, nil
}
