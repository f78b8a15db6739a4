package brave

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gtmgate/gtmgate"
)

// SandboxToken is the subscription token the sandbox accepts.
const SandboxToken = "brave-sandbox-token"

// Sandbox is an in-process fake of the Brave Search API: GET
// /res/v1/web/search and /res/v1/news/search with Brave's parameters (q,
// count, offset in pages up to 9, country, search_lang, freshness,
// safesearch), answers shaped like Brave's, X-RateLimit-* headers, and
// Brave's ErrorResponse bodies (401 without a valid X-Subscription-Token,
// 422 VALIDATION for bad parameters). Results come from a small seeded
// corpus of go-to-market pages and news, matched by query terms. FailNext
// injects faults.
type Sandbox struct {
	gtmgate.ProviderSandbox
	mu     sync.Mutex
	status int
	fails  int
}

// NewSandbox returns a Brave sandbox with one subscription account.
func NewSandbox() *Sandbox {
	s := &Sandbox{}
	s.ProviderSandbox = gtmgate.ProviderSandbox{
		Provider: Provider, Handler: s, Token: SandboxToken,
		Accounts: []gtmgate.Account{{ID: "brave-demo", Label: "Brave Search API (demo subscription)"}},
	}
	return s
}

// FailNext makes the next n requests fail with status and Brave's error body
// for it (429 also carries rate-limit headers).
func (s *Sandbox) FailNext(status, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.status, s.fails = status, n
}

func (s *Sandbox) injectedFault() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fails <= 0 {
		return 0
	}
	s.fails--
	return s.status
}

// ServeHTTP answers one Brave API request.
func (s *Sandbox) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-RateLimit-Limit", "1, 15000")
	w.Header().Set("X-RateLimit-Policy", "1;w=1, 15000;w=2592000")
	w.Header().Set("X-RateLimit-Remaining", "1, 14873")
	w.Header().Set("X-RateLimit-Reset", "1, 1419704")
	if status := s.injectedFault(); status != 0 {
		writeError(w, status, faultCode(status), "Injected fault from the sandbox.")
		return
	}
	if r.Header.Get("X-Subscription-Token") != SandboxToken {
		writeError(w, http.StatusUnauthorized, "SUBSCRIPTION_TOKEN_INVALID", "The provided subscription token is invalid.")
		return
	}
	var corpus []doc
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/res/v1/web/search":
		corpus = webCorpus
	case r.Method == http.MethodGet && r.URL.Path == "/res/v1/news/search":
		corpus = newsCorpus
	default:
		writeError(w, http.StatusNotFound, "RESOURCE_NOT_FOUND", "Resource not found.")
		return
	}
	q := r.URL.Query()
	maxCount := maxWebCount
	if strings.Contains(r.URL.Path, "/news/") {
		maxCount = maxNewsCount
	}
	count, ok1 := intParam(q.Get("count"), maxCount, 1, maxCount)
	offset, ok2 := intParam(q.Get("offset"), 0, 0, maxOffset)
	term := strings.TrimSpace(q.Get("q"))
	switch {
	case term == "" || len(term) > 400:
		writeError(w, http.StatusUnprocessableEntity, "VALIDATION", "Unable to validate request parameter(s).", "q")
		return
	case !ok1:
		writeError(w, http.StatusUnprocessableEntity, "VALIDATION", "Unable to validate request parameter(s).", "count")
		return
	case !ok2:
		writeError(w, http.StatusUnprocessableEntity, "VALIDATION", "Unable to validate request parameter(s).", "offset")
		return
	}
	hits := match(corpus, term)
	start := min(offset*count, len(hits))
	end := min(start+count, len(hits))
	page := hits[start:end]
	more := end < len(hits)
	query := map[string]any{"original": term, "more_results_available": more, "spellcheck_off": false}
	if strings.Contains(r.URL.Path, "/news/") {
		writeJSON(w, http.StatusOK, map[string]any{"type": "news", "query": query, "results": render(page, "news_result")})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"type": "search", "query": query,
		"web": map[string]any{"type": "search", "results": render(page, "search_result"), "family_friendly": true}})
}

func intParam(v string, def, lo, hi int) (int, bool) {
	if v == "" {
		return def, true
	}
	n, err := strconv.Atoi(v)
	return n, err == nil && n >= lo && n <= hi
}

// match returns the documents containing any query term, best first.
func match(corpus []doc, query string) []doc {
	terms := strings.Fields(strings.ToLower(query))
	type scored struct {
		d     doc
		score int
	}
	var hits []scored
	for _, d := range corpus {
		text := strings.ToLower(d.title + " " + d.description + " " + d.host)
		score := 0
		for _, t := range terms {
			if len(t) > 1 && strings.Contains(text, strings.Trim(t, `"'`)) {
				score++
			}
		}
		if score > 0 {
			hits = append(hits, scored{d, score})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].score > hits[j].score })
	out := make([]doc, len(hits))
	for i, h := range hits {
		out[i] = h.d
	}
	return out
}

func render(docs []doc, typ string) []map[string]any {
	out := make([]map[string]any, 0, len(docs))
	for _, d := range docs {
		out = append(out, map[string]any{
			"type": typ, "title": d.title, "url": d.url, "description": d.description,
			"age": d.age, "page_age": d.pageAge, "language": "en", "family_friendly": true,
			"profile":  map[string]any{"name": d.source, "url": "https://" + d.host, "long_name": d.host},
			"meta_url": map[string]any{"scheme": "https", "netloc": d.host, "hostname": d.host, "path": strings.TrimPrefix(d.url, "https://"+d.host)},
		})
	}
	return out
}

func faultCode(status int) string {
	switch status {
	case http.StatusTooManyRequests:
		return "RATE_LIMITED"
	case http.StatusUnauthorized:
		return "SUBSCRIPTION_TOKEN_INVALID"
	case http.StatusUnprocessableEntity, http.StatusBadRequest:
		return "VALIDATION"
	default:
		return "INTERNAL_SERVER_ERROR"
	}
}

func writeError(w http.ResponseWriter, status int, code, detail string, params ...string) {
	meta := map[string]any{}
	if len(params) > 0 {
		meta["errors"] = []map[string]any{{"type": "value_error", "loc": []string{"query", params[0]}, "msg": "invalid value"}}
	}
	if status == http.StatusTooManyRequests {
		meta = map[string]any{"plan": "Free", "rate_limit": 1, "rate_current": 2, "quota_limit": 2000, "quota_current": 12}
	}
	writeJSON(w, status, map[string]any{"type": "ErrorResponse", "time": time.Now().Unix(),
		"error": map[string]any{"id": fmt.Sprintf("sbx-%d", time.Now().UnixNano()), "status": status, "code": code, "detail": detail, "meta": meta}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
