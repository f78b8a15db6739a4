package loadgen

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// statefulMCP is a minimal stateful streamable HTTP server: initialize
// hands out a session id (answered as an SSE event, as go-sdk does), every
// other message must carry it and the negotiated protocol version.
func statefulMCP(sessions *atomic.Int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var msg struct {
			ID     any    `json:"id"`
			Method string `json:"method"`
		}
		b, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(b, &msg); err != nil {
			http.Error(w, "bad json", http.StatusBadRequest)
			return
		}
		if msg.Method == "initialize" {
			id := fmt.Sprintf("s%d", sessions.Add(1))
			w.Header().Set("Mcp-Session-Id", id)
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"protocolVersion\":\"2025-06-18\"}}\n\n")
			return
		}
		if r.Header.Get("Mcp-Session-Id") == "" || r.Header.Get("Mcp-Protocol-Version") != "2025-06-18" {
			http.Error(w, "missing session", http.StatusBadRequest)
			return
		}
		if msg.Method == "notifications/initialized" {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ok"}]}}`)
	})
}

func TestRunWithMCPSessionPerWorker(t *testing.T) {
	var sessions atomic.Int64
	srv := httptest.NewServer(statefulMCP(&sessions))
	defer srv.Close()
	body, err := MCPToolCall("echo", json.RawMessage(`{"text":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{URL: srv.URL + "/mcp", Header: http.Header{}, Body: body, Concurrency: 3, Requests: 30, Check: CheckMCPResult}
	SetMCPHeaders(cfg.Header)
	cfg.Session = func(ctx context.Context, c *http.Client) (http.Header, error) {
		return MCPSession(ctx, c, cfg.URL, cfg.Header)
	}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests != 30 || res.Errors != 0 || res.Non2xx != 0 {
		t.Errorf("requests %d errors %d non-2xx %d (%s)", res.Requests, res.Errors, res.Non2xx, res.FirstError)
	}
	if n := sessions.Load(); n != 3 {
		t.Errorf("%d sessions, want one per worker (3)", n)
	}
}

func TestRunWithoutMCPSessionFails(t *testing.T) {
	var sessions atomic.Int64
	srv := httptest.NewServer(statefulMCP(&sessions))
	defer srv.Close()
	body, _ := MCPToolCall("echo", nil)
	cfg := Config{URL: srv.URL, Header: http.Header{}, Body: body, Concurrency: 1, Requests: 2, Check: CheckMCPResult}
	SetMCPHeaders(cfg.Header)
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Non2xx != 2 {
		t.Errorf("non-2xx %d, want 2 without a session", res.Non2xx)
	}
}

func TestMCPSessionReportsInitializeFailure(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "nope", http.StatusUnauthorized)
	}))
	defer srv.Close()
	if _, err := MCPSession(context.Background(), srv.Client(), srv.URL, http.Header{}); err == nil {
		t.Error("want an error for a 401 initialize")
	}
}
