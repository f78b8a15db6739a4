package content

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"github.com/gtmgate/gtmgate/jsonapi"
)

// searchPageLimit is how many results a search page lists.
const searchPageLimit = 20

// searchPath is where people search this tree, or "" without search.
func (t *Tree) searchPath() string {
	if t.opts.NoSearch {
		return ""
	}
	return t.opts.SearchPath
}

// checkSearchPath refuses a search path that is not clean or that a page or
// resource already uses.
func (t *Tree) checkSearchPath() error {
	sp := t.searchPath()
	if sp == "" {
		return nil
	}
	if clean, ok := CleanPath(sp); !ok || clean != sp {
		return fmt.Errorf("content: search path %q is not clean", sp)
	}
	if _, taken := t.routes[sp]; taken {
		return fmt.Errorf("content: search path %s collides with a page or resource", sp)
	}
	return nil
}

// searchOutcome is what one search request found.
type searchOutcome struct {
	query   string
	results *Results // nil without a query or on a bad one
	problem string   // why the query was refused
}

// serveSearch answers GET SearchPath?q=…[&section=…]: a results page in the
// layout, or markdown for Accept: text/markdown. No q shows the empty form;
// a q the index refuses (over 256 bytes, not UTF-8) is a 400 with the reason.
// Results depend on the query, so nothing is cached.
func (t *Tree) serveSearch(w http.ResponseWriter, r *http.Request) {
	params := r.URL.Query()
	out := searchOutcome{query: strings.TrimSpace(params.Get("q"))}
	status := http.StatusOK
	if out.query != "" {
		res, err := t.index.Search(out.query, params.Get("section"), searchPageLimit)
		switch {
		case errors.Is(err, ErrInvalidQuery):
			status, out.problem = http.StatusBadRequest, strings.TrimPrefix(err.Error(), ErrInvalidQuery.Error()+": ")
		case err != nil:
			jsonapi.LoggerFrom(r.Context()).Error("content: search page", "err", err)
			status, out.problem = http.StatusInternalServerError, "the search failed; try again"
		default:
			out.results = res
		}
	}
	h := w.Header()
	var body []byte
	if prefersMarkdown(r.Header.Get("Accept")) {
		body = []byte(t.searchMarkdown(out))
		h.Set("Content-Type", TypeMarkdown)
	} else {
		var err error
		if body, err = t.searchHTML(out); err != nil {
			jsonapi.LoggerFrom(r.Context()).Error("content: search page", "err", err)
			http.Error(w, "internal error", http.StatusInternalServerError)
			return
		}
		h.Set("Content-Type", TypeHTML)
	}
	h.Set("Content-Signal", t.opts.Signal.String())
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	addVary(h, "Accept")
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// searchHelp says what a query may hold.
const searchHelp = `Words are matched in any form ("pricing" finds "price"); put "a phrase" in quotes; end a word with * to match its beginning (onboard*).`

var searchResultsTemplate = template.Must(template.New("results").Parse(`
{{- if .Problem}}<p><strong>{{.Problem}}.</strong></p><p>{{.Help}}</p>
{{- else if not .Query}}<p>{{.Help}}</p>
{{- else if not .Hits}}<p>No page matches <strong>{{.Query}}</strong>. Try fewer words, or the beginning of a word followed by *.</p><p>{{.Help}}</p>
{{- else}}<p class="meta">{{.Total}} {{if eq .Total 1}}page matches{{else}}pages match{{end}} <strong>{{.Query}}</strong>{{if gt .Total (len .Hits)}}; the first {{len .Hits}} are listed{{end}}.</p>
<ol class="results">{{range .Hits}}
<li><a href="{{.Path}}">{{.Title}}</a><p>{{.Snippet}}</p></li>{{end}}
</ol>{{end}}`))

// searchHit is a Hit whose snippet is HTML: the text escaped, its matches
// in <mark> (markHTML).
type searchHit struct {
	Path, Title string
	Snippet     template.HTML
}

func (t *Tree) searchHTML(out searchOutcome) ([]byte, error) {
	data := struct {
		Query, Problem, Help string
		Total                uint64
		Hits                 []searchHit
	}{Query: out.query, Problem: out.problem, Help: searchHelp}
	if out.results != nil {
		data.Total = out.results.Total
		for _, h := range out.results.Results {
			data.Hits = append(data.Hits, searchHit{Path: h.Path, Title: h.Title, Snippet: markHTML(h.Snippet, h.marks)})
		}
	}
	var frag bytes.Buffer
	if err := searchResultsTemplate.Execute(&frag, data); err != nil {
		return nil, fmt.Errorf("content: search page: %w", err)
	}
	return renderLayout(layoutData{SiteName: t.siteName, Title: "Search", Nav: navFor(t.nav(), ""),
		FooterLinks: t.opts.FooterLinks, Content: template.HTML(frag.String()), SearchPath: t.searchPath(),
		Query: out.query, NoIndex: true})
}

// searchMarkdown lists the results for agents, linking each page's markdown.
func (t *Tree) searchMarkdown(out searchOutcome) string {
	var b strings.Builder
	b.WriteString("# Search\n\n")
	switch {
	case out.problem != "":
		fmt.Fprintf(&b, "%s.\n\n%s\n", out.problem, searchHelp)
	case out.results == nil:
		fmt.Fprintf(&b, "Send q: %s For example %s?q=pricing\n", searchHelp, t.URL(t.searchPath()))
	case len(out.results.Results) == 0:
		fmt.Fprintf(&b, "No page matches %q.\n", out.query)
	default:
		fmt.Fprintf(&b, "%d pages match %q.\n\n", out.results.Total, out.query)
		for i, h := range out.results.Results {
			fmt.Fprintf(&b, "%d. [%s](%s): %s\n", i+1, escapeLinkText(h.Title), t.URL(MarkdownPath(h.Path)), markMarkdown(h.Snippet, h.marks))
		}
	}
	return b.String()
}
