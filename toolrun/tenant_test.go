package toolrun_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/toolrun"
)

// countingStore counts tenant lookups.
type countingStore struct {
	toolrun.Store
	lookups atomic.Int64
}

func (s *countingStore) GetTenant(ctx context.Context, id string) (*gtmgate.Tenant, error) {
	s.lookups.Add(1)
	return s.Store.GetTenant(ctx, id)
}

// TestTenantNotFoundAnswersAlike: a path naming another tenant, naming no
// tenant at all, or a credential's own tenant once removed answer one way,
// 404 TENANT_NOT_FOUND with the same words, and another tenant's id is
// never looked up, so neither the answer nor its timing tells a caller
// which tenants exist.
func TestTenantNotFoundAnswersAlike(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if _, err := e.store.PutTenant(t.Context(), &gtmgate.Tenant{ID: "beta", Name: "Beta", Status: gtmgate.TenantActive}); err != nil {
		t.Fatal(err)
	}
	st := &countingStore{Store: e.store}
	runner := toolrun.New(toolrun.Options{Registry: e.runner.Registry(), Store: st, Recorder: e.rec, CallTimeout: time.Minute})
	tests := []struct {
		name, credential, path string
		wantLookup             bool
	}{
		{"another tenant's id", "acme", "beta", false},
		{"an id no tenant has", "acme", "nobody", false},
		{"the credential's own tenant, removed", "gone", "gone", true},
	}
	var answers []string
	for _, tc := range tests {
		before := st.lookups.Load()
		_, err := runner.Call(t.Context(), &toolrun.Request{
			Principal: &gtmgate.Principal{TenantID: tc.credential, KeyID: "tok_1"}, TenantID: tc.path,
			Tool: "email_send", Input: json.RawMessage(`{"action":"send","rationale":"r"}`), Source: "rest", RequestID: "req-" + tc.path,
		})
		var ge *gtmgate.Error
		if !errors.As(err, &ge) || ge.Code != gtmgate.ETenantNotFound {
			t.Fatalf("%s: err = %v, want TENANT_NOT_FOUND", tc.name, err)
		}
		if looked := st.lookups.Load() > before; looked != tc.wantLookup {
			t.Errorf("%s: tenant looked up = %v, want %v", tc.name, looked, tc.wantLookup)
		}
		answers = append(answers, strings.ReplaceAll(ge.Message+"|"+ge.Hint, `"`+tc.path+`"`, "ID"))
	}
	for i, a := range answers[1:] {
		if a != answers[0] {
			t.Errorf("%s answers %q, %s answers %q", tests[i+1].name, a, tests[0].name, answers[0])
		}
	}
	if e.runs.Load() != 0 {
		t.Fatalf("the tool ran %d times", e.runs.Load())
	}
}
