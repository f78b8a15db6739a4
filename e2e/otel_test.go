package e2e

import (
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// otlpReceiver is an in-process OTLP/HTTP trace receiver: it decodes the
// protobuf export requests the binary sends and keeps their spans.
type otlpReceiver struct {
	*httptest.Server
	mu    sync.Mutex
	spans []*tracepb.Span
}

func newOTLPReceiver(t *testing.T) *otlpReceiver {
	r := &otlpReceiver{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Path != "/v1/traces" || req.Header.Get("Content-Type") != "application/x-protobuf" {
			http.Error(w, "unexpected export", http.StatusBadRequest)
			return
		}
		body, _ := io.ReadAll(req.Body)
		var export coltracepb.ExportTraceServiceRequest
		if err := proto.Unmarshal(body, &export); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.mu.Lock()
		for _, rs := range export.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				r.spans = append(r.spans, ss.Spans...)
			}
		}
		r.mu.Unlock()
		w.Header().Set("Content-Type", "application/x-protobuf")
		out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
		w.Write(out)
	}))
	t.Cleanup(r.Close)
	return r
}

// trace waits (bounded, to turn a missing span into a failure) until the
// spans of traceID include every name in want, and returns them by name.
func (r *otlpReceiver) trace(t *testing.T, traceID string, want ...string) map[string]*tracepb.Span {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		byName := map[string]*tracepb.Span{}
		r.mu.Lock()
		for _, s := range r.spans {
			if hex.EncodeToString(s.TraceId) == traceID {
				byName[s.Name] = s
			}
		}
		r.mu.Unlock()
		missing := ""
		for _, n := range want {
			if byName[n] == nil {
				missing = n
				break
			}
		}
		if missing == "" {
			return byName
		}
		if time.Now().After(deadline) {
			names := make([]string, 0, len(byName))
			for n := range byName {
				names = append(names, n)
			}
			t.Fatalf("trace %s lacks span %q; has %v", traceID, missing, names)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func attr(s *tracepb.Span, key string) *commonpb.AnyValue {
	for _, kv := range s.Attributes {
		if kv.Key == key {
			return kv.Value
		}
	}
	return nil
}

// TestOpenTelemetryTrace: with an OTLP endpoint configured, one REST call
// that carries a W3C traceparent yields the span tree inbound request →
// tool execution → authorize / validate / adapter → provider call, with
// parent links, semantic-convention attributes, no secrets, and the trace id
// in the call's audit entry.
func TestOpenTelemetryTrace(t *testing.T) {
	rcv := newOTLPReceiver(t)
	p := start(t, t.TempDir(), "OTEL_EXPORTER_OTLP_ENDPOINT="+rcv.URL, "OTEL_BSP_SCHEDULE_DELAY=50", "OTEL_SERVICE_NAME=gtmgate-e2e")
	const traceID, callerSpan = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	req, _ := http.NewRequest(http.MethodPost, p.gateway+"/api/v1/demo/crm",
		strings.NewReader(`{"tool":"crm_contacts","input":{"action":"list","limit":2,"rationale":"trace e2e"}}`))
	req.Header.Set("Authorization", "Bearer "+p.demoToken)
	req.Header.Set("traceparent", "00-"+traceID+"-"+callerSpan+"-01")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("tool call: %d", resp.StatusCode)
	}
	const (
		server  = "POST /api/v1/{tenant}/{domain}"
		tool    = "execute_tool crm_contacts"
		adapter = "toolrun.adapter"
	)
	spans := rcv.trace(t, traceID, server, tool, "toolrun.authorize", "toolrun.validate", adapter, "GET")
	parentOf := func(child, parent string) {
		t.Helper()
		if got, want := hex.EncodeToString(spans[child].ParentSpanId), hex.EncodeToString(spans[parent].SpanId); got != want {
			t.Errorf("%s's parent is %s, want %s (%s)", child, got, want, parent)
		}
	}
	if got := hex.EncodeToString(spans[server].ParentSpanId); got != callerSpan {
		t.Errorf("server span's parent %s, want the caller's %s", got, callerSpan)
	}
	parentOf(tool, server)
	parentOf("toolrun.authorize", tool)
	parentOf("toolrun.validate", tool)
	parentOf(adapter, tool)
	parentOf("GET", adapter)
	for _, c := range []struct {
		span, key, want string
	}{
		{server, "http.route", "/api/v1/{tenant}/{domain}"},
		{server, "http.request.method", "POST"},
		{tool, "gen_ai.tool.name", "crm_contacts"},
		{tool, "gtmgate.tenant.id", "demo"},
		{tool, "gtmgate.tool.action", "list"},
		{tool, "gtmgate.call.source", "rest"},
		{"GET", "gtmgate.provider", "hubspot"},
	} {
		if v := attr(spans[c.span], c.key); v.GetStringValue() != c.want {
			t.Errorf("%s %s = %v, want %q", c.span, c.key, v, c.want)
		}
	}
	if v := attr(spans[server], "http.response.status_code"); v.GetIntValue() != 200 {
		t.Errorf("server span status = %v", v)
	}
	if v := attr(spans["GET"], "http.response.status_code"); v.GetIntValue() != 200 {
		t.Errorf("provider call status = %v", v)
	}
	if spans[server].Kind != tracepb.Span_SPAN_KIND_SERVER || spans["GET"].Kind != tracepb.Span_SPAN_KIND_CLIENT {
		t.Errorf("kinds: server %v, provider call %v", spans[server].Kind, spans["GET"].Kind)
	}
	// Store queries on the request path are spans too (the token lookup at least).
	rcv.mu.Lock()
	var dbSpans int
	for _, s := range rcv.spans {
		if hex.EncodeToString(s.TraceId) == traceID && attr(s, "db.system.name").GetStringValue() == "sqlite" {
			dbSpans++
		}
		b, _ := proto.Marshal(s)
		for _, secret := range []string{p.demoToken, "sandbox-hubspot-token", "trace e2e"} {
			if strings.Contains(string(b), secret) {
				t.Errorf("span %s carries %q", s.Name, secret)
			}
		}
	}
	rcv.mu.Unlock()
	if dbSpans == 0 {
		t.Error("no store query span in the trace")
	}

	// An MCP tools/call continues the trace through the SDK to the runner.
	const mcpTrace = "5bf92f3577b34da6a3ce929d0e0e4737"
	mreq, _ := http.NewRequest(http.MethodPost, p.gateway+"/mcp", strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"crm_pipelines","arguments":{"action":"list","rationale":"trace e2e"}}}`))
	mreq.Header.Set("Authorization", "Bearer "+p.demoToken)
	mreq.Header.Set("Content-Type", "application/json")
	mreq.Header.Set("Accept", "application/json, text/event-stream")
	mreq.Header.Set("traceparent", "00-"+mcpTrace+"-"+callerSpan+"-01")
	mresp, err := http.DefaultClient.Do(mreq)
	if err != nil {
		t.Fatal(err)
	}
	mresp.Body.Close()
	mspans := rcv.trace(t, mcpTrace, "POST /mcp", "tools/call crm_pipelines", "execute_tool crm_pipelines")
	if got, want := hex.EncodeToString(mspans["tools/call crm_pipelines"].ParentSpanId), hex.EncodeToString(mspans["POST /mcp"].SpanId); got != want {
		t.Errorf("tools/call span's parent %s, want the /mcp request's %s", got, want)
	}
	if got, want := hex.EncodeToString(mspans["execute_tool crm_pipelines"].ParentSpanId), hex.EncodeToString(mspans["tools/call crm_pipelines"].SpanId); got != want {
		t.Errorf("execute_tool's parent %s, want tools/call's %s", got, want)
	}
	if v := attr(mspans["tools/call crm_pipelines"], "mcp.method.name"); v.GetStringValue() != "tools/call" {
		t.Errorf("mcp.method.name = %v", v)
	}

	// The audit entry names the trace.
	areq, _ := http.NewRequest(http.MethodGet, p.gateway+"/admin/audit?source=rest&limit=1", nil)
	areq.Header.Set("X-Admin-Key", adminKey)
	aresp, err := http.DefaultClient.Do(areq)
	if err != nil {
		t.Fatal(err)
	}
	defer aresp.Body.Close()
	var audit struct {
		Entries []struct {
			TraceID string `json:"trace_id"`
		} `json:"entries"`
	}
	json.NewDecoder(aresp.Body).Decode(&audit)
	if len(audit.Entries) != 1 || audit.Entries[0].TraceID != traceID {
		t.Fatalf("audit entries %+v, want trace_id %s", audit.Entries, traceID)
	}
}
