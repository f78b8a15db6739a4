package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestRetentionKeepsUsageTotals: the real binary's retention sweep drops
// audit entries and raw usage events past their windows, and the usage
// summary and the billing period still count every call (from the hourly
// rollups), with latency percentiles marked as covering the kept days only.
func TestRetentionKeepsUsageTotals(t *testing.T) {
	adminURL, name := testDatabase(t)
	dbURL := withDatabase(adminURL, hostOf(adminURL), name)
	env := []string{"DATABASE_URL=" + dbURL, "GTMGATE_ENCRYPTION_KEY=" + strings.Repeat("ef", 32), "GTMGATE_RETAIN_USAGE_EVENTS=2d"}
	dir := t.TempDir()
	p := start(t, dir, env...)
	rest := map[string]any{"tool": "crm_contacts", "input": map[string]any{"action": "list", "rationale": "retention e2e"}}
	for i := range 3 {
		if code := call(t, p, "POST", "/api/v1/demo/crm", p.demoToken, rest, nil); code != 200 {
			t.Fatalf("call %d: %d", i, code)
		}
	}
	type usage struct {
		Totals struct {
			Calls int `json:"calls"`
		} `json:"totals"`
		LatencyFrom string `json:"latency_percentiles_from"`
		Billing     struct {
			Calls int `json:"calls"`
		} `json:"billing"`
	}
	var before usage
	call(t, p, "GET", "/admin/usage/demo", "", nil, &before)
	if before.Totals.Calls != 3 {
		t.Fatalf("usage before the sweep: %+v", before)
	}
	p.stop(t)

	// Age the rows as if the calls were made long ago: audit past its 400
	// days, raw usage past its 2. Rollups keep their hours.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	for _, q := range []string{"UPDATE audit_log SET time = time - interval '401 days' WHERE tenant_id = 'demo'",
		"UPDATE usage_events SET time = time - interval '3 days'"} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}

	p = start(t, dir, env...) // the sweep runs when the leader starts
	defer p.stop(t)
	eventually(t, "the sweep to drop the aged rows", 60*time.Second, func() bool {
		var audit, events int
		conn.QueryRow(ctx, "SELECT COUNT(*) FROM audit_log WHERE action = 'crm_contacts.list'").Scan(&audit)
		conn.QueryRow(ctx, "SELECT COUNT(*) FROM usage_events").Scan(&events)
		return audit == 0 && events == 0
	})
	var after usage
	call(t, p, "GET", "/admin/usage/demo", "", nil, &after)
	if after.Totals.Calls != 3 || after.LatencyFrom == "" {
		t.Fatalf("usage after the sweep: %+v; want the 3 calls and latency percentiles marked partial", after)
	}
	var raw map[string]any
	call(t, p, "GET", "/admin/usage/demo", "", nil, &raw)
	b, _ := json.Marshal(raw["billing"])
	if !strings.Contains(string(b), `"tool":"crm_contacts"`) {
		t.Fatalf("the billing period lost the calls: %s", b)
	}
}

// TestTwoReplicasShareARateLimit: on PostgreSQL two replicas each enforce
// half of a tenant's limit, so together they admit the configured burst,
// not twice it. The refill (one request per 100 s) is too slow to add a
// request while the test runs.
func TestTwoReplicasShareARateLimit(t *testing.T) {
	adminURL, name := testDatabase(t)
	env := []string{"DATABASE_URL=" + withDatabase(adminURL, hostOf(adminURL), name), "GTMGATE_ENCRYPTION_KEY=" + strings.Repeat("ab", 32)}
	a := start(t, t.TempDir(), env...)
	defer a.stop(t)
	b := start(t, t.TempDir(), env...)
	defer b.stop(t)
	limits := map[string]any{"tenant": map[string]any{"requests_per_second": 0.01, "burst": 10}}
	tokens := map[string]string{}
	for _, id := range []string{"shared", "probe"} {
		if code := call(t, a, "PUT", "/admin/tenants/"+id, "", map[string]any{"name": id, "status": "active",
			"providers": map[string]any{}, "rate_limits": limits}, nil); code != 201 {
			t.Fatalf("put tenant %s: %d", id, code)
		}
		tokens[id] = "tok-" + id + "-0123456789abcdef"
		if code := call(t, a, "POST", "/admin/auth", "", map[string]any{"tenant_id": id, "token": tokens[id]}, nil); code != 201 {
			t.Fatalf("register token %s: %d", id, code)
		}
	}
	rest, _ := json.Marshal(map[string]any{"tool": "crm_contacts", "input": map[string]any{"action": "list", "rationale": "rate e2e"}})
	post := func(p *process, tenant string) *http.Response {
		req, _ := http.NewRequest("POST", p.gateway+"/api/v1/"+tenant+"/crm", bytes.NewReader(rest))
		req.Header.Set("Authorization", "Bearer "+tokens[tenant])
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	// Each replica announces its share in RateLimit-Policy: q=5 once it
	// counts both replicas' heartbeats.
	for _, p := range []*process{a, b} {
		eventually(t, "a replica to count two replicas", 60*time.Second, func() bool {
			return strings.Contains(post(p, "probe").Header.Get("RateLimit-Policy"), `"tenant";q=5;`)
		})
	}
	admitted, refused := 0, 0
	for range 10 {
		for _, p := range []*process{a, b} {
			resp := post(p, "shared")
			switch {
			case resp.StatusCode == http.StatusTooManyRequests:
				refused++
				if resp.Header.Get("Retry-After") == "" {
					t.Fatal("429 without Retry-After")
				}
			default:
				admitted++
			}
		}
	}
	if admitted != 10 || refused != 10 {
		t.Fatalf("two replicas admitted %d and refused %d of 20; want the burst of 10 between them", admitted, refused)
	}
}
