package apiversion

import (
	"flag"
	"testing"

	"github.com/gtmgate/gtmgate/internal/docsync"
)

var update = flag.Bool("update", false, "rewrite the Provider versions page's tables")

// TestDocsTables keeps the docs host's Provider versions page identical to
// the catalogue (go test ./provider/apiversion -update rewrites it).
func TestDocsTables(t *testing.T) {
	docsync.Check(t, "../../content/docstree/provider-versions.md", "<!-- versions:start -->\n", "<!-- versions:end -->",
		MarkdownTables(), *update, "go test ./provider/apiversion -update")
}
