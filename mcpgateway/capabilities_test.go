package mcpgateway

import (
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/mcpcapability"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// meta2026 is the _meta every 2026-07-28 request carries in place of
// initialize.
const meta2026 = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
	`"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`

// post2026 sends method with params (a JSON object's members, without
// braces) as a 2026-07-28 client does: _meta in params, the method (and
// name) in headers too.
func post2026(h http.Handler, id int, method, params, name string, extra ...string) (int, rpcReply) {
	members := meta2026
	if params != "" {
		members = params + "," + members
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": json.RawMessage("{" + members + "}")})
	header := []string{"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", method}
	if name != "" {
		header = append(header, "Mcp-Name", name)
	}
	header = append(header, extra...)
	rec := postMCP(h, string(body), header...)
	var reply rpcReply
	json.Unmarshal(rec.Body.Bytes(), &reply)
	return rec.Code, reply
}

// gatedCall is a request for a method of a server capability: its params
// (object members) and the Mcp-Name a 2026-07-28 client sends with them.
type gatedCall struct {
	method, params, name string
	legacyOnly           bool // removed in 2026-07-28, where the SDK refuses it itself
}

// undeclared are requests for methods of the capabilities /mcp does not
// declare, one for each method the gate knows.
var undeclared = []gatedCall{
	{method: "prompts/list"},
	{method: "prompts/get", params: `"name":"p"`, name: "p"},
	{method: "resources/list"},
	{method: "resources/templates/list"},
	{method: "resources/read", params: `"uri":"test://x"`, name: "test://x"},
	{method: "completion/complete", params: `"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":"b"}`},
	{method: "logging/setLevel", params: `"level":"info"`, legacyOnly: true},
	{method: "resources/subscribe", params: `"uri":"test://x"`, legacyOnly: true},
	{method: "resources/unsubscribe", params: `"uri":"test://x"`, legacyOnly: true},
}

// TestUndeclaredCapabilities: /mcp declares tools only, and a method of a
// capability it does not declare is method not found under both protocol
// revisions, as an unknown method is: 200 with -32601 and the request's id
// under 2025-11-25, 404 with the same under 2026-07-28.
func TestUndeclaredCapabilities(t *testing.T) {
	t.Parallel()
	h := newScopeEnv(t).handler
	for i, tc := range undeclared {
		t.Run(tc.method+" 2025-11-25", func(t *testing.T) {
			body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": i + 1, "method": tc.method, "params": json.RawMessage("{" + tc.params + "}")})
			rec := postMCP(h, string(body))
			var reply rpcReply
			if err := json.Unmarshal(rec.Body.Bytes(), &reply); err != nil {
				t.Fatalf("not JSON: %d %s", rec.Code, rec.Body)
			}
			checkMethodNotFound(t, rec.Code, http.StatusOK, reply, i+1)
		})
		if tc.legacyOnly {
			continue
		}
		t.Run(tc.method+" 2026-07-28", func(t *testing.T) {
			code, reply := post2026(h, i+1, tc.method, tc.params, tc.name)
			checkMethodNotFound(t, code, http.StatusNotFound, reply, i+1)
		})
	}
	t.Run("tools/list still answers", func(t *testing.T) {
		if code, reply := post2026(h, 1, "tools/list", "", ""); code != http.StatusOK || reply.Error != nil {
			t.Fatalf("tools/list: %d %+v", code, reply.Error)
		}
	})
}

func checkMethodNotFound(t *testing.T, code, wantStatus int, reply rpcReply, id int) {
	t.Helper()
	if code != wantStatus || reply.Error == nil || reply.Error.Code != -32601 {
		t.Fatalf("status %d, error %+v, result %s: want %d and -32601", code, reply.Error, reply.Result, wantStatus)
	}
	if string(reply.ID) != strconv.Itoa(id) {
		t.Errorf("id %s, want %d", reply.ID, id)
	}
	if !strings.Contains(reply.Error.Message, "method not found") {
		t.Errorf("message %q", reply.Error.Message)
	}
}

// TestDeclaredCapabilitiesMatchTheGate: what server/discover declares is
// what the gate lets through, for every kind of server New builds (the
// built-in tools, a toolset's, discovery mode's): a capability the SDK
// inferred (from a prompt or resource registered one day) would otherwise
// be declared and refused at once.
func TestDeclaredCapabilitiesMatchTheGate(t *testing.T) {
	t.Parallel()
	h := newToolsetEnv(t).handler
	for _, toolset := range []string{"none", "meeting-prep", "discovery"} {
		t.Run(toolset, func(t *testing.T) {
			code, reply := post2026(h, 1, "server/discover", "", "", "Authorization", "Bearer "+toolset)
			var res struct {
				Capabilities json.RawMessage `json:"capabilities"`
			}
			if code != http.StatusOK || json.Unmarshal(reply.Result, &res) != nil {
				t.Fatalf("server/discover: %d %+v", code, reply.Error)
			}
			var caps mcp.ServerCapabilities
			var declared map[string]any
			if json.Unmarshal(res.Capabilities, &caps) != nil || json.Unmarshal(res.Capabilities, &declared) != nil {
				t.Fatalf("capabilities %s", res.Capabilities)
			}
			if got := slices.Sorted(maps.Keys(declared)); !slices.Equal(got, []string{"tools"}) {
				t.Errorf("declares %v, want [tools]", got)
			}
			for _, tc := range undeclared {
				body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 2, "method": tc.method, "params": json.RawMessage("{" + tc.params + "}")})
				var reply rpcReply
				json.Unmarshal(postMCP(h, string(body), "Authorization", "Bearer "+toolset).Body.Bytes(), &reply)
				refused := reply.Error != nil && reply.Error.Code == -32601
				if mcpcapability.Methods[tc.method](&caps) == refused {
					t.Errorf("%s: declared %v, refused %v: %+v", tc.method, !refused, refused, reply.Error)
				}
			}
		})
	}
	for method := range mcpcapability.Methods {
		if !slices.ContainsFunc(undeclared, func(u gatedCall) bool { return u.method == method }) {
			t.Errorf("%s is gated but not tested", method)
		}
	}
}
