package content

import (
	"embed"
	"io/fs"
)

// The default trees compiled into the binary. The "all:" prefix keeps
// underscore files such as _llms.md.
var (
	//go:embed all:sitetree
	siteTree embed.FS
	//go:embed all:docstree
	docsTree embed.FS
)

// SiteFS returns the embedded website tree (content/sitetree).
func SiteFS() fs.FS { return sub(siteTree, "sitetree") }

// DocsFS returns the embedded documentation tree (content/docstree).
func DocsFS() fs.FS { return sub(docsTree, "docstree") }

func sub(f embed.FS, dir string) fs.FS {
	s, err := fs.Sub(f, dir)
	if err != nil {
		panic(err) // dir is a compile-time constant embedded above
	}
	return s
}
