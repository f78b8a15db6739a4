package console

import (
	"cmp"
	"fmt"
	"github.com/gtmgate/gtmgate"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/gtmgate/gtmgate/content"
)

// page is what every template gets.
type page struct {
	Title   string
	Nav     string // the navigation entry to mark current
	Error   string
	Flash   string
	CSRF    string
	Refresh int // seconds between live refreshes (console.js), 0 for none
	Data    any
	// Actor is who is signed in (nil on the sign-in pages).
	Actor *gtmgate.Actor
}

// navEntry is a section of the console's navigation: every section is a
// capability that exists. Tenant sections are open to a tenant's people;
// the rest are the operator's.
type navEntry struct {
	Key, Label, Path string
	Tenant           bool
}

var nav = []navEntry{
	{"overview", "Overview", "/console/", false},
	{"tenants", "Tenants", "/console/tenants", true},
	{"oauthapps", "OAuth apps", "/console/oauth-apps", false},
	{"approvals", "Approvals", "/console/approvals", true},
	{"people", "People", "/console/people", false},
	{"audit", "Audit", "/console/audit", true},
	{"errors", "Errors", "/console/errors", false},
	{"incidents", "Incidents", "/console/incidents", false},
	{"quality", "Quality", "/console/quality", false},
	{"feedback", "Feedback", "/console/feedback", false},
	{"schedules", "Schedules", "/console/schedules", true},
	{"brief", "Daily brief", "/console/brief", false},
	{"health", "Health", "/console/health", false},
}

// navFor is the navigation a's roles open: everything for an operator,
// the tenant sections for a tenant's people.
func navFor(a *gtmgate.Actor) []navEntry {
	if a == nil || a.Operator() != "" {
		return nav
	}
	var out []navEntry
	for _, e := range nav {
		if e.Tenant {
			out = append(out, e)
		}
	}
	return out
}

var funcs = template.FuncMap{
	"nav":    navFor,
	"when":   when,
	"pretty": indent,
	// gateView is what the "gate" partial takes: the gate, the form token
	// and the page a decision returns to ("" for the approvals list).
	"gateView": func(g any, csrf, back string) map[string]any {
		return map[string]any{"g": g, "csrf": csrf, "back": back}
	},
	// markdown renders a brief's markdown as HTML, sanitized as pages are
	// (content.HTML); what fails to render is shown as escaped text.
	"markdown": func(s string) template.HTML {
		b, err := content.HTML([]byte(s))
		if err != nil {
			return template.HTML(template.HTMLEscapeString(s))
		}
		return template.HTML(b)
	},
	"percent": func(v float64) string { return fmt.Sprintf("%.1f%%", v*100) },
	"money":   func(v float64) string { return fmt.Sprintf("%.2f", v) },
	"ms":      func(v float64) string { return fmt.Sprintf("%.1f ms", v) },
	"join":    joinList,
	"split":   func(s string) []string { return strings.Split(s, "|") },
	// tokenKey says an audit key is a tenant token's, which has an agent page.
	"tokenKey": func(v any) bool {
		s, _ := v.(string)
		return strings.HasPrefix(s, "tok_")
	},
}

// when shows an API time (RFC 3339 text) to the second, "—" for none.
func when(v any) string {
	s, _ := v.(string)
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC().Format("2006-01-02 15:04:05Z")
	}
	return cmp.Or(s, "—")
}

// joinList joins a decoded JSON list's items with sep.
func joinList(v any, sep string) string {
	var parts []string
	if l, ok := v.([]any); ok {
		for _, x := range l {
			parts = append(parts, fmt.Sprint(x))
		}
	}
	return strings.Join(parts, sep)
}

// pageTemplate returns one page's template, parsed with the layout and
// partials on its first use: parsed at start, every page's template (each
// with its own copy of the layout) was about 6.5 MB of an idle gtmgate's
// heap, most of it for pages nobody opens. TestTemplatesParse parses them
// all, so a broken template still fails the tests, not an operator.
type pageTemplate func() (*template.Template, error)

// parseTemplates lists the pages, each parsed with the layout on first use.
func parseTemplates() (map[string]pageTemplate, error) {
	names, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		return nil, err
	}
	out := map[string]pageTemplate{}
	for _, n := range names {
		base := strings.TrimSuffix(path.Base(n), ".html")
		if base == "layout" || strings.HasPrefix(base, "_") {
			continue // the layout and partials ("_gate") go with every page
		}
		out[base] = sync.OnceValues(func() (*template.Template, error) {
			t, err := template.New("layout.html").Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/_*.html", n)
			if err != nil {
				return nil, fmt.Errorf("console: template %s: %w", base, err)
			}
			return t, nil
		})
	}
	return out, nil
}

func (c *Console) render(w http.ResponseWriter, r *http.Request, status int, name string, p *page) {
	if s := sessionOf(r); s != nil {
		p.CSRF = s.csrf
		p.Actor = s.actor
		if p.Flash == "" {
			p.Flash = s.flash
		}
	}
	t, err := c.pages[name]()
	if err != nil {
		c.opts.Logger.Error("console: render "+name, "error", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	if err := t.Execute(w, p); err != nil {
		c.opts.Logger.Error("console: render "+name, "error", err)
	}
}
