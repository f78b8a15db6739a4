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
)

// TestSIGKILLLosesNoAcknowledgedAudit drives tool calls at the real binary,
// kills it with SIGKILL mid-load, and checks that every call that got a
// response has its audit entry in the store.
func TestSIGKILLLosesNoAcknowledgedAudit(t *testing.T) {
	dir := t.TempDir()
	p := start(t, dir)
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
					if count.Add(1) == 300 {
						p.cmd.Process.Signal(syscall.SIGKILL)
					}
				}
			}
		}()
	}
	p.cmd.Wait()
	close(stop)
	wg.Wait()
	if count.Load() < 300 {
		t.Fatalf("only %d calls were acknowledged before the process died: %s", count.Load(), p.stderr.String())
	}

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
	found := map[string]bool{}
	var before int64
	for {
		entries, next, err := st.QueryAudit(context.Background(), gtmgate.AuditFilter{TenantID: "demo", Source: gtmgate.SourceREST, Limit: 1000, Before: before})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			found[e.RequestID] = true
		}
		if next == 0 {
			break
		}
		before = next
	}
	missing := 0
	acked.Range(func(k, _ any) bool {
		if !found[k.(string)] {
			missing++
		}
		return true
	})
	t.Logf("acknowledged %d calls before SIGKILL; audit holds %d rest entries; missing %d", count.Load(), len(found), missing)
	if missing > 0 {
		t.Fatalf("%d acknowledged calls have no audit entry", missing)
	}
}
