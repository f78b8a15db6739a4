package nodetools

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Scenario is one server scenario of the MCP conformance suite, run at one
// protocol revision's wire.
type Scenario struct {
	Name string
	// Spec is the protocol revision whose wire the scenario runs at
	// ("2025-11-25", "2026-07-28"; the suite's --spec-version). Empty: the
	// suite's own choice, 2026-07-28 for the scenarios it introduced and
	// 2025-11-25 for the rest. A scenario that does not apply at Spec
	// fails the test rather than passing with nothing checked.
	Spec string
	// Excused are ids of the scenario's checks that may fail: the
	// fixtures they need (test tools) are not the server's to offer. They
	// go to the suite as an expected-failures baseline, which also fails a
	// run where an excused check passes, so the list cannot go stale.
	Excused []string
}

// Conformance runs the MCP conformance suite's server scenarios against url,
// one at a time, each at the suite's default wire, and fails the test for
// each scenario that does not pass.
func Conformance(t *testing.T, url string, scenarios ...string) {
	t.Helper()
	runs := make([]Scenario, len(scenarios))
	for i, name := range scenarios {
		runs[i] = Scenario{Name: name}
	}
	ConformanceScenarios(t, url, runs...)
}

// ConformanceScenarios runs each scenario against url and fails the test
// for each one that does not pass.
func ConformanceScenarios(t *testing.T, url string, scenarios ...Scenario) {
	t.Helper()
	node := Node(t)
	cli := Bin(t, "@modelcontextprotocol/conformance", "dist/index.js")
	for _, sc := range scenarios {
		name := sc.Name
		if sc.Spec != "" {
			name += "@" + sc.Spec
		}
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			args := []string{cli, "server", "--url", url, "--scenario", sc.Name, "-o", t.TempDir()}
			if sc.Spec != "" {
				args = append(args, "--spec-version", sc.Spec)
			}
			if len(sc.Excused) > 0 {
				args = append(args, "--expected-failures", baseline(t, sc))
			}
			cmd := exec.CommandContext(ctx, node, args...)
			cmd.Dir = Dir(t)
			out, err := cmd.CombinedOutput()
			text := string(out)
			switch {
			case err != nil:
				t.Fatalf("conformance scenario %s against %s failed (%v):\n%s", name, url, err, out)
			case strings.Contains(text, "SKIPPED: scenario"):
				t.Fatalf("conformance scenario %s does not apply at that revision:\n%s", name, out)
			case len(sc.Excused) == 0 && strings.Contains(text, "FAILURE"):
				t.Fatalf("conformance scenario %s against %s failed:\n%s", name, url, out)
			case len(sc.Excused) > 0 && !strings.Contains(text, "Baseline check passed"):
				t.Fatalf("conformance scenario %s against %s: no baseline verdict:\n%s", name, url, out)
			}
			t.Logf("%s", lastLines(text, 3))
		})
	}
}

// baseline writes the suite's expected-failures file excusing sc's checks.
func baseline(t *testing.T, sc Scenario) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("server:\n")
	for _, check := range sc.Excused {
		b.WriteString("  - " + sc.Name + ":" + check + "\n")
	}
	path := filepath.Join(t.TempDir(), "expected-failures.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
