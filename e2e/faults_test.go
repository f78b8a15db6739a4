package e2e

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gtmgate/gtmgate/store/storecache"
)

// faultProxy is a loopback TCP proxy the test controls: it passes bytes,
// refuses (closes every connection, old and new), or black-holes (accepts
// and holds connections, forwarding nothing), as a failing network would.
type faultProxy struct {
	ln     net.Listener
	target string
	mode   atomic.Int32 // proxyPass, proxyRefuse, proxyBlackhole
	mu     sync.Mutex
	conns  []net.Conn
}

const (
	proxyPass int32 = iota
	proxyRefuse
	proxyBlackhole
)

func newFaultProxy(t *testing.T, target string) *faultProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &faultProxy{ln: ln, target: target}
	t.Cleanup(func() { ln.Close(); p.closeAll() })
	go p.serve()
	return p
}

func (p *faultProxy) addr() string { return p.ln.Addr().String() }

func (p *faultProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		switch p.mode.Load() {
		case proxyRefuse:
			c.Close()
			continue
		case proxyBlackhole:
			p.track(c) // held open, never answered
			continue
		}
		up, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.track(c)
		p.track(up)
		go p.pipe(c, up)
		go p.pipe(up, c)
	}
}

// pipe copies while the proxy passes; in black-hole mode it swallows bytes.
func (p *faultProxy) pipe(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 && p.mode.Load() == proxyPass {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			dst.Close()
			return
		}
	}
}

func (p *faultProxy) track(c net.Conn) {
	p.mu.Lock()
	p.conns = append(p.conns, c)
	p.mu.Unlock()
}

func (p *faultProxy) closeAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// set switches the mode. Refusing and passing again both drop the
// connections of the mode before, so a black hole ends as a reset would.
func (p *faultProxy) set(mode int32) {
	p.mode.Store(mode)
	if mode != proxyBlackhole {
		p.closeAll()
	}
}

// testDatabase creates an empty PostgreSQL database for one test and drops it
// afterwards. It skips (fails under CI) when PostgreSQL is not reachable.
func testDatabase(t *testing.T) (adminURL, name string) {
	t.Helper()
	adminURL = os.Getenv("GTMGATE_TEST_DATABASE_URL")
	if adminURL == "" {
		adminURL = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("PostgreSQL not reachable: %v", err)
		}
		t.Skipf("PostgreSQL not reachable: %v", err)
	}
	defer conn.Close(context.Background())
	b := make([]byte, 6)
	rand.Read(b)
	name = "gtmgate_e2e_" + hex.EncodeToString(b)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(context.Background(), adminURL)
		if err == nil {
			c.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
			c.Close(context.Background())
		}
	})
	return adminURL, name
}

// withDatabase returns url pointing at database name on host.
func withDatabase(raw, host, name string) string {
	u, err := url.Parse(raw)
	if err != nil {
		panic(err)
	}
	u.Host, u.Path = host, "/"+name
	return u.String()
}

// callResult is one REST call's outcome as the client saw it.
type callResult struct {
	status    int
	requestID string
	took      time.Duration
}

// restCalls makes n crm_pipelines list calls from conc clients.
func restCalls(t *testing.T, p *process, n, conc int) []callResult {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"tool": "crm_pipelines", "input": map[string]any{"action": "list", "rationale": "store fault e2e"}})
	client := &http.Client{Timeout: 60 * time.Second}
	out := make([]callResult, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				req, _ := http.NewRequest("POST", p.gateway+"/api/v1/demo/crm", bytes.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+p.demoToken)
				start := time.Now()
				resp, err := client.Do(req)
				if err != nil {
					out[i] = callResult{status: -1, took: time.Since(start)}
					continue
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				var v struct {
					RequestID string `json:"request_id"`
				}
				json.Unmarshal(b, &v)
				out[i] = callResult{status: resp.StatusCode, requestID: v.RequestID, took: time.Since(start)}
			}
		}()
	}
	wg.Wait()
	return out
}

// needsStore checks, during an outage, what cannot be served from the cache:
// a token the gateway has never seen answers 503 UNAVAILABLE within bound,
// not 500 and not after the outage. (/health stays 200 while the replica
// serves from its cache and journal: see TestReadinessThroughStoreOutage.)
func needsStore(t *testing.T, p *process, phase string, bound time.Duration) {
	t.Helper()
	client := &http.Client{Timeout: 60 * time.Second}
	for _, c := range []struct{ name, method, path, token string }{
		{"unknown token", "POST", "/api/v1/demo/crm", "never-seen-token-0123456789abcdef"},
	} {
		var body io.Reader
		if c.method == "POST" {
			body = strings.NewReader(`{"tool":"crm_pipelines","input":{"action":"list","rationale":"outage"}}`)
		}
		req, _ := http.NewRequest(c.method, p.gateway+c.path, body)
		if c.token != "" {
			req.Header.Set("Authorization", "Bearer "+c.token)
		}
		start := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			t.Errorf("%s: %s: %v", phase, c.name, err)
			continue
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if took := time.Since(start); resp.StatusCode != http.StatusServiceUnavailable || took > bound {
			t.Errorf("%s: %s answered %d after %s, want 503 within %s: %.300s", phase, c.name, resp.StatusCode, took.Round(time.Millisecond), bound, b)
		}
	}
}

// invalidCalls makes n calls of an action crm_pipelines does not have: each
// fails in the runner (VALIDATION_ERROR, or UNAVAILABLE when the store is
// needed and gone), so each leaves an audit entry and an error ledger entry.
func invalidCalls(t *testing.T, p *process, phase string, n int) {
	t.Helper()
	client := &http.Client{Timeout: 60 * time.Second}
	for range n {
		req, _ := http.NewRequest("POST", p.gateway+"/api/v1/demo/crm",
			strings.NewReader(`{"tool":"crm_pipelines","input":{"action":"explode","rationale":"outage"}}`))
		req.Header.Set("Authorization", "Bearer "+p.demoToken)
		resp, err := client.Do(req)
		if err != nil {
			t.Errorf("%s: invalid call: %v", phase, err)
			continue
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest && resp.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("%s: invalid call answered %d, want 400 or 503: %.300s", phase, resp.StatusCode, b)
		}
	}
}

// outageBound is the longest a call may take while the store is black-holed:
// one storecache load time-out (the call that asks the store again; before
// the cache served the others meanwhile, every read of every call waited
// for one, about 12 s a call) plus federation's own (2 s, for a federated
// call that asks too), and a wide margin for a loaded machine. Measured:
// about 3 s.
const outageBound = 2*storecache.LoadTimeout + 3*time.Second

// TestStoreOutageThroughTCPProxy runs the gateway on PostgreSQL behind a
// proxy the test controls and takes the store away twice: refused
// connections, then a black hole. Every call answers within its bound with
// 200 (tenant and token from the cache, audit record in the journal) or 503
// UNAVAILABLE, never 500; the gateway recovers without a restart; and every
// acknowledged call's audit record reaches the store.
func TestStoreOutageThroughTCPProxy(t *testing.T) {
	adminURL, db := testDatabase(t)
	proxy := newFaultProxy(t, "127.0.0.1:5432")
	if u, err := pgx.ParseConfig(adminURL); err == nil {
		proxy.target = net.JoinHostPort(u.Host, strconv.Itoa(int(u.Port)))
	}
	p := start(t, t.TempDir(), "DATABASE_URL="+withDatabase(adminURL, proxy.addr(), db))

	acked := map[string]bool{}
	tally := func(phase string, results []callResult, bound time.Duration) (ok, unavailable int) {
		var slowest time.Duration
		for _, r := range results {
			slowest = max(slowest, r.took)
			switch r.status {
			case http.StatusOK:
				ok++
				acked[r.requestID] = true
			case http.StatusServiceUnavailable:
				unavailable++
			default:
				t.Errorf("%s: a call answered %d, want 200 or 503", phase, r.status)
			}
			if r.took > bound {
				t.Errorf("%s: a call took %s, past its %s bound", phase, r.took.Round(time.Millisecond), bound)
			}
		}
		t.Logf("%s: %d acknowledged, %d unavailable, slowest call %s", phase, ok, unavailable, slowest.Round(time.Millisecond))
		return ok, unavailable
	}

	if ok, _ := tally("healthy", restCalls(t, p, 40, 4), 10*time.Second); ok != 40 {
		t.Fatalf("healthy store: %d of 40 calls succeeded", ok)
	}
	invalidCalls(t, p, "healthy", 1) // warms what the invalid call needs
	proxy.set(proxyRefuse)
	tally("refused", restCalls(t, p, 40, 4), 10*time.Second)
	needsStore(t, p, "refused", 10*time.Second)
	invalidCalls(t, p, "refused", 5)
	proxy.set(proxyBlackhole)
	// A black-holed store costs one call per cache TTL one load time-out;
	// the others are served from the cache at once. Past the TTL, so that
	// the calls ask the hanging store, not the refusing one.
	time.Sleep(2 * storecache.DefaultTTL)
	tally("black hole", restCalls(t, p, 40, 4), outageBound)
	needsStore(t, p, "black hole", outageBound)
	proxy.set(proxyPass)

	// Recovery without a restart: /health sees the store again, and calls come back.
	awaitStoreBack(t, p)
	if ok, _ := tally("recovered", restCalls(t, p, 40, 4), 10*time.Second); ok != 40 {
		t.Fatalf("after recovery: %d of 40 calls succeeded", ok)
	}
	p.stop(t)

	// Nothing acknowledged is lost: every 200's audit record is in the store.
	audited := auditedInPostgres(t, withDatabase(adminURL, proxy.target, db), "source = 'rest'")
	lost := unaudited(acked, audited)
	t.Logf("acknowledged %d, audited %d (all REST calls), acknowledged but not audited %d", len(acked), len(audited), lost)
	if lost > 0 {
		t.Fatalf("%d acknowledged calls have no audit record", lost)
	}

	// Every audited failure, refused ones during the outage included, is in
	// the error ledger, where it can be replayed.
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, withDatabase(adminURL, proxy.target, db))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var failed, unledgered int
	err = conn.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE NOT EXISTS
		(SELECT 1 FROM error_ledger l WHERE l.request_id = a.request_id))
		FROM audit_log a WHERE a.tenant_id = 'demo' AND a.source = 'rest' AND a.error_code <> ''`).Scan(&failed, &unledgered)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("audited failures %d, of which not in the error ledger %d", failed, unledgered)
	if failed < 6 {
		t.Fatalf("%d audited failures, want at least the 6 invalid calls", failed)
	}
	if unledgered > 0 {
		t.Fatalf("%d of %d audited failures are missing from the error ledger", unledgered, failed)
	}
}

// TestApproverDisconnectFinishesTheGate approves a held email and hangs up
// while Gmail is still answering the send: the gate still ends executed,
// the send reached Gmail once, and its audit record names the approval.
func TestApproverDisconnectFinishesTheGate(t *testing.T) {
	arrived, release := make(chan struct{}, 4), make(chan struct{})
	var sends atomic.Int32
	gmail := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/messages/send") {
			http.NotFound(w, r)
			return
		}
		sends.Add(1)
		arrived <- struct{}{}
		<-release // answers after the approver is gone
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"18f00000000000a1","threadId":"18f00000000000a1","labelIds":["SENT"]}`)
	}))
	defer gmail.Close()
	p := start(t, t.TempDir(), "GTMGATE_UPSTREAM_GMAIL="+gmail.URL)

	send := `{"tool":"email_send","input":{"action":"send","rationale":"approver disconnect e2e","to":["dana@acme.example"],"subject":"Hello","text":"Hi Dana"}}`
	req, _ := http.NewRequest("POST", p.gateway+"/api/v1/demo/email", strings.NewReader(send))
	req.Header.Set("Authorization", "Bearer "+p.demoToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var held struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
		ApprovalID string `json:"approval_id"`
	}
	json.NewDecoder(resp.Body).Decode(&held)
	resp.Body.Close()
	if held.Error.Code != "APPROVAL_REQUIRED" || held.ApprovalID == "" {
		t.Fatalf("email_send answered %d %+v, want APPROVAL_REQUIRED with an approval_id", resp.StatusCode, held)
	}

	// The approver's request is cancelled once Gmail has the send.
	ctx, hangUp := context.WithCancel(context.Background())
	approve, _ := http.NewRequestWithContext(ctx, "POST", p.gateway+"/admin/approvals/"+held.ApprovalID+"/approve",
		strings.NewReader(`{"decided_by":"ops"}`))
	approve.Header.Set("X-Admin-Key", adminKey)
	approve.Header.Set("Content-Type", "application/json")
	approverDone := make(chan struct{})
	go func() {
		defer close(approverDone)
		if resp, err := http.DefaultClient.Do(approve); err == nil {
			resp.Body.Close()
		}
	}()
	<-arrived
	hangUp()
	<-approverDone
	close(release)

	status := ""
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		req, _ := http.NewRequest("GET", p.gateway+"/admin/approvals/"+held.ApprovalID, nil)
		req.Header.Set("X-Admin-Key", adminKey)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var gate struct {
			Status string `json:"status"`
		}
		json.NewDecoder(resp.Body).Decode(&gate)
		resp.Body.Close()
		if status = gate.Status; status != "approved" && status != "pending" {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if status != "executed" {
		t.Fatalf("gate ended %q after the approver hung up, want executed: %s", status, p.stderr.String())
	}
	if n := sends.Load(); n != 1 {
		t.Fatalf("Gmail received %d sends, want exactly 1", n)
	}
	p.stop(t)
}

// awaitStoreBack waits until the gateway's /health sees the store again,
// within 90 s of its return.
func awaitStoreBack(t *testing.T, p *process) {
	t.Helper()
	for deadline := time.Now().Add(90 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		if resp, err := http.Get(p.gateway + "/health"); err == nil {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK && strings.Contains(string(b), `"reachable":true`) {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the gateway did not recover within 90 s of the store's return: %s", p.stderr.String())
		}
	}
}

// auditedInPostgres is the request ids of the demo tenant's audit entries
// matching where, read from the database at dsn.
func auditedInPostgres(t *testing.T, dsn, where string) map[string]bool {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, "SELECT request_id FROM audit_log WHERE tenant_id = 'demo' AND "+where)
	if err != nil {
		t.Fatal(err)
	}
	audited := map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		audited[id] = true
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return audited
}

// unaudited counts the acknowledged calls without an audit entry.
func unaudited(acked, audited map[string]bool) int {
	lost := 0
	for id := range acked {
		if !audited[id] {
			lost++
		}
	}
	return lost
}
