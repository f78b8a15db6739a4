// Package nodetools locates the Node toolchain that scripts/install-node-tools.sh
// installs (Node 22 in .tools/node, the packages of e2e/node) for Go tests
// that drive Node clients such as the MCP conformance suite.
package nodetools

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// InstallCommand is what a developer runs to install the tools.
const InstallCommand = "bash scripts/install-node-tools.sh"

// InstallBrowserCommand is what a developer runs to install the browser.
const InstallBrowserCommand = "bash scripts/install-browser.sh"

// Chromium returns the path of Debian's Chromium, which
// scripts/install-browser.sh installs. When it is missing the test is
// skipped with the install command, or fails when CI=true.
func Chromium(t testing.TB) string {
	t.Helper()
	const bin = "/usr/bin/chromium"
	if _, err := exec.Command(bin, "--version").Output(); err != nil {
		missingTool(t, "Chromium not found at "+bin, InstallBrowserCommand)
	}
	return bin
}

// Root returns the repository root (the directory holding go.mod).
func Root(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("nodetools: cannot locate source file")
	}
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// Node returns the path of the Node 22 binary. When it is missing the test is
// skipped with the install command, or fails when CI=true.
func Node(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(Root(t), ".tools", "node", "bin", "node")
	out, err := exec.Command(bin, "--version").Output()
	if err != nil || !strings.HasPrefix(string(out), "v22.") {
		missing(t, "Node 22 not found at "+bin)
	}
	return bin
}

// Dir returns e2e/node with its node_modules installed.
func Dir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(Root(t), "e2e", "node")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", ".package-lock.json")); err != nil {
		missing(t, "e2e/node packages not installed")
	}
	return dir
}

// Bin returns the path of a package's CLI entry point under e2e/node, e.g.
// Bin(t, "@modelcontextprotocol/conformance", "dist/index.js").
func Bin(t testing.TB, pkg, entry string) string {
	t.Helper()
	p := filepath.Join(Dir(t), "node_modules", filepath.FromSlash(pkg), filepath.FromSlash(entry))
	if _, err := os.Stat(p); err != nil {
		missing(t, pkg+" not installed")
	}
	return p
}

func missing(t testing.TB, what string) { t.Helper(); missingTool(t, what, InstallCommand) }

func missingTool(t testing.TB, what, install string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("nodetools: %s; CI must run: %s", what, install)
	}
	t.Skipf("nodetools: %s; install with: %s", what, install)
}
