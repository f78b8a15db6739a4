package helmcheck

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/internal/docexamples"
)

// docsPage is the docs host's Kubernetes page.
const docsPage = "content/docstree/kubernetes.md"

// installLine is the page's install and upgrade command.
var installLine = regexp.MustCompile(`^helm upgrade --install (\S+) (\S+)((?: \S+)*)$`)

// TestDocsInstallCommands runs the page's install commands (its ```sh
// tested:helm examples) as the reader would, with helm template in place of
// helm upgrade --install, and validates what they render: the page shows
// the commands CI runs.
func TestDocsInstallCommands(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(root(t), docsPage))
	if err != nil {
		t.Fatal(err)
	}
	examples, err := docexamples.Parse(filepath.Base(docsPage), src)
	if err != nil {
		t.Fatal(err)
	}
	var commands []string
	for _, e := range examples {
		if e.RunBy != "helm" {
			continue
		}
		for _, line := range strings.Split(strings.ReplaceAll(e.Script, "\\\n", " "), "\n") {
			line = strings.Join(strings.Fields(line), " ")
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			if !installLine.MatchString(line) {
				t.Errorf("%s: %q: a tested:helm example holds helm upgrade --install commands only; mark others not-run", e, line)
				continue
			}
			commands = append(commands, line)
		}
	}
	if len(commands) < 2 {
		t.Fatalf("%s has %d helm upgrade --install commands marked tested:helm; want the PostgreSQL and the SQLite one", docsPage, len(commands))
	}
	shown := shownValues(t, string(src))
	for _, line := range commands {
		t.Run(line, func(t *testing.T) {
			t.Parallel()
			m := installLine.FindStringSubmatch(line)
			release, chart, rest := m[1], m[2], strings.Fields(m[3])
			if chart != chartDir {
				t.Fatalf("the command installs %s; the chart is %s", chart, chartDir)
			}
			for i, a := range rest {
				if (a == "-f" || a == "--values") && i+1 < len(rest) {
					if _, ok := shown[rest[i+1]]; !ok {
						t.Errorf("the page does not show %s, which the command uses (a ```yaml block starting # %s)", rest[i+1], rest[i+1])
					}
				}
			}
			out, err := run(t, "helm", append(append([]string{"template", release, chart}, rest...), "--kube-version", kubeVersion)...)
			if err != nil {
				t.Fatalf("helm template for %q: %v", line, err)
			}
			validate(t, out)
			checkCommon(t, decode(t, out))
		})
	}
}

// TestDocsShowExampleValues holds each values file the page shows (a
// ```yaml block whose first line is "# <path>") to the file in the chart.
func TestDocsShowExampleValues(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(root(t), docsPage))
	if err != nil {
		t.Fatal(err)
	}
	shown := shownValues(t, string(src))
	if len(shown) == 0 {
		t.Fatalf("%s shows no example values file", docsPage)
	}
	for path, body := range shown {
		b, err := os.ReadFile(filepath.Join(root(t), path))
		if err != nil {
			t.Errorf("%s shows %s: %v", docsPage, path, err)
			continue
		}
		if body != string(b) {
			t.Errorf("%s shows %s otherwise than the file; copy the file into the page:\n%s", docsPage, path, b)
		}
	}
}

// shownValues returns the page's ```yaml blocks that name a file of the
// chart on their first line, by that path.
func shownValues(t *testing.T, page string) map[string]string {
	t.Helper()
	out := map[string]string{}
	lines := strings.SplitAfter(page, "\n")
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```yaml" || i+1 >= len(lines) {
			continue
		}
		path, ok := strings.CutPrefix(strings.TrimSpace(lines[i+1]), "# ")
		if !ok || !strings.HasPrefix(path, chartDir+"/") {
			continue
		}
		var body strings.Builder
		j := i + 2
		for ; j < len(lines) && strings.TrimSpace(lines[j]) != "```"; j++ {
			body.WriteString(lines[j])
		}
		out[path] = body.String()
		i = j
	}
	return out
}

// TestDocsShowRefusal holds the refusal the page quotes (its line starting
// "Error: execution error") to what helm prints for SQLite with three
// replicas.
func TestDocsShowRefusal(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(root(t), docsPage))
	if err != nil {
		t.Fatal(err)
	}
	var shown string
	for _, line := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(line, "Error: execution error") {
			shown = line
		}
	}
	if shown == "" {
		t.Fatalf("%s quotes no refusal", docsPage)
	}
	_, err = template(t, "-f", filepath.Join(chartDir, "examples", "sqlite.yaml"), "--set", "replicaCount=3")
	if err == nil {
		t.Fatal("SQLite with three replicas rendered")
	}
	if got := strings.SplitN(err.Error(), "\n", 2)[0]; got != shown {
		t.Errorf("%s quotes\n%s\nhelm prints\n%s", docsPage, shown, got)
	}
}
