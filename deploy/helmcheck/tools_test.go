// Package helmcheck checks the Helm chart in deploy/helm/gtmgate without a
// cluster: helm lint, helm template over a matrix of values (and the values
// it must refuse), every rendered manifest validated by kubeconform against
// the committed JSON schemas of one Kubernetes release, the docs page's
// install commands run as they are shown, each rendered environment loaded
// by gtmgate's own configuration loader, and the chart's settings held to
// the configuration gtmgate reads.
//
// Helm and kubeconform are pinned builds in .tools/bin
// (scripts/install-chart-tools.sh, which `make test` runs first). Without
// them the tests skip, saying how to install them, or fail when CI=true.
package helmcheck

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// kubeVersion is the Kubernetes release the manifests are validated for:
// helm renders for it (--kube-version) and kubeconform reads its schemas
// from testdata/schemas/v<kubeVersion>-standalone-strict
// (scripts/k8s-schemas.sh makes them).
const kubeVersion = "1.35.4"

// installCommand installs the pinned helm and kubeconform.
const installCommand = "bash scripts/install-chart-tools.sh"

// root returns the repository root.
func root(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("helmcheck: cannot locate source file")
	}
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// chartDir is the chart, relative to the repository root.
const chartDir = "deploy/helm/gtmgate"

// tool returns the path of a tool in .tools/bin. When it is missing the test
// is skipped with the install command, or fails when CI=true.
func tool(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join(root(t), ".tools", "bin", name)
	if _, err := os.Stat(p); err != nil {
		msg := name + " not found in .tools/bin; install it with: " + installCommand
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return p
}

// run runs a tool in the repository root and returns its standard output;
// err carries standard error.
func run(t testing.TB, name string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(tool(t, name), args...)
	cmd.Dir = root(t)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), errors.New(strings.TrimSpace(stderr.String() + "\n" + stdout.String()))
	}
	return stdout.String(), nil
}

// template renders the chart as `helm template gtmgate <chart> args…` for
// kubeVersion.
func template(t testing.TB, args ...string) (string, error) {
	t.Helper()
	return run(t, "helm", append(append([]string{"template", "gtmgate", chartDir}, args...), "--kube-version", kubeVersion)...)
}

// validate runs kubeconform, strict and offline, on rendered manifests and
// fails t unless every resource validates: a kind without a committed
// schema fails too (scripts/k8s-schemas.sh adds one).
func validate(t testing.TB, manifests string) {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "manifests.yaml")
	if err := os.WriteFile(file, []byte(manifests), 0o644); err != nil {
		t.Fatal(err)
	}
	schemas := filepath.Join(root(t), "deploy", "helmcheck", "testdata", "schemas")
	if _, err := os.Stat(filepath.Join(schemas, "v"+kubeVersion+"-standalone-strict")); err != nil {
		t.Fatalf("no schemas for Kubernetes %s: run scripts/k8s-schemas.sh: %v", kubeVersion, err)
	}
	out, err := run(t, "kubeconform", "-strict", "-summary", "-kubernetes-version", kubeVersion,
		"-schema-location", schemas, file)
	if err != nil {
		t.Fatalf("kubeconform (Kubernetes %s) refused the manifests:\n%v\n--- manifests\n%s", kubeVersion, err, manifests)
	}
	if !strings.Contains(out, "Invalid: 0, Errors: 0, Skipped: 0") {
		t.Fatalf("kubeconform: %s", out)
	}
}

// object is one rendered manifest.
type object map[string]any

// decode splits helm's output into its manifests.
func decode(t testing.TB, manifests string) []object {
	t.Helper()
	var out []object
	d := yaml.NewDecoder(strings.NewReader(manifests))
	for {
		var o object
		err := d.Decode(&o)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("rendered YAML: %v", err)
		}
		if o != nil {
			out = append(out, o)
		}
	}
}

// find returns the manifests of one kind.
func find(objs []object, kind string) []object {
	var out []object
	for _, o := range objs {
		if o["kind"] == kind {
			out = append(out, o)
		}
	}
	return out
}

// get follows a path of map keys and list indexes through o.
func get(o any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := o.(map[string]any)
			if !ok {
				if ob, isObj := o.(object); isObj {
					m, ok = map[string]any(ob), true
				}
			}
			if !ok {
				return nil
			}
			o = m[k]
		case int:
			l, ok := o.([]any)
			if !ok || k >= len(l) {
				return nil
			}
			o = l[k]
		}
	}
	return o
}
