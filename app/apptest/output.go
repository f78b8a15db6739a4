package apptest

import (
	"encoding/json"
	"net/http"
	"strings"
)

// checkToolOutput holds every successful MCP tools/call result a test
// receives to the outputSchema tools/list publishes for that tool, as an MCP
// client that validates structuredContent would.
func (e *Env) checkToolOutput(req *http.Request, body []byte) {
	e.T.Helper()
	if req.Method != http.MethodPost || !strings.HasPrefix(req.URL.String(), e.GatewayURL+"/mcp") {
		return
	}
	var rpc struct {
		Result *struct {
			IsError           bool           `json:"isError"`
			StructuredContent map[string]any `json:"structuredContent"`
		} `json:"result"`
	}
	if json.Unmarshal(body, &rpc) != nil || rpc.Result == nil || rpc.Result.IsError || rpc.Result.StructuredContent == nil {
		return
	}
	name, _ := rpc.Result.StructuredContent["tool"].(string)
	entry, ok := e.App.Registry().Tool(name)
	if !ok {
		e.T.Errorf("tools/call result names tool %q, which the registry does not have: %.300s", name, body)
		return
	}
	if err := entry.CheckOutput(rpc.Result.StructuredContent); err != nil {
		e.T.Errorf("tools/call %s: structuredContent does not match its outputSchema: %v\nbody: %.600s", name, err, body)
	}
}
