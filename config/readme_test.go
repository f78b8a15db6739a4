package config

import (
	"flag"
	"testing"

	"github.com/gtmgate/gtmgate/internal/docsync"
)

var update = flag.Bool("update", false, "rewrite the README's configuration table")

// TestREADMESettingsTable keeps the README's configuration table identical
// to the settings the code reads (go test ./config -update rewrites it).
func TestREADMESettingsTable(t *testing.T) {
	docsync.Check(t, "../README.md", "<!-- settings:start -->\n", "<!-- settings:end -->", SettingsTable(), *update, "go test ./config -update")
}
