package loadgen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
)

// MCPProtocolVersion is the protocol version the benchmarks announce.
const MCPProtocolVersion = "2025-11-25"

// MCPToolCall returns the JSON-RPC body of a tools/call request.
func MCPToolCall(tool string, args json.RawMessage) ([]byte, error) {
	if len(args) == 0 {
		args = json.RawMessage(`{}`)
	}
	if !json.Valid(args) {
		return nil, errors.New("mcp arguments: not valid JSON")
	}
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": map[string]any{"name": tool, "arguments": args}})
	if err != nil {
		return nil, fmt.Errorf("mcp body: %w", err)
	}
	return body, nil
}

// SetMCPHeaders adds the streamable HTTP headers an MCP client sends,
// keeping any already set.
func SetMCPHeaders(h http.Header) {
	for k, v := range map[string]string{
		"Accept":               "application/json, text/event-stream",
		"Content-Type":         "application/json",
		"Mcp-Protocol-Version": MCPProtocolVersion,
	} {
		if h.Get(k) == "" {
			h.Set(k, v)
		}
	}
}

// CheckMCPResult fails a JSON-RPC response that carries an error or a tool
// result with isError. It accepts a JSON body or an SSE body whose first
// data line holds the response.
func CheckMCPResult(body []byte) error {
	if bytes.HasPrefix(body, []byte("event:")) || bytes.HasPrefix(body, []byte("data:")) {
		for line := range bytes.Lines(body) {
			if rest, ok := bytes.CutPrefix(line, []byte("data:")); ok {
				body = bytes.TrimSpace(rest)
				break
			}
		}
	}
	var resp struct {
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
		Result *struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	}
	if err := json.Unmarshal(body, &resp); err != nil {
		return fmt.Errorf("mcp response: %w", err)
	}
	switch {
	case resp.Error != nil:
		return fmt.Errorf("mcp error %d: %s", resp.Error.Code, resp.Error.Message)
	case resp.Result == nil:
		return errors.New("mcp response without result")
	case resp.Result.IsError:
		text := ""
		if len(resp.Result.Content) > 0 {
			text = resp.Result.Content[0].Text
		}
		return fmt.Errorf("mcp tool error: %s", clip(text, 200))
	}
	return nil
}
