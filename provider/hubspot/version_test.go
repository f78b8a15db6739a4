package hubspot

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// versionedEnv is a sandbox whose requests are recorded, and the tools at version.
func versionedEnv(t *testing.T, version string) (*testEnv, func() []string) {
	t.Helper()
	sb := NewSandbox()
	var mu sync.Mutex
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.Method+" "+r.URL.Path)
		mu.Unlock()
		sb.Handler.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	opts := Options(srv.URL, version)
	opts.Timeout, opts.Backoff = 5*time.Second, 10*time.Millisecond
	e := &testEnv{t: t, sandbox: sb.Handler.(*Sandbox), tools: map[string]gtmgate.Tool{}, account: sb.Accounts[0], token: sb.Token}
	for _, tool := range Tools(upstream.MustNew(opts)) {
		e.tools[tool.Name] = tool
	}
	return e, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(paths)
	}
}

// exercise calls every kind of endpoint the adapter uses.
func exercise(e *testEnv) []string {
	list := mustRun[Page](e, "crm_contacts", `{"rationale":"r","action":"list","limit":3}`)
	mustRun[Page](e, "crm_contacts", `{"rationale":"r","action":"search","query":"halcyon"}`)
	mustRun[Item](e, "crm_contacts", `{"rationale":"r","action":"get","id":"`+list.Items[0].ID+`"}`)
	created := mustRun[Item](e, "crm_tasks", `{"rationale":"r","action":"create","subject":"s","priority":"LOW","due":"2026-02-01T09:00:00Z"}`)
	mustRun[Item](e, "crm_tasks", `{"rationale":"r","action":"update","id":"`+created.ID+`","status":"COMPLETED"}`)
	assoc := mustRun[AssociationPage](e, "crm_associations", `{"rationale":"r","action":"list","from_type":"deals","from_id":"7207","to_type":"contacts"}`)
	mustRun[AssociationResult](e, "crm_associations", `{"rationale":"r","action":"create","from_type":"contacts","from_id":"1528","to_type":"deals","to_id":"7211"}`)
	mustRun[any](e, "crm_pipelines", `{"rationale":"r","action":"list","object_type":"deals"}`)
	mustRun[any](e, "crm_properties", `{"rationale":"r","action":"list","object_type":"tasks"}`)
	ids := []string{}
	for _, it := range list.Items {
		ids = append(ids, it.ID)
	}
	for _, a := range assoc.Items {
		ids = append(ids, a.ID)
	}
	return ids
}

func TestVersionPaths(t *testing.T) {
	t.Parallel()
	tests := []struct {
		version string
		// want are prefixes every request path must start with, one per area.
		want []string
	}{
		{"v3", []string{"/crm/v3/objects/", "/crm/v4/objects/", "/crm/v3/pipelines/", "/crm/v3/properties/"}},
		{"2026-03", []string{"/crm/objects/2026-03/", "/crm/pipelines/2026-03/", "/crm/properties/2026-03/"}},
		{"2026-09", []string{"/crm/objects/2026-09/", "/crm/pipelines/2026-09/", "/crm/properties/2026-09/"}},
		{"", []string{"/crm/objects/" + catalogue().Default + "/", "/crm/pipelines/" + catalogue().Default + "/", "/crm/properties/" + catalogue().Default + "/"}},
	}
	var reference []string
	for _, tt := range tests {
		e, paths := versionedEnv(t, tt.version)
		ids := exercise(e)
		if reference == nil {
			reference = ids
		} else if !slices.Equal(ids, reference) {
			t.Errorf("version %q: ids %v, want the same answers as v3: %v", tt.version, ids, reference)
		}
		got := paths()
		for _, p := range got {
			_, path, _ := strings.Cut(p, " ")
			if !slices.ContainsFunc(tt.want, func(w string) bool { return strings.HasPrefix(path, w) }) {
				t.Errorf("version %q: request %s is not under %v", tt.version, p, tt.want)
			}
		}
		if tt.version == "v3" && !slices.ContainsFunc(got, func(p string) bool { return strings.Contains(p, "/crm/v4/objects/deals/7207/associations/contacts") }) {
			t.Errorf("legacy associations did not use v4: %v", got)
		}
	}
}

func TestOptionsVersion(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"": catalogue().Default, "v4": catalogue().Default, "2026-9": catalogue().Default, "v3": "v3", "2026-09": "2026-09"} {
		if got := Options("http://x", in).APIVersion; got != want {
			t.Errorf("Options(%q).APIVersion = %q, want %q", in, got, want)
		}
	}
}

func TestSandboxDatedRoutes(t *testing.T) {
	t.Parallel()
	s := NewSandboxHandler()
	tests := []struct {
		path string
		want int
	}{
		{"/crm/v3/objects/contacts?limit=1", 200},
		{"/crm/objects/2026-03/contacts?limit=1", 200},
		{"/crm/objects/2026-09/contacts/1501", 200},
		{"/crm/pipelines/2026-03/deals", 200},
		{"/crm/properties/2026-09/contacts", 200},
		{"/crm/objects/2026-03/deals/7207/associations/contacts", 200},
		{"/crm/objects/2031-03/contacts", 404},
		{"/crm/objects/v3/contacts", 404},
		{"/crm/objects/2026-09-beta/contacts", 404},
	}
	for _, tt := range tests {
		if w, body := call(t, s, "GET", tt.path, "", nil); w.Code != tt.want {
			t.Errorf("GET %s: %d %v, want %d", tt.path, w.Code, body, tt.want)
		}
	}
	w, body := call(t, s, "GET", "/crm/objects/2026-03/contacts?limit=1", "", nil)
	next := body["paging"].(map[string]any)["next"].(map[string]any)["link"].(string)
	if w.Code != 200 || !strings.Contains(next, "/crm/objects/2026-03/contacts?") {
		t.Errorf("paging link %q does not repeat the dated path", next)
	}
}
