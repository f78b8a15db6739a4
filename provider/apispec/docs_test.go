package apispec

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/internal/docsync"
)

var update = flag.Bool("update", false, "rewrite the Provider versions page's table of spec sources")

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
	docsync.Check(t, "../../content/docstree/provider-versions.md", "<!-- specs:start -->\n", "<!-- specs:end -->", b.String(), *update,
		"go test ./provider/apispec -update")
}
