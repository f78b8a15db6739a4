package content

import (
	"cmp"
	"slices"
	"strings"
)

// nav lists the top-level pages unless their front matter says nav: false,
// grouped by Options.NavGroups when set.
func (t *Tree) nav() []navLink {
	var out []navLink
	for _, p := range t.pages {
		if show, _ := p.Meta.Bool("nav", true); p.Depth() == 1 && show {
			out = append(out, navLink{Link: Link{Title: cmpOr(p.Meta.String("nav_title"), p.Title), Path: p.Path}, Group: t.navGroup(p)})
		}
	}
	if len(t.opts.NavGroups) == 0 {
		return out
	}
	// Groups in their configured order, then the others' in reading order;
	// in a group, by order then title, as the index page lists them.
	rank := map[string]int{}
	for i, g := range t.opts.NavGroups {
		rank[g.Title] = i
	}
	first := map[string]int{}
	for i, l := range out {
		if _, ok := first[l.Group]; !ok {
			first[l.Group] = i
		}
	}
	groupRank := func(g string) int {
		if r, ok := rank[g]; ok {
			return r
		}
		return len(rank) + first[g]
	}
	pageOf := func(l navLink) *Page { return t.byPath[l.Path] }
	slices.SortStableFunc(out, func(a, b navLink) int {
		return cmp.Or(cmp.Compare(groupRank(a.Group), groupRank(b.Group)),
			cmp.Compare(pageOf(a).Order, pageOf(b).Order), cmp.Compare(a.Title, b.Title))
	})
	return out
}

// navGroup is the heading of p in a grouped navigation: its section's
// group, else its section's name; "" when the navigation is not grouped.
func (t *Tree) navGroup(p *Page) string {
	if len(t.opts.NavGroups) == 0 {
		return ""
	}
	for _, g := range t.opts.NavGroups {
		if slices.Contains(g.Sections, p.Section) {
			return g.Title
		}
	}
	if p.Section == "" {
		return "Pages"
	}
	return strings.ToUpper(p.Section[:1]) + strings.ReplaceAll(p.Section[1:], "-", " ")
}
