package config

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the README's configuration table")

const (
	tableStart = "<!-- settings:start -->\n"
	tableEnd   = "<!-- settings:end -->"
)

// TestREADMESettingsTable keeps the README's configuration table identical
// to the settings the code reads (go test ./config -update rewrites it).
func TestREADMESettingsTable(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	i, j := strings.Index(readme, tableStart), strings.Index(readme, tableEnd)
	if i < 0 || j < i {
		t.Fatal("README.md has no settings table markers")
	}
	want := SettingsTable()
	got := readme[i+len(tableStart) : j]
	if got == want {
		return
	}
	if !*update {
		t.Fatalf("README settings table is stale; run go test ./config -update\nwant:\n%s", want)
	}
	if err := os.WriteFile("../README.md", []byte(readme[:i+len(tableStart)]+want+readme[j:]), 0o644); err != nil {
		t.Fatal(err)
	}
}
