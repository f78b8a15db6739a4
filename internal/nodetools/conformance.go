package nodetools

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// Conformance runs the MCP conformance suite's server scenarios against url,
// one at a time, and fails the test for each scenario that does not pass.
func Conformance(t *testing.T, url string, scenarios ...string) {
	t.Helper()
	node := Node(t)
	cli := Bin(t, "@modelcontextprotocol/conformance", "dist/index.js")
	for _, sc := range scenarios {
		t.Run(sc, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, node, cli, "server", "--url", url, "--scenario", sc, "-o", t.TempDir())
			cmd.Dir = Dir(t)
			out, err := cmd.CombinedOutput()
			if err != nil || strings.Contains(string(out), "FAILURE") {
				t.Fatalf("conformance scenario %s against %s failed (%v):\n%s", sc, url, err, out)
			}
			t.Logf("%s", lastLines(string(out), 3))
		})
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
