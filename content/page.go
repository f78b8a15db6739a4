package content

import (
	"strings"
	"time"
)

// Page is one loaded document of a tree.
type Page struct {
	// Path is the URL path: "/", "/about", "/insights/why-x".
	Path string
	// File is the file name in the tree ("" for generated pages added at load).
	File        string
	Title       string
	Description string
	// Section is front matter "section", else the first path segment.
	Section string
	// Order sorts pages within a section and in navigation (then by title).
	Order int
	// Date is when the page was first published; Updated when last changed.
	Date, Updated time.Time
	// ModTime is the file's modification time (zero for embedded files).
	ModTime time.Time
	// SectionIndex is true for "dir/index.md" and "dir.md" pages.
	SectionIndex bool
	Aliases      []string
	// Meta is the whole front matter, custom fields included.
	Meta FrontMatter
	// Body is the markdown source after the front matter.
	Body string
	// Text is the page's plain text, used by search.
	Text string
	// sectionList is the markdown list of a section index's pages, linking
	// their markdown renditions ("" on other pages).
	sectionList string
}

// Markdown returns the served markdown: the title as H1 then the body (and,
// on a section index, the list of the section's pages). It is made on each
// call, so a page holds its source once.
func (p *Page) Markdown() []byte { return []byte(p.markdown()) }

func (p *Page) markdown() string { return "# " + p.Title + "\n\n" + p.Body + p.sectionList }

// markdownLen is len(p.Markdown()) without making it.
func (p *Page) markdownLen() int {
	return len("# \n\n") + len(p.Title) + len(p.Body) + len(p.sectionList)
}

// MarkdownPath returns the path of the page's markdown rendition.
func (p *Page) MarkdownPath() string { return MarkdownPath(p.Path) }

// LastModified returns Updated, else Date, else ModTime.
func (p *Page) LastModified() time.Time {
	switch {
	case !p.Updated.IsZero():
		return p.Updated
	case !p.Date.IsZero():
		return p.Date
	}
	return p.ModTime
}

// Depth is the number of path segments: 0 for "/", 1 for "/about".
func (p *Page) Depth() int {
	if p.Path == "/" {
		return 0
	}
	return strings.Count(p.Path, "/")
}

// Parent returns the path of the directory holding the page ("/" for
// top-level pages, "/insights" for "/insights/why-x").
func (p *Page) Parent() string {
	i := strings.LastIndexByte(p.Path, '/')
	if i <= 0 {
		return "/"
	}
	return p.Path[:i]
}

// tokenEstimate estimates the LLM tokens of a markdown body as bytes/4 rounded
// up: close to what BPE tokenizers give for English prose and markdown, and
// cheap and deterministic, which matters more for a budget hint than accuracy.
func tokenEstimate(b []byte) int { return (len(b) + 3) / 4 }
