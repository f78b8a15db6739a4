package content

import (
	"strconv"
	"strings"
)

// qualities parses an Accept or Accept-Encoding header into lower-cased
// values with their q (1 when absent; malformed q counts as 0).
func qualities(header string) map[string]float64 {
	out := map[string]float64{}
	for _, part := range strings.Split(header, ",") {
		fields := strings.Split(part, ";")
		name := strings.ToLower(strings.TrimSpace(fields[0]))
		if name == "" {
			continue
		}
		q := 1.0
		for _, param := range fields[1:] {
			k, v, ok := strings.Cut(strings.TrimSpace(param), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				if err != nil || f < 0 || f > 1 {
					f = 0
				}
				q = f
			}
		}
		if old, seen := out[name]; !seen || q > old {
			out[name] = q
		}
	}
	return out
}

// chooseEncoding picks among the available codings ("br", "gzip") the one
// with the highest q in Accept-Encoding ("*" covers unnamed codings); ties go
// to the order of available. Identity ("") is the fallback, and wins only
// when the client ranks it explicitly above every acceptable coding.
func chooseEncoding(acceptEncoding string, available []string) string {
	if acceptEncoding == "" {
		return ""
	}
	qs := qualities(acceptEncoding)
	best, bestQ := "", qs["identity"]
	for _, c := range available {
		q, ok := qs[c]
		if !ok {
			q = qs["*"]
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
	qs := qualities(accept)
	md, ok := qs["text/markdown"]
	if !ok || md == 0 {
		return false
	}
	html, ok := qs["text/html"]
	if !ok {
		html = max(qs["text/*"], qs["*/*"])
	}
	return md > html || (md == html && !ok)
}

// prefersHTML reports whether Accept ranks text/html above text/markdown; used
// for the 404 body, which is markdown unless a browser asks for a page.
func prefersHTML(accept string) bool {
	qs := qualities(accept)
	html, ok := qs["text/html"]
	return ok && html > 0 && html > qs["text/markdown"]
}
