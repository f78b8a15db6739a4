package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/internal/nodetools"
)

// snippetFence finds the fenced blocks of a docs page whose info string
// marks them "tested:<name>" (run by TestConnectRecipes) or
// "checked:<name>" (parsed).
var snippetFence = regexp.MustCompile("(?ms)^```[a-z]+ (tested|checked):([a-z0-9-]+)\n(.*?)\n```")

// pageSnippets returns the marked snippets of a page (README.md or a docs
// page, by path from e2e) by kind and name;
// checked snippets are numbered in page order ("json-1", "json-2"…).
func pageSnippets(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	n := 0
	for _, m := range snippetFence.FindAllStringSubmatch(string(b), -1) {
		key := m[1] + ":" + m[2]
		if m[1] == "checked" {
			n++
			key += "-" + strconv.Itoa(n)
		}
		out[key] = m[3]
	}
	return out
}

// TestConnectRecipes runs the Connect page's tested snippets, as they are on
// the page, against the real binary started as the Quickstart starts it
// (gtmgate serve --demo) with the Quickstart's variables
// (GTMGATE_GATEWAY_URL, GTMGATE_TOKEN): the REST proxy with curl, the MCP
// Inspector CLI, the MCP TypeScript SDK and the openai client on the demo's
// sandbox model. The JSON configurations of the page must parse, and the
// README's copies of tested snippets must be the page's, so they run too.
func TestConnectRecipes(t *testing.T) {
	snippets := pageSnippets(t, filepath.Join("..", "content", "docstree", "connect.md"))
	for _, name := range []string{"tested:rest", "tested:inspector", "tested:mcp-sdk", "tested:openai"} {
		if snippets[name] == "" {
			t.Fatalf("connect.md has no %s snippet", name)
		}
	}
	for name, s := range snippets {
		if strings.HasPrefix(name, "checked:json") {
			var v any
			if err := json.Unmarshal([]byte(s), &v); err != nil {
				t.Errorf("connect.md %s is not valid JSON: %v\n%s", name, err, s)
			}
		}
	}
	for name, s := range pageSnippets(t, filepath.Join("..", "README.md")) {
		if strings.HasPrefix(name, "tested:") && s != snippets[name] {
			t.Errorf("README.md's %s is not connect.md's, which this test runs:\n%s\n--- connect.md:\n%s", name, s, snippets[name])
		}
	}

	dir := nodetools.Dir(t)
	node := nodetools.Node(t)

	// The plain demo, as a reader runs it: its sandbox model gateway
	// answers the openai snippet.
	p := start(t, t.TempDir())
	env := append(os.Environ(), "GTMGATE_GATEWAY_URL="+p.gateway, "GTMGATE_TOKEN="+p.demoToken,
		"PATH="+filepath.Dir(node)+string(os.PathListSeparator)+os.Getenv("PATH"), "npm_config_offline=true", "npm_config_update_notifier=false")
	run := func(t *testing.T, name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s\n%s", name, err, out, p.stderr.String())
		}
		return string(out)
	}
	// runModule writes a JavaScript snippet next to e2e/node's packages, so
	// its imports resolve as in a project that installed them, and runs it.
	runModule := func(t *testing.T, name string) string {
		t.Helper()
		f, err := os.CreateTemp(dir, ".connect-*.mjs")
		if err != nil {
			t.Fatal(err)
		}
		defer os.Remove(f.Name())
		f.WriteString(snippets[name])
		f.Close()
		return run(t, name, node, f.Name())
	}

	t.Run("rest", func(t *testing.T) {
		out := run(t, "rest", "bash", "-euo", "pipefail", "-c", snippets["tested:rest"])
		var body struct {
			OK     bool `json:"ok"`
			Result struct {
				Items []any `json:"items"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(out), &body); err != nil || !body.OK || len(body.Result.Items) == 0 {
			t.Fatalf("REST snippet output: %v\n%s", err, out)
		}
	})
	t.Run("inspector", func(t *testing.T) {
		out := run(t, "inspector", "bash", "-euo", "pipefail", "-c", snippets["tested:inspector"])
		var list struct {
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		}
		// The listing is one JSON value; the Inspector may add notes after it.
		err := json.NewDecoder(strings.NewReader(out[max(strings.Index(out, "{"), 0):])).Decode(&list)
		if err != nil || len(list.Tools) < 30 {
			t.Fatalf("Inspector snippet listed %d tools: %v\n%s", len(list.Tools), err, out)
		}
	})
	t.Run("mcp-sdk", func(t *testing.T) {
		lines := strings.Split(strings.TrimSpace(runModule(t, "tested:mcp-sdk")), "\n")
		n, _ := strconv.Atoi(strings.TrimSuffix(lines[0], " tools"))
		if len(lines) < 2 || n < 30 || !strings.Contains(lines[len(lines)-1], `"ok":true`) {
			t.Fatalf("TypeScript SDK snippet output: %q", lines)
		}
	})
	t.Run("openai", func(t *testing.T) {
		// The sandbox model quotes the question it was asked.
		out := strings.TrimSpace(runModule(t, "tested:openai"))
		if !strings.HasPrefix(out, "[gtmgate sandbox model]") || !strings.Contains(out, "Summarise our pipeline risks in one sentence.") {
			t.Fatalf("openai snippet printed %q, want the sandbox model's answer to its question", out)
		}
	})
}
