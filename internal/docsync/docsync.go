// Package docsync keeps a generated section of a documentation file (a
// README table, a docs page's table) identical to what the code generates:
// tests compare, and rewrite the section with -update.
package docsync

import (
	"os"
	"strings"
	"testing"
)

// Check fails t when the text between the markers start and end in the file
// at path is not want, unless update is set, in which case it rewrites it.
// hint says how to update ("go test ./config -update").
func Check(t testing.TB, path, start, end, want string, update bool, hint string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	i, j := strings.Index(text, start), strings.Index(text, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q … %q markers", path, start, end)
	}
	if text[i+len(start):j] == want {
		return
	}
	if !update {
		t.Fatalf("%s is stale; run %s\nwant:\n%s", path, hint, want)
	}
	if err := os.WriteFile(path, []byte(text[:i+len(start)]+want+text[j:]), 0o644); err != nil {
		t.Fatal(err)
	}
}
