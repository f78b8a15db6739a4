package hubspot

import (
	"slices"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/upstream"
	"github.com/gtmgate/gtmgate/registry"
)

func TestToolsRegister(t *testing.T) {
	t.Parallel()
	tools := Tools(upstream.MustNew(upstream.Options{Provider: Provider, BaseURL: DefaultBaseURL}))
	reg, err := registry.New(tools...)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range reg.Tools() {
		names = append(names, e.Name)
		if e.Domain != "crm" || e.Provider != Provider || len(e.Description) < 80 || e.Title == "" {
			t.Errorf("%s: domain %q, provider %q, title %q, description %d chars", e.Name, e.Domain, e.Provider, e.Title, len(e.Description))
		}
		for _, a := range e.Actions {
			write := a.Category == gtmgate.CategoryCRMWrite
			if a.Mutating != write || (a.Category != gtmgate.CategoryCRMRead && !write) || a.Description == "" {
				t.Errorf("%s.%s: category %s, mutating %v, description %q", e.Name, a.Name, a.Category, a.Mutating, a.Description)
			}
		}
	}
	want := []string{"crm_associations", "crm_companies", "crm_contacts", "crm_deals", "crm_notes", "crm_pipelines", "crm_properties", "crm_tasks"}
	if !slices.Equal(names, want) {
		t.Fatalf("tools = %v, want %v", names, want)
	}
}

func TestNewSandbox(t *testing.T) {
	t.Parallel()
	sb := NewSandbox()
	if sb.Provider != Provider || sb.Token != SandboxToken || len(sb.Accounts) == 0 || portalID(sb.Accounts[0]) == "" {
		t.Fatalf("sandbox = %+v", sb)
	}
	if _, ok := sb.Handler.(*Sandbox); !ok {
		t.Fatalf("handler is %T, want *Sandbox", sb.Handler)
	}
	s := sb.Handler.(*Sandbox)
	counts := map[string]int{"contacts": 25, "companies": 10, "deals": 12, "notes": 5, "tasks": 5}
	for typ, min := range counts {
		if n := len(s.records[typ].order); n < min {
			t.Errorf("%d seeded %s, want at least %d", n, typ, min)
		}
	}
}
