package loadgen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	body = firstEvent(body)
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

// MCPSession opens a streamable HTTP session on a stateful MCP server the
// way a client does before its first call: initialize, then the initialized
// notification. It returns the headers each later request of the session
// carries: the session id and the protocol version the server chose (a
// stateful go-sdk or mcp-go server refuses a call without them).
func MCPSession(ctx context.Context, client *http.Client, url string, header http.Header) (http.Header, error) {
	init := []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + MCPProtocolVersion +
		`","capabilities":{},"clientInfo":{"name":"gtmgate-loadgen","version":"1"}}}`)
	resp, body, err := mcpPost(ctx, client, url, header, init)
	if err != nil {
		return nil, fmt.Errorf("mcp initialize: %w", err)
	}
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("mcp initialize: status %d: %s", resp.StatusCode, clip(string(body), 200))
	}
	var res struct {
		Result *struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"result"`
	}
	if err := json.Unmarshal(firstEvent(body), &res); err != nil || res.Result == nil {
		return nil, fmt.Errorf("mcp initialize: no result: %s", clip(string(body), 200))
	}
	session := http.Header{}
	if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
		session.Set("Mcp-Session-Id", id)
	}
	if v := res.Result.ProtocolVersion; v != "" {
		session.Set("Mcp-Protocol-Version", v)
	}
	h := header.Clone()
	for k, v := range session {
		h[k] = v
	}
	resp, body, err = mcpPost(ctx, client, url, h, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	if err != nil {
		return nil, fmt.Errorf("mcp initialized: %w", err)
	}
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("mcp initialized: status %d: %s", resp.StatusCode, clip(string(body), 200))
	}
	return session, nil
}

// mcpPost sends one JSON-RPC message with the MCP headers and reads the answer.
func mcpPost(ctx context.Context, client *http.Client, url string, header http.Header, msg []byte) (*http.Response, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(msg))
	if err != nil {
		return nil, nil, err
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	SetMCPHeaders(req.Header)
	resp, err := client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp, body, err
}

// firstEvent is a JSON body as is, or the first data line of an SSE body.
func firstEvent(body []byte) []byte {
	if !bytes.HasPrefix(body, []byte("event:")) && !bytes.HasPrefix(body, []byte("data:")) && !bytes.HasPrefix(body, []byte("id:")) {
		return body
	}
	for line := range bytes.Lines(body) {
		if rest, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			return bytes.TrimSpace(rest)
		}
	}
	return nil
}
