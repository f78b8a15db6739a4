package chat

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
)

type nopRecorder struct{}

func (nopRecorder) Record(context.Context, gtmgate.AuditEntry, *gtmgate.UsageEvent) error { return nil }
func (nopRecorder) Check() error                                                          { return nil }
func (nopRecorder) Flush(context.Context) error                                           { return nil }

// benchPair starts upstream and a gateway in front of it; it returns both base URLs.
func benchPair(b *testing.B, upstream http.HandlerFunc) (direct, gateway string) {
	b.Helper()
	up := httptest.NewServer(upstream)
	b.Cleanup(up.Close)
	h, err := New(Options{UpstreamURL: up.URL + "/v1", APIKey: gatewayKey, Recorder: nopRecorder{},
		Tenants: &fakeTenants{tenants: map[string]*gtmgate.Tenant{"acme": {ID: "acme", Status: gtmgate.TenantActive,
			AllowedModels: []string{"small"}}}},
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	mux := http.NewServeMux()
	h.Routes(mux, authAs)
	gw := httptest.NewServer(mux)
	b.Cleanup(gw.Close)
	return up.URL + "/v1", gw.URL + "/v1"
}

// benchPost sends body to base+/chat/completions b.N times over one keep-alive
// connection, reads each answer whole, and reports the median latency.
func benchPost(b *testing.B, base, body string) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4, DisableCompression: true}}
	defer client.CloseIdleConnections()
	lat := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		req, _ := http.NewRequest(http.MethodPost, base+"/chat/completions", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tenantToken)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Test-Tenant", "acme")
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || n == 0 {
			b.Fatalf("status %d, %d bytes", resp.StatusCode, n)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

func BenchmarkChatPassThrough(b *testing.B) {
	upstream := func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, answerBody)
	}
	direct, gateway := benchPair(b, upstream)
	b.Run("direct", func(b *testing.B) { benchPost(b, direct, clientBody) })
	b.Run("gateway", func(b *testing.B) { benchPost(b, gateway, clientBody) })
}

// benchStreamChunks is the number of content chunks of a streamed benchmark answer.
const benchStreamChunks = 20

func BenchmarkChatStream(b *testing.B) {
	var chunk bytes.Buffer
	for i := range benchStreamChunks {
		fmt.Fprintf(&chunk, `data: {"id":"s","object":"chat.completion.chunk","model":"small","choices":[{"index":0,"delta":{"content":"tok%d "},"finish_reason":null}],"usage":null}`+"\n\n", i)
	}
	events := bytes.Split(bytes.TrimSuffix(chunk.Bytes(), []byte("\n\n")), []byte("\n\n"))
	usageEv := []byte(`data: {"id":"s","object":"chat.completion.chunk","model":"small","choices":[],"usage":{"prompt_tokens":9,"completion_tokens":20,"total_tokens":29}}` + "\n\n")
	upstream := func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		f := w.(http.Flusher)
		for _, ev := range events {
			w.Write(ev)
			w.Write([]byte("\n\n"))
			f.Flush()
		}
		w.Write(usageEv)
		io.WriteString(w, "data: [DONE]\n\n")
		f.Flush()
	}
	direct, gateway := benchPair(b, upstream)
	body := `{"model":"small","stream":true,"messages":[{"role":"user","content":"hi"}]}`
	b.Run("direct", func(b *testing.B) { benchPost(b, direct, body) })
	b.Run("gateway", func(b *testing.B) { benchPost(b, gateway, body) })
}
