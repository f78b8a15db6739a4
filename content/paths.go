package content

import (
	"net/url"
	"path"
	"strings"
	"unicode/utf8"
)

// MaxPathLen is the longest request path (escaped form) the engine looks up.
const MaxPathLen = 512

// pathForFile maps a tree file name ("insights/why-x.md") to its URL path
// ("/insights/why-x"), applying the section index rule and a slug override.
// The second result is true for section index pages.
func pathForFile(name, slug string) (string, bool) {
	p := strings.TrimSuffix(name, ".md")
	index := false
	switch {
	case p == "index":
		return "/", false
	case strings.HasSuffix(p, "/index"):
		p, index = strings.TrimSuffix(p, "/index"), true
	}
	if slug != "" && !index {
		if dir := path.Dir(p); dir != "." {
			p = dir + "/" + slug
		} else {
			p = slug
		}
	}
	return "/" + p, index
}

// MarkdownPath returns the markdown URL path of a page path: "/about" →
// "/about.md", "/" → "/index.md".
func MarkdownPath(pagePath string) string {
	if pagePath == "/" {
		return "/index.md"
	}
	return pagePath + ".md"
}

// CleanPath validates an escaped request path (r.URL.EscapedPath()) and returns
// the lookup key. It rejects what could name something outside the in-memory
// index or be read two ways: over MaxPathLen, encoded "/", "\" or NUL, invalid
// escapes or UTF-8, control characters, backslashes, "." and ".." segments and
// empty segments. A trailing slash is dropped ("/about/" → "/about").
func CleanPath(escaped string) (string, bool) {
	if escaped == "" {
		escaped = "/"
	}
	if len(escaped) > MaxPathLen || escaped[0] != '/' {
		return "", false
	}
	lower := strings.ToLower(escaped)
	for _, bad := range []string{"%2f", "%5c", "%00"} {
		if strings.Contains(lower, bad) {
			return "", false
		}
	}
	p, err := url.PathUnescape(escaped)
	if err != nil || !utf8.ValidString(p) {
		return "", false
	}
	for _, r := range p {
		if r < 0x20 || r == 0x7f || r == '\\' {
			return "", false
		}
	}
	if len(p) > 1 {
		p = strings.TrimSuffix(p, "/")
	}
	if p == "/" {
		return p, true
	}
	for rest := p[1:]; ; {
		seg, more, found := strings.Cut(rest, "/")
		if seg == "" || seg == "." || seg == ".." {
			return "", false
		}
		if !found {
			return p, true
		}
		rest = more
	}
}

// normalizePageRef turns what a caller may use to name a page — "/about",
// "about", "/about.md", "/index.md", "https://host/about" — into a page path.
// Unknown or unsafe references give "".
func normalizePageRef(base, ref string) string {
	ref = strings.TrimSpace(ref)
	if base != "" && strings.HasPrefix(ref, base) {
		ref = ref[len(base):]
	} else if u, err := url.Parse(ref); err == nil && u.Scheme != "" {
		ref = u.EscapedPath()
	}
	if i := strings.IndexAny(ref, "?#"); i >= 0 {
		ref = ref[:i]
	}
	if !strings.HasPrefix(ref, "/") {
		ref = "/" + ref
	}
	p, ok := CleanPath(ref)
	if !ok {
		return ""
	}
	if p == "/index.md" || p == "/index" {
		return "/"
	}
	return strings.TrimSuffix(p, ".md")
}
