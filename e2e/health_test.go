package e2e

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// healthAnswer is what the health routes answer that these tests read.
type healthAnswer struct {
	code    int
	Status  string   `json:"status"`
	Ready   bool     `json:"ready"`
	Reasons []string `json:"reasons"`
	Store   struct {
		Reachable bool `json:"reachable"`
	} `json:"store"`
	Cache *struct {
		Servable int `json:"servable_credentials"`
	} `json:"cache"`
	took time.Duration
}

func getHealth(t *testing.T, p *process, path string) healthAnswer {
	t.Helper()
	client := &http.Client{Timeout: 10 * time.Second}
	start := time.Now()
	resp, err := client.Get(p.gateway + path)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var h healthAnswer
	if err := json.Unmarshal(b, &h); err != nil {
		t.Fatalf("GET %s: %v: %s", path, err, b)
	}
	h.code, h.took = resp.StatusCode, time.Since(start)
	if strings.Contains(string(b), "127.0.0.1") || strings.Contains(string(b), p.dataDir) {
		t.Errorf("GET %s names a host or path: %s", path, b)
	}
	return h
}

// TestReadinessThroughStoreOutage runs the real binary on PostgreSQL behind
// a proxy the test controls. Before any call, an outage makes it not ready
// (its cache holds nothing to serve) though alive. While the store refuses
// connections, and while
// it black-holes them, calls keep succeeding from the cache and the audit
// journal, /health/ready and /health stay 200 with status degraded, and
// /health/live is 200; once the store is back, readiness is ok again.
func TestReadinessThroughStoreOutage(t *testing.T) {
	adminURL, db := testDatabase(t)
	proxy := newFaultProxy(t, "127.0.0.1:5432")
	if u, err := pgx.ParseConfig(adminURL); err == nil {
		proxy.target = net.JoinHostPort(u.Host, strconv.Itoa(int(u.Port)))
	}
	p := start(t, t.TempDir(), "DATABASE_URL="+withDatabase(adminURL, proxy.addr(), db))

	for _, path := range []string{"/health/ready", "/health", "/health/live"} {
		if h := getHealth(t, p, path); h.code != 200 || h.Status != "ok" {
			t.Fatalf("healthy store: %s = %d %+v", path, h.code, h)
		}
	}
	// Before any call the cache is cold: through an outage now the replica
	// could serve nothing, so it is not ready, though alive.
	proxy.set(proxyRefuse)
	if h := getHealth(t, p, "/health/ready"); h.code != 503 || h.Ready || !strings.Contains(strings.Join(h.Reasons, "; "), "cache holds no credential") {
		t.Errorf("cold cache, store refused: /health/ready = %d %+v, want 503 naming the cold cache", h.code, h)
	}
	if h := getHealth(t, p, "/health/live"); h.code != 200 {
		t.Errorf("cold cache, store refused: /health/live = %d %+v", h.code, h)
	}
	proxy.set(proxyPass)
	waitReachable(t, p)
	ok := func(phase string, results []callResult) int {
		n := 0
		for _, r := range results {
			if r.status == http.StatusOK {
				n++
			}
		}
		t.Logf("%s: %d of %d calls succeeded", phase, n, len(results))
		return n
	}
	if n := ok("healthy", restCalls(t, p, 20, 4)); n != 20 {
		t.Fatalf("healthy store: %d of 20 calls succeeded", n)
	}
	for _, phase := range []struct {
		name string
		mode int32
	}{{"refused", proxyRefuse}, {"black hole", proxyBlackhole}} {
		proxy.set(phase.mode)
		for range 3 { // several probes across the outage, calls between them
			if n := ok(phase.name, restCalls(t, p, 20, 4)); n != 20 {
				t.Errorf("%s: %d of 20 calls succeeded, want all from the cache and journal", phase.name, n)
			}
			for _, path := range []string{"/health/ready", "/health"} {
				h := getHealth(t, p, path)
				t.Logf("%s: %s = %d %s in %s, reasons %q", phase.name, path, h.code, h.Status, h.took.Round(time.Millisecond), h.Reasons)
				if h.code != 200 || h.Status != "degraded" || !h.Ready || h.Store.Reachable || h.Cache == nil || h.Cache.Servable == 0 ||
					!strings.Contains(strings.Join(h.Reasons, "; "), "store unreachable") {
					t.Errorf("%s: %s = %d %+v, want 200 degraded with the store unreachable", phase.name, path, h.code, h)
				}
				if h.took > 3*time.Second {
					t.Errorf("%s: %s took %s, past a probe's time-out", phase.name, path, h.took)
				}
			}
			if h := getHealth(t, p, "/health/live"); h.code != 200 || h.Status != "ok" {
				t.Errorf("%s: /health/live = %d %+v", phase.name, h.code, h)
			}
		}
	}
	proxy.set(proxyPass)
	waitReachable(t, p)
	p.stop(t)
}

// waitReachable waits until readiness sees the store again.
func waitReachable(t *testing.T, p *process) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		h := getHealth(t, p, "/health/ready")
		if h.code == 200 && h.Store.Reachable {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("readiness did not see the store again within 60 s: %+v", h)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
