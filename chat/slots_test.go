package chat

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
)

// TestStreamCaps: streamed responses past the per-tenant or the total cap
// answer 429 without reaching the upstream; a finished stream frees its slot.
func TestStreamCaps(t *testing.T) {
	hold := make(chan struct{})
	e := newEnv(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte("data: {\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\n"))
		w.(http.Flusher).Flush()
		<-hold
		w.Write([]byte("data: [DONE]\n\n"))
	}, func(o *Options) { o.MaxStreams, o.MaxStreamsPerTenant = 3, 2 })
	const stream = `{"model":"small","stream":true,"messages":[]}`
	open := func(tenant string) *http.Response {
		t.Helper()
		resp := e.post(t, context.Background(), stream, map[string]string{"X-Test-Tenant": tenant})
		if resp.StatusCode == http.StatusOK {
			// The first event proves the stream holds its slot.
			if _, err := bufio.NewReader(resp.Body).ReadString('\n'); err != nil {
				t.Fatal(err)
			}
		}
		return resp
	}
	var held []*http.Response
	for range 2 {
		resp := open("acme")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("stream within the cap: %d", resp.StatusCode)
		}
		held = append(held, resp)
	}
	resp := open("acme")
	body := checkErrorShape(t, resp, http.StatusTooManyRequests, gtmgate.ERateLimited)
	if !strings.Contains(body.Error.Message, "this tenant") || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("per-tenant cap: %+v, Retry-After %q", body.Error, resp.Header.Get("Retry-After"))
	}
	other := open("limited")
	if other.StatusCode != http.StatusOK {
		t.Fatalf("another tenant under the total cap: %d", other.StatusCode)
	}
	held = append(held, other)
	resp = open("limited")
	if body := checkErrorShape(t, resp, http.StatusTooManyRequests, gtmgate.ERateLimited); !strings.Contains(body.Error.Message, "the gateway") {
		t.Fatalf("total cap: %+v", body.Error)
	}
	close(hold)
	for _, r := range held {
		r.Body.Close()
	}
}

func TestStreamSlotsRelease(t *testing.T) {
	s := newStreamSlots(1, 1)
	release, err := s.acquire("a")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.acquire("b"); err == nil {
		t.Fatal("second stream past a total cap of 1")
	}
	release()
	release() // twice is harmless
	if _, err := s.acquire("b"); err != nil {
		t.Fatalf("after release: %v", err)
	}
}
