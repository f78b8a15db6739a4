package app_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/app/apptest"
	"github.com/gtmgate/gtmgate/config"
)

// TestShutdownPastTimeoutAnswersInFlightCalls stops the gateway while calls
// wait on a provider that never answers: past the shutdown time-out each
// call is cancelled, answers 503 UNAVAILABLE, is audited and ledgered, and
// Close reports success. Nothing acknowledged is lost (checked after a
// restart on the same data directory).
func TestShutdownPastTimeoutAnswersInFlightCalls(t *testing.T) {
	hung := make(chan struct{}, 16)
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hung <- struct{}{}
		<-r.Context().Done()
	}))
	defer slow.Close()
	dir := t.TempDir()
	e := apptest.Start(t, func(c *config.Config) {
		c.DataDir = dir
		c.Upstreams["hubspot"] = slow.URL
	})
	const inFlight = 4
	answers := make(chan *apptest.Response, inFlight)
	for range inFlight {
		go func() {
			answers <- e.Tool(e.DemoToken, "demo", "crm", "crm_contacts", map[string]any{"action": "list", "rationale": "shutdown test"})
		}()
	}
	for range inFlight {
		<-hung
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if err := e.App.Close(ctx); err != nil {
		t.Fatalf("Close past its time-out = %v, want nil: cancelling in-flight calls is the design", err)
	}
	for range inFlight {
		r := <-answers
		if r.Status != 503 || r.ErrorCode(t) != "UNAVAILABLE" || !strings.Contains(string(r.Body), "shutting down") {
			t.Errorf("in-flight call answered %d %s, want 503 UNAVAILABLE (shutting down)", r.Status, r.Body)
		}
	}
	// Restart on the same data: every call is in the audit log and the ledger.
	again := apptest.Start(t, func(c *config.Config) { c.DataDir = dir })
	audit := again.Admin("GET", "/admin/audit?tenant=demo&action=crm_contacts.list", nil).JSON(t)
	if n := int(audit["count"].(float64)); n != inFlight {
		t.Errorf("audit has %d entries of the cancelled calls, want %d", n, inFlight)
	}
	ledger := again.Admin("GET", "/admin/errors?tenant=demo", nil).JSON(t)
	if n := len(ledger["entries"].([]any)); n != inFlight {
		t.Errorf("ledger has %d entries, want %d", n, inFlight)
	}
}
