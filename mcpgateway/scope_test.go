package mcpgateway

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/registry"
	"github.com/gtmgate/gtmgate/store/sqlite"
	"github.com/gtmgate/gtmgate/store/sqlstore"
	"github.com/gtmgate/gtmgate/store/storetest"
	"github.com/gtmgate/gtmgate/toolrun"
)

// scopeEnv is an /mcp handler whose only tool, "contacts", counts the runs
// of its mutating action; every request comes from an OAuth principal with
// tools:read only.
type scopeEnv struct {
	handler   http.Handler
	mutations atomic.Int64
	reads     atomic.Int64
}

type nopRecorder struct{}

func (nopRecorder) Record(context.Context, gtmgate.AuditEntry, *gtmgate.UsageEvent) error { return nil }
func (nopRecorder) Check() error                                                          { return nil }
func (nopRecorder) Flush(context.Context) error                                           { return nil }

func newScopeEnv(t testing.TB) *scopeEnv {
	t.Helper()
	st, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "g.db"), &sqlstore.Options{Sealer: storetest.NewSealer(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.PutTenant(t.Context(), &gtmgate.Tenant{ID: "acme", Name: "Acme", Status: gtmgate.TenantActive}); err != nil {
		t.Fatal(err)
	}
	e := &scopeEnv{}
	tool := gtmgate.Tool{
		Name: "contacts", Domain: "crm", Title: "Contacts", Description: "test contacts",
		Actions: []gtmgate.Action{
			{Name: "list", Category: gtmgate.CategoryCRMRead},
			{Name: "create", Category: gtmgate.CategoryCRMWrite, Mutating: true},
		},
		Run: func(_ context.Context, c *gtmgate.Call) (any, error) {
			if c.Action.Mutating {
				e.mutations.Add(1)
			} else {
				e.reads.Add(1)
			}
			return map[string]any{"done": c.Action.Name}, nil
		},
	}
	reg, err := registry.New(tool)
	if err != nil {
		t.Fatal(err)
	}
	runner := toolrun.New(toolrun.Options{Registry: reg, Store: st, Recorder: nopRecorder{}})
	readOnly := &gtmgate.Principal{TenantID: "acme", KeyID: "oauth:t1", Kind: gtmgate.PrincipalOAuth, Scopes: []string{gtmgate.ScopeToolsRead}}
	e.handler = New(Options{
		Runner: runner,
		Require: func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				next.ServeHTTP(w, r.WithContext(gtmgate.NewContextWithPrincipal(r.Context(), readOnly)))
			})
		},
		DenyScope: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope"`)
			w.WriteHeader(http.StatusForbidden)
		},
		MaxBodyBytes: 1 << 20,
	})
	return e
}

func (e *scopeEnv) post(body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer x")
	rec := httptest.NewRecorder()
	e.handler.ServeHTTP(rec, req)
	return rec
}

const (
	createCall = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"contacts","arguments":{"action":"create","rationale":"r"}}}`
	listCall   = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"contacts","arguments":{"action":"list","rationale":"r"}}}`
)

// TestReadScopeCannotMutate sends the bodies a security probe used to slip a
// mutation past a scope check that parsed the body itself: each must end in
// the 403 step-up challenge with the mutation not run.
func TestReadScopeCannotMutate(t *testing.T) {
	e := newScopeEnv(t)
	for _, tc := range []struct{ name, body string }{
		{"plain mutation", createCall},
		{"trailing brace", createCall + "}"},
		{"case-variant Name in params", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"contacts","Name":"other","arguments":{"action":"create","rationale":"r"}}}`},
		{"case-variant Method at top level", `{"jsonrpc":"2.0","id":1,"method":"tools/call","Method":"ping","params":{"name":"contacts","arguments":{"action":"create","rationale":"r"}}}`},
		{"case-variant Params key", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"contacts","arguments":{"action":"create","rationale":"r"}},"Params":{"name":"contacts","arguments":{"action":"list","rationale":"r"}}}`},
		{"case-variant Arguments key", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"contacts","Arguments":{"action":"list","rationale":"r"},"arguments":{"action":"create","rationale":"r"}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := e.post(tc.body)
			if rec.Code == http.StatusOK && strings.Contains(rec.Body.String(), `"done":"create"`) {
				t.Fatalf("mutation answered 200: %s", rec.Body)
			}
			if n := e.mutations.Load(); n != 0 {
				t.Fatalf("mutating action ran %d times with a tools:read token", n)
			}
			if rec.Code != http.StatusForbidden {
				t.Fatalf("status %d, want 403: %s", rec.Code, rec.Body)
			}
			if !strings.Contains(rec.Header().Get("WWW-Authenticate"), "insufficient_scope") {
				t.Errorf("403 without a step-up challenge: %q", rec.Header().Get("WWW-Authenticate"))
			}
		})
	}
	if rec := e.post(listCall); rec.Code != http.StatusOK || e.reads.Load() != 1 {
		t.Fatalf("read with tools:read: status %d, reads %d: %s", rec.Code, e.reads.Load(), rec.Body)
	}
}

// FuzzReadScopeCannotMutate: no request body makes a tools:read token run a
// mutating action.
func FuzzReadScopeCannotMutate(f *testing.F) {
	for _, s := range []string{
		createCall, listCall, createCall + "}", "[" + listCall + "," + createCall + "]",
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","Method":"ping","params":{"name":"contacts","arguments":{"action":"create","rationale":"r"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"contacts","arguments":{"action":"create","action":"list","rationale":"r"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"contacts","arguments":{"Action":"create","action":"list","rationale":"r"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"f","version":"1"}}}`,
	} {
		f.Add(s)
	}
	e := newScopeEnv(f)
	f.Fuzz(func(t *testing.T, body string) {
		e.post(body)
		if n := e.mutations.Load(); n != 0 {
			t.Fatalf("mutating action ran with a tools:read token; body %q", body)
		}
	})
}
