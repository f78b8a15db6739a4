package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestHardQuotaThroughEverySurface: the real binary refuses a tenant past
// its hard quota with QUOTA_EXCEEDED on REST, MCP (a tool error) and chat.
func TestHardQuotaThroughEverySurface(t *testing.T) {
	p := start(t, t.TempDir())
	defer p.stop(t)
	if code := call(t, p, "PUT", "/admin/billing/demo", "", map[string]any{"currency": "EUR", "limit": "hard",
		"included_calls": 2, "included_tokens": 1, "tool_call_price": map[string]any{"default": 0.1}}, nil); code != 201 {
		t.Fatalf("billing plan: %d", code)
	}
	rest := map[string]any{"tool": "crm_contacts", "input": map[string]any{"action": "list", "rationale": "quota e2e"}}
	for i := range 2 {
		if code := call(t, p, "POST", "/api/v1/demo/crm", p.demoToken, rest, nil); code != 200 {
			t.Fatalf("REST call %d within the quota: %d", i, code)
		}
	}
	var refused struct {
		Error struct{ Code, Message string }
	}
	if code := call(t, p, "POST", "/api/v1/demo/crm", p.demoToken, rest, &refused); code != 429 || refused.Error.Code != "QUOTA_EXCEEDED" ||
		!strings.Contains(refused.Error.Message, "included_calls") {
		t.Fatalf("REST past the quota: %d %+v", code, refused)
	}

	post := func(path, body string, headers ...string) (int, string) {
		req, _ := http.NewRequest("POST", p.gateway+path, bytes.NewReader([]byte(body)))
		req.Header.Set("Authorization", "Bearer "+p.demoToken)
		req.Header.Set("Content-Type", "application/json")
		for i := 0; i+1 < len(headers); i += 2 {
			req.Header.Set(headers[i], headers[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	code, body := post("/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"crm_contacts","arguments":{"action":"list","rationale":"quota e2e"}}}`,
		"Accept", "application/json, text/event-stream", "MCP-Protocol-Version", "2025-11-25")
	var rpc struct {
		Result struct {
			IsError bool `json:"isError"`
			Content []struct{ Text string }
		}
	}
	if err := json.Unmarshal([]byte(body), &rpc); err != nil || code != 200 || !rpc.Result.IsError || len(rpc.Result.Content) == 0 ||
		!strings.Contains(rpc.Result.Content[0].Text, "QUOTA_EXCEEDED") {
		t.Fatalf("MCP past the quota: %d %s", code, body)
	}

	chat := `{"model":"sandbox-chat","messages":[{"role":"user","content":"hello"}]}`
	if code, body := post("/v1/chat/completions", chat); code != 200 {
		t.Fatalf("first chat (no tokens used yet): %d %s", code, body)
	}
	if code, body := post("/v1/chat/completions", chat); code != 429 || !strings.Contains(body, "QUOTA_EXCEEDED") || !strings.Contains(body, "included_tokens") {
		t.Fatalf("chat past the token quota: %d %s", code, body)
	}
}

// TestHardQuotaExactUnderConcurrency: 200 calls at once against a hard
// quota of 50 on one replica admit exactly 50, on SQLite and on PostgreSQL
// (issue 31): a call in flight holds its place from admission. Then round
// after round with usage earlier in the period (issue 43): 30 calls while
// the tenant has no quota, then at once a hard quota leaving room for 50
// more, and 200 calls at once admit exactly 50 again.
func TestHardQuotaExactUnderConcurrency(t *testing.T) {
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			var env []string
			if backend == "postgres" {
				adminURL, name := testDatabase(t)
				env = []string{"DATABASE_URL=" + withDatabase(adminURL, hostOf(adminURL), name), "GTMGATE_ENCRYPTION_KEY=" + strings.Repeat("5e", 32)}
			}
			p := start(t, t.TempDir(), env...)
			defer p.stop(t)
			const n, calls, prior, rounds = 50, 200, 30, 4
			setPlan := func(included int) {
				t.Helper()
				if code := call(t, p, "PUT", "/admin/billing/demo", "", map[string]any{"currency": "EUR", "limit": "hard",
					"included_calls": included}, nil); code != 200 && code != 201 {
					t.Fatalf("billing plan: %d", code)
				}
			}
			used := 0
			for round := range rounds {
				if round > 0 {
					setPlan(0) // no quota: the calls are recorded, not counted
					for i := range prior {
						if code := call(t, p, "POST", "/api/v1/demo/crm", p.demoToken, json.RawMessage(quotaBody), nil); code != 200 {
							t.Fatalf("round %d: call %d without a quota: %d", round, i, code)
						}
					}
					used += prior
				}
				setPlan(used + n)
				counts := burst(t, calls, p)
				t.Logf("%s round %d: %d calls earlier in the period, %d at once against a hard quota of %d: %v", backend, round, used, calls, used+n, counts)
				if counts["200 "] != n || counts["429 QUOTA_EXCEEDED"] != calls-n {
					t.Fatalf("round %d: outcomes %v, want exactly %d admitted and %d QUOTA_EXCEEDED", round, counts, n, calls-n)
				}
				var refused struct{ Error struct{ Code string } }
				if code := call(t, p, "POST", "/api/v1/demo/crm", p.demoToken, json.RawMessage(quotaBody), &refused); code != 429 {
					t.Fatalf("round %d: a call after the burst: %d %+v", round, code, refused)
				}
				used += n
			}
		})
	}
}

// quotaBody is the REST call the quota tests make.
var quotaBody, _ = json.Marshal(map[string]any{"tool": "crm_pipelines", "input": map[string]any{"action": "list", "rationale": "quota race e2e"}})

// burst makes calls REST calls at once, spread round-robin over ps, and
// counts their outcomes ("200 ", "429 QUOTA_EXCEEDED", …) per process.
func burst(t *testing.T, calls int, ps ...*process) map[string]int {
	t.Helper()
	client := &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: calls}}
	outcomes := make([]string, calls)
	var ready, wg sync.WaitGroup
	ready.Add(1)
	for i := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := ps[i%len(ps)]
			req, _ := http.NewRequest("POST", p.gateway+"/api/v1/demo/crm", bytes.NewReader(quotaBody))
			req.Header.Set("Authorization", "Bearer "+p.demoToken)
			ready.Wait()
			resp, err := client.Do(req)
			if err != nil {
				outcomes[i] = err.Error()
				return
			}
			defer resp.Body.Close()
			var v struct{ Error struct{ Code string } }
			json.NewDecoder(resp.Body).Decode(&v)
			outcomes[i] = fmt.Sprintf("%d %s", resp.StatusCode, v.Error.Code)
			if len(ps) > 1 {
				outcomes[i] = fmt.Sprintf("replica %d: %s", i%len(ps), outcomes[i])
			}
		}()
	}
	ready.Done()
	wg.Wait()
	counts := map[string]int{}
	for _, o := range outcomes {
		counts[o]++
	}
	return counts
}

// TestHardQuotaAcrossTwoReplicas measures the cross-replica bound: two
// replicas on one PostgreSQL each admit at most the quota on their own, so a
// burst shorter than the one-second sync admits between N and 2N; once they
// have synced, neither admits more.
func TestHardQuotaAcrossTwoReplicas(t *testing.T) {
	adminURL, name := testDatabase(t)
	env := []string{"DATABASE_URL=" + withDatabase(adminURL, hostOf(adminURL), name), "GTMGATE_ENCRYPTION_KEY=" + strings.Repeat("5e", 32)}
	a := start(t, t.TempDir(), env...)
	defer a.stop(t)
	b := start(t, t.TempDir(), env...)
	defer b.stop(t)
	const n, calls = 50, 200
	if code := call(t, a, "PUT", "/admin/billing/demo", "", map[string]any{"currency": "EUR", "limit": "hard", "included_calls": n}, nil); code != 201 {
		t.Fatalf("billing plan: %d", code)
	}
	time.Sleep(2 * time.Second) // b reloads plans every second
	counts := burst(t, calls, a, b)
	admitted := counts["replica 0: 200 "] + counts["replica 1: 200 "]
	t.Logf("two replicas, %d calls at once against a hard quota of %d: %d admitted %v", calls, n, admitted, counts)
	if admitted < n || admitted > 2*n || counts["replica 0: 200 "] > n || counts["replica 1: 200 "] > n {
		t.Fatalf("admitted %d %v, want each replica at most %d and %d to %d in all", admitted, counts, n, n, 2*n)
	}
	time.Sleep(2 * time.Second) // both have exchanged their counts
	for i, p := range []*process{a, b} {
		if code := call(t, p, "POST", "/api/v1/demo/crm", p.demoToken, json.RawMessage(quotaBody), nil); code != 429 {
			t.Errorf("replica %d after syncing: %d, want 429", i, code)
		}
	}
}
