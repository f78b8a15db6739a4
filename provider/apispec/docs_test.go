package apispec

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the Provider versions page's table of spec sources")

const (
	docsPage   = "../../content/docstree/provider-versions.md"
	tableStart = "<!-- specs:start -->\n"
	tableEnd   = "<!-- specs:end -->"
)

// TestDocsSources keeps the docs page's table of where each sandbox's facts
// come from identical to the spec files (go test ./provider/apispec -update
// rewrites it), and checks every spec file parses.
func TestDocsSources(t *testing.T) {
	files, err := filepath.Glob("../*/apispec.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no spec files: %v", err)
	}
	var b strings.Builder
	b.WriteString("| Provider | Version | Operations | Facts | Source | Commit | Retrieved |\n|---|---|---:|---|---|---|---|\n")
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Parse(raw)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		how := "extracted"
		if s.Transcribed {
			how = "transcribed from reference pages"
		}
		commit := "—"
		if s.Commit != "" {
			commit = "`" + s.Commit[:min(len(s.Commit), 40)] + "`"
		}
		fmt.Fprintf(&b, "| `%s` | `%s` | %d | %s | [%s](%s) | %s | %s |\n", s.Provider, s.Version, len(s.Operations), how, s.Title, s.Source, commit, s.Retrieved)
	}
	b2, err := os.ReadFile(docsPage)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b2)
	i, j := strings.Index(page, tableStart), strings.Index(page, tableEnd)
	if i < 0 || j < i {
		t.Fatal("the page has no specs table markers")
	}
	if page[i+len(tableStart):j] == b.String() {
		return
	}
	if !*update {
		t.Fatalf("the Provider versions page's spec sources are stale; run go test ./provider/apispec -update\nwant:\n%s", b.String())
	}
	if err := os.WriteFile(docsPage, []byte(page[:i+len(tableStart)]+b.String()+page[j:]), 0o644); err != nil {
		t.Fatal(err)
	}
}
