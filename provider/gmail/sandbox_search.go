package gmail

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// searchTerm is one term of a Gmail query: an operator ("from") or "" for
// free text, its value, and whether it is negated.
type searchTerm struct {
	op, value string
	neg       bool
}

var termPattern = regexp.MustCompile(`(-?)(?:([a-z_]+):)?("[^"]*"|\([^)]*\)|\S+)`)

// parseQuery splits a Gmail query into terms (AND semantics; OR and braces
// are not supported by the sandbox).
func parseQuery(q string) []searchTerm {
	var out []searchTerm
	for _, m := range termPattern.FindAllStringSubmatch(q, -1) {
		v := strings.Trim(m[3], `"()`)
		out = append(out, searchTerm{neg: m[1] == "-", op: strings.ToLower(m[2]), value: strings.ToLower(v)})
	}
	return out
}

// matches reports whether m satisfies every term, with now for newer_than.
func (m *storedMessage) matches(terms []searchTerm, labels map[string]string, now time.Time) bool {
	for _, t := range terms {
		if m.matchTerm(t, labels, now) == t.neg {
			return false
		}
	}
	return true
}

func (m *storedMessage) matchTerm(t searchTerm, labels map[string]string, now time.Time) bool {
	hdr := func(name string) string { return strings.ToLower(headerValue(m.payload.Headers, name)) }
	switch t.op {
	case "from":
		return strings.Contains(hdr("From"), t.value)
	case "to":
		return strings.Contains(hdr("To")+" "+hdr("Cc")+" "+hdr("Bcc"), t.value)
	case "cc":
		return strings.Contains(hdr("Cc"), t.value)
	case "bcc":
		return strings.Contains(hdr("Bcc"), t.value)
	case "subject":
		return strings.Contains(strings.ToLower(m.subject), t.value)
	case "label", "in", "is", "category":
		want := strings.ToUpper(t.value)
		switch {
		case t.op == "in" && want == "ANYWHERE":
			return true
		case t.op == "in" && want == "DRAFTS":
			want = "DRAFT"
		case t.op == "category":
			want = "CATEGORY_" + want
		}
		return slices.ContainsFunc(m.labels, func(id string) bool {
			return id == want || strings.EqualFold(labels[id], t.value)
		})
	case "has":
		return t.value == "attachment" && m.hasAttachment
	case "filename":
		return slices.ContainsFunc(m.filenames, func(f string) bool { return strings.Contains(strings.ToLower(f), t.value) })
	case "after", "before":
		d, err := time.Parse("2006/1/2", t.value)
		if err != nil {
			return false
		}
		if t.op == "after" {
			return !m.date.Before(d)
		}
		return m.date.Before(d)
	case "newer_than", "older_than":
		d, ok := relativeAge(t.value)
		if !ok {
			return false
		}
		if t.op == "newer_than" {
			return m.date.After(now.Add(-d))
		}
		return m.date.Before(now.Add(-d))
	case "":
		return strings.Contains(m.searchText, t.value)
	}
	return false
}

// relativeAge reads 3d, 2m, 1y.
func relativeAge(v string) (time.Duration, bool) {
	if len(v) < 2 {
		return 0, false
	}
	n, err := strconv.Atoi(v[:len(v)-1])
	if err != nil {
		return 0, false
	}
	day := 24 * time.Hour
	switch v[len(v)-1] {
	case 'd':
		return time.Duration(n) * day, true
	case 'm':
		return time.Duration(n) * 30 * day, true
	case 'y':
		return time.Duration(n) * 365 * day, true
	}
	return 0, false
}
