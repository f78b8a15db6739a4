package e2e

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/internal/nodetools"
)

// runNodeScript runs one of e2e/node's scripts against the running binary p
// with env added to the environment, and decodes the JSON summary the script
// prints as its last line into summary. A failed run or an unreadable
// summary fails the test with the script's output and gtmgate's stderr.
func runNodeScript(t *testing.T, p *process, script string, summary any, env ...string) {
	t.Helper()
	dir := nodetools.Dir(t)
	cmd := exec.Command(nodetools.Node(t), filepath.Join(dir, script))
	cmd.Dir = dir
	cmd.Env = append(cmd.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s\n%s", script, err, out, p.stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), summary); err != nil {
		t.Fatalf("%s summary: %v\n%s", script, err, out)
	}
}
