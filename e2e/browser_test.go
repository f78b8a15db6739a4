package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/internal/nodetools"
)

// TestSiteInBrowser reads the site and the docs of the real binary in
// Chromium with JavaScript off, at desktop and phone widths, light and dark:
// pages render with one heading and the navigation, clicking the navigation
// works, nothing scrolls sideways, and the 404 page offers its way back.
// GTMGATE_SCREENSHOTS=DIR keeps a PNG of every page looked at.
func TestSiteInBrowser(t *testing.T) {
	node := nodetools.Node(t)
	dir := nodetools.Dir(t)
	chromium := nodetools.Chromium(t)
	p := start(t, t.TempDir())
	shots := os.Getenv("GTMGATE_SCREENSHOTS")
	cmd := exec.Command(node, filepath.Join(dir, "site-browser.mjs"))
	cmd.Dir = dir
	cmd.Env = append(cmd.Environ(), "GTMGATE_SITE_URL="+p.site, "GTMGATE_DOCS_URL="+p.docs,
		"CHROMIUM="+chromium, "SCREENSHOT_DIR="+shots)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("site-browser.mjs: %v\n%s", err, out)
	}
	var got struct {
		Checks   int
		Failures []string
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &got); err != nil {
		t.Fatalf("summary: %v\n%s", err, out)
	}
	// 4 contexts × (6 pages × 6 checks + the extra checks): far more than 100.
	if got.Checks < 100 {
		t.Fatalf("only %d checks ran\n%s", got.Checks, out)
	}
	for _, f := range got.Failures {
		t.Error(f)
	}
}
