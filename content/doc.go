// Package content is the content engine behind the site and the docs host: it
// loads a tree of markdown files with front matter, renders every page once to
// HTML and markdown (with gzip and brotli variants), indexes it for search and
// serves it from memory.
//
// # Path mapping
//
// A file's URL path is its path in the tree without the ".md" extension:
//
//	index.md            → /
//	about.md            → /about
//	insights/why-x.md   → /insights/why-x
//	insights/index.md   → /insights   (section index)
//	insights.md         → /insights   (section index, same meaning)
//
// A directory's index.md and a sibling file of the directory's name are the
// same page; having both is a load error. Front matter "slug" replaces the last
// path segment. Every page is also served as markdown at its path plus ".md"
// ("/" is served as "/index.md"). Files and directories whose name starts with
// "_" or "." are not pages: "_llms.md" holds curated prose for llms.txt (see
// Tree.Special). Drafts are skipped unless Options.IncludeDrafts is set.
//
// # Sections
//
// A page's section is its front matter "section", else the first segment of its
// path ("" for top-level pages). A section index page lists the pages of its
// section after its own body, in both HTML and markdown, unless its front matter
// says "list: false".
//
// # Serving
//
// Nothing is read from the file system per request: Tree.ServeHTTP answers
// from maps built at load. Bodies carry a strong ETag (a hash of the exact
// bytes of each encoding), Last-Modified (front matter updated, else date, else
// file mtime), Cache-Control and Vary: Accept, Accept-Encoding.
package content
