package content

import (
	"cmp"
	"fmt"
	"io/fs"
	"maps"
	"net/http"
	"path"
	"slices"
	"strings"
	"time"
)

// Load reads every markdown file of fsys (plus Options.Generated), indexes
// it and prepares every response: small ones are made now, a page's HTML
// and markdown, images and Resource.Build bodies on first request. It fails
// on malformed front matter, a page without a title, or two files mapping
// to one path.
func Load(fsys fs.FS, opts Options) (*Tree, error) {
	opts.BaseURL = strings.TrimSuffix(opts.BaseURL, "/")
	t := &Tree{opts: opts, byPath: map[string]*Page{}, specials: map[string]Special{}, routes: map[string]*route{}, loadedAt: time.Now()}
	files, assets, err := readTree(fsys)
	if err != nil {
		return nil, err
	}
	for name, src := range opts.Generated {
		files[name] = sourceFile{data: src}
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if err := t.addFile(name, files[name]); err != nil {
			return nil, err
		}
	}
	if err := t.addAliases(); err != nil {
		return nil, err
	}
	sortPages(t.pages)
	t.siteName = cmp.Or(opts.SiteName, t.homeMeta("site_name"), t.homeTitle(), "Site")
	if err := t.renderPages(); err != nil {
		return nil, err
	}
	if err := t.addBuiltins(); err != nil {
		return nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(assets)) {
		a := assets[name]
		r := Resource{Path: "/" + name, ContentType: assetTypes[strings.ToLower(path.Ext(name))], Build: a.read, LastModified: a.modTime}
		if strings.HasPrefix(r.ContentType, "image/svg") {
			// An SVG opened on its own is a document that could run script
			// on the tree's origin; it is only ever meant as a picture.
			r.Header = http.Header{"Content-Security-Policy": {"default-src 'none'; style-src 'unsafe-inline'; sandbox"}}
		}
		if err := t.addResource(r); err != nil {
			return nil, err
		}
	}
	if opts.Resources != nil {
		res, err := opts.Resources(t)
		if err != nil {
			return nil, fmt.Errorf("content: generate resources: %w", err)
		}
		for _, r := range res {
			if err := t.addResource(r); err != nil {
				return nil, err
			}
		}
	}
	if !opts.NoSearch {
		t.index = newIndex(t)
	}
	if err := t.checkSearchPath(); err != nil {
		return nil, err
	}
	return t, nil
}

// addFile parses one file into a page, or records an underscore file.
func (t *Tree) addFile(name string, f sourceFile) error {
	fm, body, err := SplitFrontMatter(f.data)
	if err != nil {
		return fmt.Errorf("content: %s: %w", name, err)
	}
	if base := path.Base(name); strings.HasPrefix(base, "_") {
		t.specials[name] = Special{Meta: fm, Body: body}
		return nil
	}
	p, err := newPage(name, fm, body, f.modTime)
	if err != nil {
		return fmt.Errorf("content: %s: %w", name, err)
	}
	if draft, _ := fm.Bool("draft", false); draft && !t.opts.IncludeDrafts {
		return nil
	}
	if prev, dup := t.byPath[p.Path]; dup {
		return fmt.Errorf("content: %s and %s both map to %s", prev.File, name, p.Path)
	}
	t.byPath[p.Path] = p
	t.pages = append(t.pages, p)
	return nil
}

// newPage reads the known front matter fields.
func newPage(name string, fm FrontMatter, body string, modTime time.Time) (*Page, error) {
	p := &Page{File: name, Meta: fm, Body: stripLeadingH1(body), ModTime: modTime,
		Title: fm.String("title"), Description: fm.String("description"), Aliases: fm.List("aliases")}
	if p.Title == "" {
		return nil, fmt.Errorf("front matter needs a title")
	}
	if strings.ContainsAny(fm.String("slug"), "/\\ ") {
		return nil, fmt.Errorf("slug %q must be one path segment", fm.String("slug"))
	}
	p.Path, p.SectionIndex = pathForFile(name, fm.String("slug"))
	if _, ok := CleanPath(p.Path); !ok {
		return nil, fmt.Errorf("file name maps to an unusable URL path %q", p.Path)
	}
	var err error
	if p.Order, err = fm.Int("order"); err != nil {
		return nil, err
	}
	if p.Date, err = fm.Time("date"); err != nil {
		return nil, err
	}
	if p.Updated, err = fm.Time("updated"); err != nil {
		return nil, err
	}
	if _, err = fm.Bool("draft", false); err != nil {
		return nil, err
	}
	p.Section = fm.String("section")
	if p.Section == "" && p.Path != "/" {
		if p.Depth() > 1 || p.SectionIndex {
			p.Section, _, _ = strings.Cut(p.Path[1:], "/")
		}
	}
	return p, nil
}

// addAliases marks "dir.md" pages that have pages under them as section
// indexes and maps each alias path to a redirect.
func (t *Tree) addAliases() error {
	for _, p := range t.pages {
		if p.Depth() > 1 {
			if parent, ok := t.byPath[p.Parent()]; ok && !parent.SectionIndex {
				parent.SectionIndex = true
				if parent.Meta.String("section") == "" {
					parent.Section = strings.TrimPrefix(parent.Path, "/")
					if i := strings.IndexByte(parent.Section, '/'); i >= 0 {
						parent.Section = parent.Section[:i]
					}
				}
			}
		}
	}
	for _, p := range t.pages {
		for _, a := range p.Aliases {
			clean, ok := CleanPath(a)
			if !ok || !strings.HasPrefix(a, "/") {
				return fmt.Errorf("content: %s: alias %q is not a clean absolute path", p.File, a)
			}
			if _, taken := t.byPath[clean]; taken {
				return fmt.Errorf("content: %s: alias %q is a page", p.File, a)
			}
			t.routes[clean] = &route{redirect: p.Path}
		}
	}
	return nil
}

// sortPages orders pages for reading: home, then groups by top-level segment
// (ordered by their top page's order and title), each group's top page first.
func sortPages(pages []*Page) {
	top := map[string]*Page{}
	for _, p := range pages {
		if p.Depth() == 1 {
			top[p.Path[1:]] = p
		}
	}
	group := func(p *Page) string { g, _, _ := strings.Cut(strings.TrimPrefix(p.Path, "/"), "/"); return g }
	groupKey := func(g string) (int, string) {
		if tp, ok := top[g]; ok {
			return tp.Order, tp.Title
		}
		return 0, g
	}
	slices.SortStableFunc(pages, func(a, b *Page) int {
		if a.Path == "/" || b.Path == "/" {
			return boolCmp(b.Path == "/", a.Path == "/")
		}
		ga, gb := group(a), group(b)
		if ga != gb {
			oa, ta := groupKey(ga)
			ob, tb := groupKey(gb)
			return cmp.Or(cmp.Compare(oa, ob), cmp.Compare(ta, tb), cmp.Compare(ga, gb))
		}
		return cmp.Or(cmp.Compare(a.Depth(), b.Depth()), boolCmp(b.SectionIndex, a.SectionIndex),
			cmp.Compare(a.Order, b.Order), b.Date.Compare(a.Date), cmp.Compare(a.Title, b.Title), cmp.Compare(a.Path, b.Path))
	})
}

func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

func (t *Tree) homeMeta(key string) string {
	if h, ok := t.byPath["/"]; ok {
		return h.Meta.String(key)
	}
	return ""
}

func (t *Tree) homeTitle() string {
	if h, ok := t.byPath["/"]; ok {
		return h.Title
	}
	return ""
}

// stripLeadingH1 drops a body's own "# Title" line: the front matter title is
// the page's H1 in both renditions.
//
// The result is the body trimmed of surrounding white space, ending in one
// newline. It shares the source's memory whenever the source has that
// newline right after the text, as files almost always do.
func stripLeadingH1(body string) string {
	trimmed := strings.TrimSpace(body)
	if strings.HasPrefix(trimmed, "# ") {
		_, trimmed, _ = strings.Cut(trimmed, "\n")
	}
	trimmed = strings.TrimSpace(trimmed)
	if trimmed == "" {
		return "\n"
	}
	// trimmed is a substring of body: extend it over the newline after it.
	end := strings.Index(body, trimmed) + len(trimmed)
	if end < len(body) && body[end] == '\n' {
		return body[end-len(trimmed) : end+1]
	}
	return trimmed + "\n"
}
