package console

import "testing"

// TestTemplatesParse parses every page's template, which the console
// otherwise parses only when the page is first opened.
func TestTemplatesParse(t *testing.T) {
	pages, err := parseTemplates()
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) == 0 {
		t.Fatal("no console pages")
	}
	for name, page := range pages {
		if _, err := page(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
