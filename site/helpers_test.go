package site

import (
	"context"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/registry"
)

var update = flag.Bool("update", false, "rewrite golden files")

const testSiteURL = "https://site.test"

// testRegistry is a two-domain registry standing in for the real tools.
func testRegistry(t testing.TB) *registry.Registry {
	t.Helper()
	run := func(context.Context, *gtmgate.Call) (any, error) { return nil, nil }
	reg, err := registry.New(
		gtmgate.Tool{Name: "crm_contacts", Domain: "crm", Title: "CRM contacts", Description: "Search and update contacts.", Provider: "hubspot", Run: run,
			Actions: []gtmgate.Action{{Name: "list", Category: gtmgate.CategoryCRMRead, List: true}, {Name: "update", Category: gtmgate.CategoryCRMWrite, Mutating: true}}},
		gtmgate.Tool{Name: "web_search", Domain: "search", Title: "Web search", Description: "Search the web.", Run: run,
			Actions: []gtmgate.Action{{Name: "search", Category: gtmgate.CategorySearchQuery}}},
	)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// newHandler builds the site over the embedded tree (tree nil) or a fixture.
func newHandler(t testing.TB, tree string) http.Handler {
	t.Helper()
	opts := Options{SiteURL: testSiteURL, GatewayURL: "https://gw.test", DocsURL: "https://docs.test", Registry: testRegistry(t), Version: "1.2.3"}
	if tree != "" {
		opts.Tree = os.DirFS(tree)
	}
	h, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// get serves one request in memory.
func get(t testing.TB, h http.Handler, method, path string, header ...string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(method, path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func body(t testing.TB, r *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// golden compares got with testdata/golden/name, rewriting it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", name, diff)
	}
}
