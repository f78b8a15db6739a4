package apiversion

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the Provider versions page's tables")

const (
	docsPage   = "../../content/docstree/provider-versions.md"
	tableStart = "<!-- versions:start -->\n"
	tableEnd   = "<!-- versions:end -->"
)

// TestDocsTables keeps the docs host's Provider versions page identical to
// the catalogue (go test ./provider/apiversion -update rewrites it).
func TestDocsTables(t *testing.T) {
	b, err := os.ReadFile(docsPage)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	i, j := strings.Index(page, tableStart), strings.Index(page, tableEnd)
	if i < 0 || j < i {
		t.Fatal("the page has no versions table markers")
	}
	want := MarkdownTables()
	if page[i+len(tableStart):j] == want {
		return
	}
	if !*update {
		t.Fatalf("the Provider versions page is stale; run go test ./provider/apiversion -update\nwant:\n%s", want)
	}
	if err := os.WriteFile(docsPage, []byte(page[:i+len(tableStart)]+want+page[j:]), 0o644); err != nil {
		t.Fatal(err)
	}
}
