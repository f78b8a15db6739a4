package toolrun_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/registry"
	"github.com/gtmgate/gtmgate/toolrun"
)

// oneTenantsTools is a Federated with tools for tenant acme only.
type oneTenantsTools struct {
	entries map[string]*registry.Entry
}

func (f *oneTenantsTools) Tool(_ context.Context, tenantID, name string) (*registry.Entry, error) {
	if e, ok := f.entries[name]; ok && tenantID == "acme" {
		return e, nil
	}
	return nil, gtmgate.ErrNotFound
}

func (f *oneTenantsTools) Tools(_ context.Context, tenantID string) ([]*registry.Entry, string, error) {
	if tenantID != "acme" {
		return nil, "", nil
	}
	var out []*registry.Entry
	for _, e := range f.entries {
		out = append(out, e)
	}
	return out, "r1", nil
}

func TestFederatedToolsTakeTheOnePath(t *testing.T) {
	e := newEnv(t)
	if _, err := e.store.PutTenant(t.Context(), &gtmgate.Tenant{ID: "globex", Name: "Globex", Status: gtmgate.TenantActive}); err != nil {
		t.Fatal(err)
	}
	var runs atomic.Int64
	fed := &oneTenantsTools{entries: map[string]*registry.Entry{}}
	for _, f := range []registry.Federated{
		{Server: "up", Upstream: "read", Category: gtmgate.CategoryDataQuery},
		{Server: "up", Upstream: "wipe", Category: gtmgate.CategoryDataQuery, Mutating: true, Destructive: true},
	} {
		f.Run = func(context.Context, *gtmgate.Call) (any, error) { runs.Add(1); return map[string]any{"ok": 1}, nil }
		entry, err := registry.NewFederated(f)
		if err != nil {
			t.Fatal(err)
		}
		fed.entries[entry.Name] = entry
	}
	reg := e.runner.Registry()
	runner := toolrun.New(toolrun.Options{Registry: reg, Store: e.store, Recorder: e.rec, CallTimeout: time.Minute, Federated: fed})
	call := func(tenant, domain, tool string) (*toolrun.Outcome, error) {
		return runner.Call(t.Context(), &toolrun.Request{Principal: &gtmgate.Principal{TenantID: tenant, KeyID: "tok"}, TenantID: tenant,
			Domain: domain, Tool: tool, Input: json.RawMessage(`{"rationale":"r"}`), Source: "rest", RequestID: "req-" + tool})
	}
	tests := []struct {
		name, tenant, domain, tool, code string
		runs                             int64
	}{
		{"read runs", "acme", "", "up__read", "", 1},
		{"read in its REST domain", "acme", "mcp/up", "up__read", "", 1},
		{"wrong domain", "acme", "mcp/other", "up__read", gtmgate.EToolNotFound, 0},
		{"destructive held by the default policy", "acme", "", "up__wipe", gtmgate.EApprovalRequired, 0},
		{"another tenant cannot reach it", "globex", "", "up__read", gtmgate.EToolNotFound, 0},
		{"unknown federated name", "acme", "", "up__nope", gtmgate.EToolNotFound, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := runs.Load()
			_, err := call(tc.tenant, tc.domain, tc.tool)
			if gtmgate.ErrorCode(err) != tc.code && !(tc.code == "" && err == nil) {
				t.Fatalf("err = %v, want %q", err, tc.code)
			}
			if got := runs.Load() - before; got != tc.runs {
				t.Fatalf("upstream ran %d times, want %d", got, tc.runs)
			}
		})
	}
	// The held call runs once when approved.
	_, err := call("acme", "", "up__wipe")
	var ge *gtmgate.Error
	if !errors.As(err, &ge) || ge.Code != gtmgate.EApprovalRequired {
		t.Fatalf("err = %v", err)
	}
	before := runs.Load()
	if _, err := runner.Decide(t.Context(), toolrun.Decision{ApprovalID: ge.ApprovalID, Approve: true, DecidedBy: "ops", RequestID: "req-d"}); err != nil {
		t.Fatal(err)
	}
	if runs.Load()-before != 1 {
		t.Fatalf("approved federated call ran %d times", runs.Load()-before)
	}
	if got := len(runner.Tools(t.Context(), "acme")) - len(runner.Tools(t.Context(), "globex")); got != 2 {
		t.Fatalf("acme sees %d more tools than globex, want 2", got)
	}
	var audited bool
	for _, a := range e.rec.entries {
		audited = audited || (a.Action == "up__read.call" && a.TenantID == "acme")
	}
	if !audited {
		t.Fatal("no audit entry for up__read.call")
	}
}
