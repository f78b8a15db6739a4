package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fedOutageCall is one federated call made while the store came and went.
type fedOutageCall struct {
	via       string // "rest", "mcp call", "mcp list"
	ok        bool
	status    int
	requestID string
	took      time.Duration
	detail    string
}

// fedOutageREST calls the demo's notes__search_notes over REST, or, for
// comparison, the built-in crm_pipelines.
func fedOutageREST(p *process, builtin bool) fedOutageCall {
	via, path := "rest", "/api/v1/demo/mcp/notes"
	body, _ := json.Marshal(map[string]any{"tool": "notes__search_notes",
		"input": map[string]any{"query": "renewal", "rationale": "federated call through a store outage"}})
	if builtin {
		via, path = "rest built-in", "/api/v1/demo/crm"
		body, _ = json.Marshal(map[string]any{"tool": "crm_pipelines", "input": map[string]any{"action": "list", "rationale": "built-in call through a store outage"}})
	}
	req, _ := http.NewRequest("POST", p.gateway+path, bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+p.demoToken)
	req.Header.Set("Content-Type", "application/json")
	start := time.Now()
	resp, err := (&http.Client{Timeout: 60 * time.Second}).Do(req)
	if err != nil {
		return fedOutageCall{via: via, status: -1, took: time.Since(start), detail: err.Error()}
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var v struct {
		RequestID string `json:"request_id"`
	}
	json.Unmarshal(b, &v)
	c := fedOutageCall{via: via, ok: resp.StatusCode == http.StatusOK, status: resp.StatusCode, requestID: v.RequestID,
		took: time.Since(start)}
	if !c.ok {
		c.detail = string(b)
	}
	return c
}

// fedOutageMCP lists the tools over the agent's MCP session (the notes
// server's must be among them) or calls one.
func fedOutageMCP(cs *mcp.ClientSession, list bool) fedOutageCall {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	start := time.Now()
	if list {
		res, err := cs.ListTools(ctx, nil)
		c := fedOutageCall{via: "mcp list", took: time.Since(start)}
		if err != nil {
			c.detail = err.Error()
			return c
		}
		names := toolNames(res.Tools)
		c.ok = slices.Contains(names, "notes__search_notes")
		if !c.ok {
			c.detail = "tools/list without notes__search_notes: " + strconv.Itoa(len(names)) + " tools"
		}
		return c
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "notes__search_notes",
		Arguments: map[string]any{"query": "renewal", "rationale": "federated call through a store outage"}})
	c := fedOutageCall{via: "mcp call", took: time.Since(start)}
	switch {
	case err != nil:
		c.detail = err.Error()
	case res.IsError:
		c.detail = resultText(res)
	default:
		c.ok = true
	}
	return c
}

// TestFederatedCallsThroughStoreOutage runs the gateway on PostgreSQL
// behind a proxy the test controls, warms the demo tenant's federated
// tools, then takes the store away for 20 s (10 s refused, 10 s black
// hole) while agents keep calling the demo notes server's tool over REST
// and MCP and listing their tools. Every call and listing succeeds, within
// outageBound, built-in calls too (a black-holed store costs one call per
// cache period a load time-out), the notes tools never leave tools/list,
// the gateway recovers without a restart, and every acknowledged REST
// call's audit record reaches the store.
func TestFederatedCallsThroughStoreOutage(t *testing.T) {
	adminURL, db := testDatabase(t)
	proxy := newFaultProxy(t, "127.0.0.1:5432")
	if u, err := pgx.ParseConfig(adminURL); err == nil {
		proxy.target = net.JoinHostPort(u.Host, strconv.Itoa(int(u.Port)))
	}
	p := start(t, t.TempDir(), "DATABASE_URL="+withDatabase(adminURL, proxy.addr(), db))
	cs, err := connectMCP(t, p.gateway+"/mcp", p.demoToken, nil)
	if err != nil {
		t.Fatal(err)
	}

	acked := map[string]bool{}
	tally := func(phase string, calls []fedOutageCall, bound time.Duration) {
		t.Helper()
		n := map[string]int{}
		slowest := map[string]time.Duration{}
		for _, c := range calls {
			n[c.via]++
			slowest[c.via] = max(slowest[c.via], c.took)
			if !c.ok && c.via == "rest built-in" {
				t.Logf("%s: the built-in call failed after %s (status %d): %.300s", phase, c.took.Round(time.Millisecond), c.status, c.detail)
			} else if !c.ok {
				t.Errorf("%s: %s failed after %s (status %d): %.300s", phase, c.via, c.took.Round(time.Millisecond), c.status, c.detail)
			} else if c.requestID != "" && c.via == "rest" {
				acked[c.requestID] = true
			}
			if c.took > bound {
				t.Errorf("%s: %s took %s, past its %s bound", phase, c.via, c.took.Round(time.Millisecond), bound)
			}
		}
		t.Logf("%s: %d REST calls (slowest %s), %d built-in REST calls (%s), %d MCP calls (%s), %d MCP listings (%s)", phase,
			n["rest"], slowest["rest"].Round(time.Millisecond), n["rest built-in"], slowest["rest built-in"].Round(time.Millisecond), n["mcp call"], slowest["mcp call"].Round(time.Millisecond),
			n["mcp list"], slowest["mcp list"].Round(time.Millisecond))
	}
	// flow makes federated calls from two REST clients and one MCP
	// session until stop is closed.
	flow := func(stop <-chan struct{}) []fedOutageCall {
		var mu sync.Mutex
		var calls []fedOutageCall
		var wg sync.WaitGroup
		// every makes call i = 0, 1, … and records it, pausing between
		// calls, until stop is closed.
		every := func(pause time.Duration, call func(i int) fedOutageCall) {
			wg.Go(func() {
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					c := call(i)
					mu.Lock()
					calls = append(calls, c)
					mu.Unlock()
					time.Sleep(pause)
				}
			})
		}
		for range 2 {
			every(100*time.Millisecond, func(int) fedOutageCall { return fedOutageREST(p, false) })
		}
		every(200*time.Millisecond, func(int) fedOutageCall { return fedOutageREST(p, true) })
		every(200*time.Millisecond, func(i int) fedOutageCall { return fedOutageMCP(cs, i%2 == 0) })
		wg.Wait()
		return calls
	}
	run := func(d time.Duration) []fedOutageCall {
		stop := make(chan struct{})
		time.AfterFunc(d, func() { close(stop) })
		return flow(stop)
	}

	tally("healthy", run(3*time.Second), 10*time.Second)
	proxy.set(proxyRefuse)
	calls := run(10 * time.Second)
	proxy.set(proxyBlackhole)
	calls = append(calls, run(10*time.Second)...)
	tally("20 s outage", calls, outageBound)
	proxy.set(proxyPass)

	awaitStoreBack(t, p)
	tally("recovered", run(3*time.Second), 10*time.Second)
	p.stop(t)

	audited := auditedInPostgres(t, withDatabase(adminURL, proxy.target, db), "action LIKE 'notes__search_notes%'")
	lost := unaudited(acked, audited)
	t.Logf("acknowledged REST calls %d, audited federated calls %d, acknowledged but not audited %d", len(acked), len(audited), lost)
	if lost > 0 {
		t.Fatalf("%d acknowledged federated calls have no audit record", lost)
	}
}
