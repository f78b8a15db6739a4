package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/secret"
	"github.com/gtmgate/gtmgate/store/sqlite"
	"github.com/gtmgate/gtmgate/store/sqlstore"
	"github.com/gtmgate/gtmgate/store/storetest"
)

// TestSIGKILLLosesNoAcknowledgedAudit drives tool calls at the real binary,
// kills it with SIGKILL mid-load, and checks that every call that got a
// response has exactly one audit entry in the store: with the journal (the
// default) after the next start has replayed it, and again after a second
// start (a journal is never written twice); with GTMGATE_AUDIT_JOURNAL=false
// straight away.
func TestSIGKILLLosesNoAcknowledgedAudit(t *testing.T) {
	for _, tc := range []struct {
		name    string
		env     []string
		restart bool
	}{
		{"journal", nil, true},
		{"store commit", []string{"GTMGATE_AUDIT_JOURNAL=false"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			acked := loadUntilKilled(t, start(t, dir, tc.env...), 300)
			if tc.restart {
				if left := journalSegments(t, dir); len(left) == 0 {
					t.Log("the journal was empty at the kill (every call had reached the store)")
				}
				start(t, dir, tc.env...).stop(t)
				if left := journalSegments(t, dir); len(left) != 0 {
					t.Fatalf("journal segments left after a clean restart: %v", left)
				}
			}
			found := auditedRequests(t, dir)
			missing, twice := 0, 0
			for id := range acked {
				if found[id] == 0 {
					missing++
				}
			}
			for _, n := range found {
				if n > 1 {
					twice++
				}
			}
			t.Logf("acknowledged %d calls before SIGKILL; audit holds %d rest entries; missing %d; written twice %d",
				len(acked), len(found), missing, twice)
			if missing > 0 || twice > 0 {
				t.Fatalf("%d acknowledged calls have no audit entry, %d have more than one", missing, twice)
			}
			if tc.restart {
				start(t, dir, tc.env...).stop(t)
				if again := auditedRequests(t, dir); len(again) != len(found) {
					t.Fatalf("a second start changed the audit log: %d entries, then %d", len(found), len(again))
				}
			}
		})
	}
}

// loadUntilKilled makes tool calls from 8 workers and SIGKILLs the process
// after n acknowledgements; it returns the acknowledged request ids.
func loadUntilKilled(t *testing.T, p *process, n int64) map[string]bool {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"tool": "crm_pipelines", "input": map[string]any{"action": "list", "rationale": "durability"}})
	var acked sync.Map
	var count atomic.Int64
	client := &http.Client{}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				req, _ := http.NewRequest("POST", p.gateway+"/api/v1/demo/crm", bytes.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+p.demoToken)
				resp, err := client.Do(req)
				if err != nil {
					return // the process is gone
				}
				var out struct {
					OK        bool   `json:"ok"`
					RequestID string `json:"request_id"`
				}
				err = json.NewDecoder(resp.Body).Decode(&out)
				resp.Body.Close()
				if err == nil && out.OK {
					acked.Store(out.RequestID, true)
					if count.Add(1) == n {
						p.cmd.Process.Signal(syscall.SIGKILL)
					}
				}
			}
		}()
	}
	p.cmd.Wait()
	close(stop)
	wg.Wait()
	if count.Load() < n {
		t.Fatalf("only %d calls were acknowledged before the process died: %s", count.Load(), p.stderr.String())
	}
	out := map[string]bool{}
	acked.Range(func(k, _ any) bool {
		out[k.(string)] = true
		return true
	})
	return out
}

func journalSegments(t *testing.T, dataDir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dataDir, "journal", "audit-*.journal"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// auditedRequests opens the data dir's SQLite store and counts the REST
// audit entries of each request id.
func auditedRequests(t *testing.T, dir string) map[string]int {
	t.Helper()
	key, err := os.ReadFile(filepath.Join(dir, "encryption.key"))
	if err != nil {
		t.Fatal(err)
	}
	k, err := secret.ParseKey(string(bytes.TrimSpace(key)))
	if err != nil {
		t.Fatal(err)
	}
	sealer, _ := secret.NewSealer(k)
	st, err := sqlite.Open(context.Background(), filepath.Join(dir, "gtmgate.db"), &sqlstore.Options{Sealer: sealer})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	return storetest.RequestIDs(t, st, gtmgate.AuditFilter{TenantID: "demo", Source: gtmgate.SourceREST})
}
