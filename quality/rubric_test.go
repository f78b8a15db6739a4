package quality

import (
	"os"
	"strings"
	"testing"
)

// The docs' Quality page shows the rubric the judges get, verbatim.
func TestDocsShowTheRubric(t *testing.T) {
	page, err := os.ReadFile("../content/docstree/quality.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(page), "<!-- rubric:begin -->\n~~~markdown\n")
	shown, _, ok2 := strings.Cut(rest, "~~~\n<!-- rubric:end -->")
	if !ok || !ok2 {
		t.Fatal("quality.md has no rubric block between <!-- rubric:begin --> and <!-- rubric:end -->")
	}
	if shown != Rubric {
		t.Fatal("quality.md shows a rubric that differs from quality/rubric/" + RubricVersion + ".md; copy the file into the block")
	}
	if !strings.Contains(Rubric, "version "+RubricVersion) {
		t.Fatalf("the rubric does not name its version %s", RubricVersion)
	}
}
