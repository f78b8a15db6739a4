package content

import (
	"strconv"
	"strings"
)

// quality returns the q of name in an Accept or Accept-Encoding header
// (names compared case-insensitively; q is 1 when absent, a malformed q
// counts as 0; the highest q wins when name is listed twice) and whether
// name is listed at all. It scans the header in place: negotiation runs on
// every request, and building a map of the header per request cost more
// than serving the body.
func quality(header, name string) (q float64, listed bool) {
	for rest := header; rest != ""; {
		var part string
		part, rest, _ = strings.Cut(rest, ",")
		value, params, _ := strings.Cut(part, ";")
		if !strings.EqualFold(strings.TrimSpace(value), name) {
			continue
		}
		pq := 1.0
		for params != "" {
			var param string
			param, params, _ = strings.Cut(params, ";")
			k, v, ok := strings.Cut(strings.TrimSpace(param), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				if err != nil || f < 0 || f > 1 {
					f = 0
				}
				pq = f
			}
		}
		if !listed || pq > q {
			q, listed = pq, true
		}
	}
	return q, listed
}

// ChooseEncoding picks among the available codings ("br", "gzip") the one
// with the highest q in Accept-Encoding ("*" covers unnamed codings); ties go
// to the order of available. Identity ("") is the fallback, and wins only
// when the client ranks it explicitly above every acceptable coding.
func ChooseEncoding(acceptEncoding string, available []string) string {
	if acceptEncoding == "" {
		return ""
	}
	best, bestQ := "", 0.0
	if q, ok := quality(acceptEncoding, "identity"); ok {
		bestQ = q
	}
	for _, c := range available {
		q, ok := quality(acceptEncoding, c)
		if !ok {
			q, _ = quality(acceptEncoding, "*")
		}
		if q > 0 && q > bestQ {
			best, bestQ = c, q
		}
	}
	return best
}

// prefersMarkdown reports whether Accept ranks text/markdown above text/html.
// Browsers send text/html first, agents that want markdown say so; a missing
// Accept header or */* gets HTML.
func prefersMarkdown(accept string) bool {
	if accept == "" {
		return false
	}
	md, ok := quality(accept, "text/markdown")
	if !ok || md == 0 {
		return false
	}
	html, ok := quality(accept, "text/html")
	if !ok {
		textAny, _ := quality(accept, "text/*")
		anyAny, _ := quality(accept, "*/*")
		html = max(textAny, anyAny)
	}
	return md > html || (md == html && !ok)
}

// prefersHTML reports whether Accept ranks text/html above text/markdown; used
// for the 404 body, which is markdown unless a browser asks for a page.
func prefersHTML(accept string) bool {
	html, ok := quality(accept, "text/html")
	md, _ := quality(accept, "text/markdown")
	return ok && html > 0 && html > md
}
