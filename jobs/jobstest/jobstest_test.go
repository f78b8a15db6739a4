package jobstest

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestEveryJobKindIsPinned: every job kind the gateway defines is named
// by a test that pins its queue through this package, so a new kind (or a
// kind moved to another queue) cannot go unnoticed.
func TestEveryJobKindIsPinned(t *testing.T) {
	defined := regexp.MustCompile(`\) Kind\(\) string \{ return "([a-z0-9_]+)" \}`)
	kinds := map[string]string{} // kind: where it is defined
	var pinning []string         // the test files pinning through jobstest
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		src := string(b)
		if strings.HasSuffix(path, "_test.go") {
			if strings.Contains(src, "jobstest.Check(") {
				pinning = append(pinning, src)
			}
			return nil
		}
		for _, m := range defined.FindAllStringSubmatch(src, -1) {
			kinds[m[1]] = path
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(kinds) == 0 {
		t.Fatal(`found no job kind: are Kind methods still written "func (X) Kind() string { return "kind" }"?`)
	}
	for kind, path := range kinds {
		pinned := false
		for _, src := range pinning {
			if strings.Contains(src, `"`+kind+`"`) {
				pinned = true
				break
			}
		}
		if !pinned {
			t.Errorf("job kind %s (%s) is pinned by no test: add it to its package's TestJobQueues (jobstest.Check)", kind, path)
		}
	}
}
