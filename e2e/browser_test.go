package e2e

import (
	"os"
	"testing"

	"github.com/gtmgate/gtmgate/internal/nodetools"
)

// TestSiteInBrowser reads the site and the docs of the real binary in
// Chromium with JavaScript off, at desktop and phone widths, light and dark:
// pages render with one heading and the navigation, clicking the navigation
// works, nothing scrolls sideways, and the 404 page offers its way back.
// GTMGATE_SCREENSHOTS=DIR keeps a PNG of every page looked at.
func TestSiteInBrowser(t *testing.T) {
	nodetools.Dir(t) // skip before starting the binary when the tools are missing
	chromium := nodetools.Chromium(t)
	p := start(t, t.TempDir())
	var got struct {
		Checks   int
		Failures []string
	}
	runNodeScript(t, p, "site-browser.mjs", &got, "GTMGATE_SITE_URL="+p.site, "GTMGATE_DOCS_URL="+p.docs,
		"CHROMIUM="+chromium, "SCREENSHOT_DIR="+os.Getenv("GTMGATE_SCREENSHOTS"))
	// 4 contexts × (6 pages × 6 checks + the extra checks): far more than 100.
	if got.Checks < 100 {
		t.Fatalf("only %d checks ran", got.Checks)
	}
	for _, f := range got.Failures {
		t.Error(f)
	}
}
