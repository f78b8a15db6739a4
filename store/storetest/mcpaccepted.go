package storetest

import (
	"encoding/json"
	"testing"

	"github.com/gtmgate/gtmgate"
)

// testMCPAcceptedTools: a new server has nothing accepted; accepted
// definitions are kept apart from the configuration and the state (a
// replace or a state save keeps them, accepting changes neither), round-trip
// byte for byte with who accepted them and when, and a nil entry removes
// one. auto_accept_changes is part of the configuration.
func testMCPAcceptedTools(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	putTenant(t, s, "acme")
	putTenant(t, s, "beta")

	m := mcpServer("acme", "slack")
	m.AutoAcceptChanges = true
	_, err := s.PutMCPServer(ctx, m)
	must(t, err)
	_, err = s.PutMCPServer(ctx, mcpServer("beta", "slack"))
	must(t, err)
	got, err := s.GetMCPServer(ctx, "acme", "slack")
	must(t, err)
	if got.Accepted == nil || len(got.Accepted) != 0 || !got.AutoAcceptChanges {
		t.Fatalf("new server: accepted %v, auto-accept %v; want empty and true", got.Accepted, got.AutoAcceptChanges)
	}
	updated := got.UpdatedAt

	tool := json.RawMessage(`{"name":"post","description":"Posts\u200b.","annotations":{"destructiveHint":true}}`)
	must(t, s.AcceptMCPTools(ctx, "acme", "slack", map[string]*gtmgate.MCPAcceptedTool{
		"post": {Tool: tool, Hash: "sha256:aa", Mutating: true, Destructive: true},
		"read": {Tool: json.RawMessage(`{"name":"read"}`), Hash: "sha256:bb"},
	}, "person:p_1"))
	got, err = s.GetMCPServer(ctx, "acme", "slack")
	must(t, err)
	post := got.Accepted["post"]
	if len(got.Accepted) != 2 || string(post.Tool) != string(tool) || post.Hash != "sha256:aa" || !post.Mutating || !post.Destructive ||
		post.By != "person:p_1" || post.At.IsZero() {
		t.Fatalf("accepted = %+v", got.Accepted)
	}
	if !got.UpdatedAt.Equal(updated) {
		t.Errorf("accepting moved updated_at from %v to %v", updated, got.UpdatedAt)
	}

	// A replace of the configuration and a state save keep what was accepted.
	m.AutoAcceptChanges = false
	_, err = s.PutMCPServer(ctx, m)
	must(t, err)
	if len(m.Accepted) != 2 {
		t.Errorf("PutMCPServer's read-back accepted = %v", m.Accepted)
	}
	must(t, s.SaveMCPServerState(ctx, "acme", "slack", gtmgate.MCPServerState{Reachable: true}))
	got, err = s.GetMCPServer(ctx, "acme", "slack")
	must(t, err)
	if len(got.Accepted) != 2 || got.AutoAcceptChanges {
		t.Fatalf("after replace and state save: accepted %v, auto-accept %v", got.Accepted, got.AutoAcceptChanges)
	}

	// A nil entry removes a tool; another entry replaces one.
	must(t, s.AcceptMCPTools(ctx, "acme", "slack", map[string]*gtmgate.MCPAcceptedTool{
		"read": nil,
		"post": {Tool: json.RawMessage(`{"name":"post"}`), Hash: "sha256:cc"},
	}, gtmgate.MCPAcceptedByAuto))
	got, err = s.GetMCPServer(ctx, "acme", "slack")
	must(t, err)
	if _, ok := got.Accepted["read"]; ok || got.Accepted["post"].Hash != "sha256:cc" || got.Accepted["post"].By != gtmgate.MCPAcceptedByAuto {
		t.Fatalf("after remove and replace: %+v", got.Accepted)
	}
	other, err := s.GetMCPServer(ctx, "beta", "slack")
	must(t, err)
	if len(other.Accepted) != 0 {
		t.Errorf("beta's server of the same name has acme's accepted tools: %v", other.Accepted)
	}
	wantErr(t, s.AcceptMCPTools(ctx, "acme", "nope", map[string]*gtmgate.MCPAcceptedTool{"x": nil}, "person:p_1"), gtmgate.ErrNotFound)
}
