package app_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
	"github.com/gtmgate/gtmgate/config"
	"github.com/gtmgate/gtmgate/provider/hubspot"
	"github.com/gtmgate/gtmgate/telemetry"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// BenchmarkRESTToolCall measures a whole tool call through the gateway
// (auth, tenant, validation, token, adapter, audit and usage) against a
// loopback HubSpot sandbox, next to the same upstream request made directly.
func BenchmarkRESTToolCall(b *testing.B) {
	sb := httptest.NewServer(hubspot.NewSandbox().Handler)
	defer sb.Close()
	env := apptest.Start(b, func(c *config.Config) { c.Upstreams["hubspot"] = sb.URL })
	body := []byte(`{"tool":"crm_pipelines","input":{"action":"list","rationale":"bench"}}`)
	run := benchRequests
	b.Run("direct", func(b *testing.B) {
		run(b, sb.URL+"/crm/v3/pipelines/deals", nil, "GET", hubspot.SandboxToken)
	})
	b.Run("gateway", func(b *testing.B) {
		run(b, env.GatewayURL+"/api/v1/demo/crm", body, "POST", env.DemoToken)
	})
	// Last: tracing, once installed, stays on for the process. Every span is
	// sampled and batched; the exporter drops them.
	b.Run("gateway_traced", func(b *testing.B) {
		telemetry.Install(sdktrace.NewTracerProvider(sdktrace.WithBatcher(tracetest.NewNoopExporter())))
		traced := apptest.Start(b, func(c *config.Config) { c.Upstreams["hubspot"] = sb.URL })
		run(b, traced.GatewayURL+"/api/v1/demo/crm", body, "POST", traced.DemoToken)
	})
}

// BenchmarkMCPToolCall measures the same tool call as an MCP tools/call on
// /mcp (stateless, JSON responses): the SDK's JSON-RPC handling on top of
// the REST path's work.
func BenchmarkMCPToolCall(b *testing.B) {
	sb := httptest.NewServer(hubspot.NewSandbox().Handler)
	defer sb.Close()
	env := apptest.Start(b, func(c *config.Config) { c.Upstreams["hubspot"] = sb.URL })
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"crm_pipelines","arguments":{"action":"list","rationale":"bench"}}}`)
	benchRequests(b, env.GatewayURL+"/mcp", body, "POST", env.DemoToken, "Content-Type", "application/json",
		"Accept", "application/json, text/event-stream", "MCP-Protocol-Version", "2025-11-25")
}

// BenchmarkRESTGradingRate measures the same tool call with every call
// sampled for grading and with grading off, in one run: grading happens in
// background jobs, so the difference should be noise. The judges are the
// demo's sandbox model gateway, answering at once.
func BenchmarkRESTGradingRate(b *testing.B) {
	body := []byte(`{"tool":"crm_pipelines","input":{"action":"list","rationale":"bench"}}`)
	for _, rate := range []float64{0, 1} {
		env := apptest.Start(b, func(c *config.Config) { c.GraderSampleRate = rate })
		b.Run(fmt.Sprintf("rate=%.1f", rate), func(b *testing.B) {
			benchRequests(b, env.GatewayURL+"/api/v1/demo/crm", body, "POST", env.DemoToken)
		})
	}
}

var benchClient = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}

// benchRequests sends one request per iteration and wants 200; header is
// name, value pairs sent besides the bearer token.
func benchRequests(b *testing.B, url string, body []byte, method, auth string, header ...string) {
	b.ReportAllocs()
	for b.Loop() {
		req, _ := http.NewRequest(method, url, bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+auth)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := benchClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatalf("status %d", resp.StatusCode)
		}
	}
}
