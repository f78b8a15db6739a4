package e2e

import (
	"encoding/json"
	"os"
	"regexp"
	"testing"
)

// TestInspectorPinMatchesTests: every Inspector command a user is shown
// (README, the connect page, the start-up "Try:" text) names the version
// the tests install, so the command works as written, also on a Node that
// npx would otherwise answer with an old inspector.
func TestInspectorPinMatchesTests(t *testing.T) {
	raw, err := os.ReadFile("node/package.json")
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		Dependencies map[string]string `json:"devDependencies"`
	}
	if err := json.Unmarshal(raw, &pkg); err != nil {
		t.Fatal(err)
	}
	want := pkg.Dependencies["@modelcontextprotocol/inspector"]
	if want == "" {
		t.Fatal("e2e/node/package.json does not install the inspector")
	}
	mention := regexp.MustCompile(`npx @modelcontextprotocol/inspector(@[0-9.]+)?`)
	for _, f := range []string{"../README.md", "../content/docstree/connect.md", "../cmd/gtmgate/main.go"} {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		found := mention.FindAllStringSubmatch(string(src), -1)
		if len(found) == 0 {
			t.Errorf("%s: no inspector command", f)
		}
		for _, m := range found {
			if m[1] != "@"+want {
				t.Errorf("%s: %q, want @modelcontextprotocol/inspector@%s", f, m[0], want)
			}
		}
	}
}
