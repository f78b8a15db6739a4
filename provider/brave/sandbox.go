package brave

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gtmgate/gtmgate"
)

// sandboxPrefix is the one version the sandbox serves, as Brave serves one.
const sandboxPrefix = "/res/v1"

// SandboxToken is the subscription token the sandbox accepts.
const SandboxToken = "brave-sandbox-token"

// Sandbox is an in-process fake of the Brave Search API: GET
// /res/v1/web/search and /res/v1/news/search with Brave's parameters (q,
// count, offset in pages up to 9, country, search_lang, freshness,
// safesearch), answers shaped like Brave's (a news answer's query carries no
// more_results_available), X-RateLimit-* headers, and Brave's ErrorResponse
// bodies (401 without a valid X-Subscription-Token, 422 VALIDATION for bad
// parameters, country and search_lang codes outside the documented lists
// included). Results come from a small seeded
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
	var e endpoint
	switch {
	case r.Method == http.MethodGet && r.URL.Path == sandboxPrefix+webEndpoint.path:
		corpus, e = webCorpus, webEndpoint
	case r.Method == http.MethodGet && r.URL.Path == sandboxPrefix+newsEndpoint.path:
		corpus, e = newsCorpus, newsEndpoint
	default:
		writeError(w, http.StatusNotFound, "RESOURCE_NOT_FOUND", "Resource not found.")
		return
	}
	q := r.URL.Query()
	count, ok1 := intParam(q.Get("count"), e.maxCount, 1, e.maxCount)
	offset, ok2 := intParam(q.Get("offset"), 0, 0, maxOffset)
	term := strings.TrimSpace(q.Get("q"))
	switch {
	case term == "" || len(term) > 400:
		writeValidation(w, invalidValue("q", term))
		return
	case !ok1:
		writeValidation(w, invalidValue("count", q.Get("count")))
		return
	case !ok2:
		writeValidation(w, invalidValue("offset", q.Get("offset")))
		return
	}
	for _, p := range []struct {
		name    string
		allowed []string
	}{{"country", e.countries}, {"search_lang", e.languages}, {"safesearch", []string{"off", "moderate", "strict"}}} {
		if v, ok := q[p.name]; ok && !slices.Contains(p.allowed, v[0]) {
			writeValidation(w, notInEnum(p.name, v[0], p.allowed))
			return
		}
	}
	hits := match(corpus, term)
	start := min(offset*count, len(hits))
	end := min(start+count, len(hits))
	page := hits[start:end]
	if e.path == newsEndpoint.path {
		// NewsSearchApiResponse's Query has no more_results_available.
		query := map[string]any{"original": term, "spellcheck_off": false}
		writeJSON(w, http.StatusOK, map[string]any{"type": "news", "query": query, "results": render(page, "news_result")})
		return
	}
	query := map[string]any{"original": term, "more_results_available": end < len(hits), "spellcheck_off": false}
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

// fieldError is one entry of a 422 answer's meta.errors, as Brave's request
// validation reports it.
type fieldError struct {
	Type  string   `json:"type"`
	Loc   []string `json:"loc"`
	Msg   string   `json:"msg"`
	Input string   `json:"input"`
}

func invalidValue(param, input string) fieldError {
	return fieldError{Type: "value_error", Loc: []string{"query", param}, Msg: "invalid value", Input: input}
}

// notInEnum is Brave's report of a value outside a parameter's enum:
// "Input should be 'AR', 'AU', … or 'US'".
func notInEnum(param, input string, allowed []string) fieldError {
	quoted := make([]string, len(allowed))
	for i, a := range allowed {
		quoted[i] = "'" + a + "'"
	}
	msg := "Input should be " + strings.Join(quoted[:len(quoted)-1], ", ") + " or " + quoted[len(quoted)-1]
	return fieldError{Type: "enum", Loc: []string{"query", param}, Msg: msg, Input: input}
}

// writeValidation answers 422 VALIDATION with the offending parameter.
func writeValidation(w http.ResponseWriter, fe fieldError) {
	writeErrorMeta(w, http.StatusUnprocessableEntity, "VALIDATION", "Unable to validate request parameter(s)",
		map[string]any{"errors": []fieldError{fe}})
}

func writeError(w http.ResponseWriter, status int, code, detail string) {
	meta := map[string]any{}
	if status == http.StatusTooManyRequests {
		meta = map[string]any{"plan": "Free", "rate_limit": 1, "rate_current": 2, "quota_limit": 2000, "quota_current": 12}
	}
	writeErrorMeta(w, status, code, detail, meta)
}

// writeErrorMeta writes Brave's ErrorResponse body.
func writeErrorMeta(w http.ResponseWriter, status int, code, detail string, meta map[string]any) {
	writeJSON(w, status, map[string]any{"type": "ErrorResponse", "time": time.Now().Unix(),
		"error": map[string]any{"id": fmt.Sprintf("sbx-%d", time.Now().UnixNano()), "status": status, "code": code, "detail": detail, "meta": meta}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
