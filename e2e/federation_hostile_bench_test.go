package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/e2e/hostilesrv"
	"github.com/gtmgate/gtmgate/e2e/upstreamsrv"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestFederationHostileLatency is bench/hostile.sh's measurement (#42), run
// only when GTMGATE_E2E_HOSTILE_BENCH is set: the demo tenant's federated
// tools/call latency (its own go-sdk upstream, one call at a time over MCP)
// in alternating rounds, quiet and while another tenant's hostile upstream
// floods list_changed (10,000 notifications every 250 ms) and declares
// 20,000 tools (listed on the refreshes the flood makes, each refused). It prints
// a "figure" line with the medians and their ratio; like every bench, it
// asserts no figure, only that the calls work.
func TestFederationHostileLatency(t *testing.T) {
	if os.Getenv("GTMGATE_E2E_HOSTILE_BENCH") == "" {
		t.Skip("a measurement: run by bench/hostile.sh (GTMGATE_E2E_HOSTILE_BENCH=1)")
	}
	round := 4 * time.Second
	if d, err := time.ParseDuration(os.Getenv("GTMGATE_E2E_HOSTILE_ROUND")); err == nil {
		round = d
	}
	rounds := 3
	if n, err := strconv.Atoi(os.Getenv("GTMGATE_E2E_HOSTILE_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	const victimToken = "victim-upstream-token-0123456789"
	victim := httptest.NewServer(upstreamsrv.New(upstreamsrv.Options{Token: victimToken}).Handler())
	t.Cleanup(victim.Close)
	h := hostilesrv.New("hostile-token-0123456789")
	hostile := httptest.NewServer(h.Handler())
	t.Cleanup(hostile.Close)
	p := start(t, t.TempDir(), "GTMGATE_MCP_UPSTREAM_ALLOW=127.0.0.1/32")

	fedGoAdmin(t, p, "PUT", "/admin/tenants/demo/mcp-servers/up", map[string]any{
		"url": victim.URL + "/mcp", "auth": map[string]any{"kind": "bearer", "token": victimToken}, "auto_accept_changes": true,
		"tools": []string{"lookup"},
	}, http.StatusCreated, nil)
	if code := call(t, p, "PUT", "/admin/tenants/hostile-co", "", map[string]any{"name": "Hostile Co", "status": "active", "providers": map[string]any{}}, nil); code != 201 {
		t.Fatalf("create tenant hostile-co: %d", code)
	}
	fedGoAdmin(t, p, "PUT", "/admin/tenants/hostile-co/mcp-servers/hostile", map[string]any{
		"url": hostile.URL + "/mcp", "auth": map[string]any{"kind": "bearer", "token": "hostile-token-0123456789"}, "auto_accept_changes": true,
	}, http.StatusCreated, nil)

	cs, err := connectMCP(t, p.gateway+"/mcp", p.demoToken, nil)
	if err != nil {
		t.Fatal(err)
	}
	measure := func(d time.Duration) []time.Duration {
		var out []time.Duration
		for end := time.Now().Add(d); time.Now().Before(end); {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			t0 := time.Now()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "up__lookup", Arguments: map[string]any{"id": "c1", "rationale": "bench"}})
			out = append(out, time.Since(t0))
			cancel()
			if err != nil || res.IsError {
				t.Fatalf("up__lookup: %v %s", err, resultTextOrNil(res))
			}
		}
		return out
	}
	// The hostile tenant's session to its upstream is opened by a first
	// refresh; from then on its standalone stream takes the floods.
	post := func(u string) {
		resp, err := http.Post(u, "", nil)
		if err == nil {
			resp.Body.Close()
		}
	}
	hostileOn := func(stop <-chan struct{}) *sync.WaitGroup {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				post(hostile.URL + "/admin/flood?n=10000")
				select {
				case <-stop:
					return
				case <-time.After(250 * time.Millisecond):
				}
			}
		}()
		return &wg
	}
	post(hostile.URL + "/admin/many?n=20000")
	measure(time.Second) // warm-up
	var quiet, loud []time.Duration
	var quietMed, loudMed []float64
	for i := range rounds {
		q := measure(round)
		stop := make(chan struct{})
		wg := hostileOn(stop)
		l := measure(round)
		close(stop)
		wg.Wait()
		quiet, loud = append(quiet, q...), append(loud, l...)
		quietMed, loudMed = append(quietMed, ms(pct(q, 50))), append(loudMed, ms(pct(l, 50)))
		// One line per round: bench/run.sh's hostile scenario reads them.
		fmt.Printf("round %d quiet_calls=%d loud_calls=%d quiet_p50_ms=%.3f loud_p50_ms=%.3f quiet_p99_ms=%.3f loud_p99_ms=%.3f\n",
			i+1, len(q), len(l), ms(pct(q, 50)), ms(pct(l, 50)), ms(pct(q, 99)), ms(pct(l, 99)))
	}
	st := hostileStats(t, hostile.URL)
	var one struct {
		Server mcpServerView `json:"server"`
	}
	fedGoAdmin(t, p, "GET", "/admin/tenants/hostile-co/mcp-servers/hostile", nil, http.StatusOK, &one)
	if !strings.Contains(one.Server.State.Error, "declares 20000 tools") {
		t.Errorf("hostile server state %q", one.Server.State.Error)
	}
	fmt.Printf("figure quiet_calls=%d loud_calls=%d quiet_p50_ms=%.2f loud_p50_ms=%.2f p50_ratio=%.2f quiet_p90_ms=%.2f loud_p90_ms=%.2f p90_ratio=%.2f round_p50_ratios=%s notifications=%d hostile_listings=%d\n",
		len(quiet), len(loud), ms(pct(quiet, 50)), ms(pct(loud, 50)), ms(pct(loud, 50))/ms(pct(quiet, 50)),
		ms(pct(quiet, 90)), ms(pct(loud, 90)), ms(pct(loud, 90))/ms(pct(quiet, 90)), ratios(quietMed, loudMed), st.Sent, st.Lists)
}

func pct(d []time.Duration, p int) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[(len(s)-1)*p/100]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func ratios(q, l []float64) string {
	var out []string
	for i := range q {
		out = append(out, fmt.Sprintf("%.2f", l[i]/q[i]))
	}
	return strings.Join(out, ",")
}

func resultTextOrNil(res *mcp.CallToolResult) string {
	if res == nil {
		return ""
	}
	return resultText(res)
}
