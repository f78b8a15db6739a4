package routes

import (
	"net/http"
	"strings"
)

// SecretWildcard names a path wildcard whose value is a credential (a
// connect link's secret: "GET /connect/{secret}"). LoggedPath never shows
// it, so access logs and traces do not hold it.
const SecretWildcard = "secret"

// LoggedPath is r's path as a log line or a trace may hold it, once the mux
// has matched r: each segment that a {secret} wildcard of r.Pattern matched
// reads "{secret}". A request no pattern matched keeps its path.
func LoggedPath(r *http.Request) string {
	pattern := r.Pattern
	if !strings.Contains(pattern, "{"+SecretWildcard) {
		return r.URL.Path
	}
	if _, p, ok := strings.Cut(pattern, " "); ok {
		pattern = p
	}
	if i := strings.IndexByte(pattern, '/'); i > 0 {
		pattern = pattern[i:] // a host before the path
	}
	want := strings.Split(pattern, "/")
	// The mux matches escaped segments: an escaped "/" stays in its segment.
	got := strings.Split(r.URL.EscapedPath(), "/")
	for i, seg := range want {
		if i >= len(got) {
			break
		}
		switch seg {
		case "{" + SecretWildcard + "}":
			got[i] = seg
		case "{" + SecretWildcard + "...}":
			return strings.Join(append(got[:i], seg), "/")
		}
	}
	return strings.Join(got, "/")
}
