package brave

import (
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/apispec"
)

// SandboxToken is the subscription token the sandbox accepts.
const SandboxToken = "brave-sandbox-token"

// Sandbox is an in-process fake of the Brave Search API: GET
// /res/v1/web/search and /res/v1/news/search with Brave's parameters (q,
// count, offset in pages up to 9, country, search_lang, freshness,
// safesearch…), answers shaped like Brave's (a news answer's query carries
// no more_results_available, its results no profile), X-RateLimit-* headers,
// and Brave's ErrorResponse bodies: 401 without a valid X-Subscription-Token,
// then 422 VALIDATION for any request Brave's reference does not allow (the
// spec's checks: country and search_lang codes outside the documented
// lists, count or offset out of bounds, unknown parameters), 404 for other
// paths. Results come from a small seeded corpus of go-to-market pages and
// news, matched by query terms. FailNext injects faults behind the checks.
type Sandbox struct {
	gtmgate.ProviderSandbox
	// Spec checks every request and answer against Brave's reference (apispec.json).
	Spec *apispec.Enforcer

	mu       sync.Mutex
	status   int
	fails    int
	requests int
}

// NewSandbox returns a Brave sandbox with one subscription account.
func NewSandbox() *Sandbox {
	s := &Sandbox{}
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+webEndpoint.op.Path, s.searchHandler(webEndpoint, webCorpus))
	mux.HandleFunc("GET "+newsEndpoint.op.Path, s.searchHandler(newsEndpoint, newsCorpus))
	s.Spec = apispec.Enforce(braveSpec, mux, refuse)
	s.ProviderSandbox = gtmgate.ProviderSandbox{
		Provider: Provider, Handler: s, Token: SandboxToken, Spec: s.Spec,
		Accounts: []gtmgate.Account{{ID: "brave-demo", Label: "Brave Search API (demo subscription)"}},
	}
	return s
}

// FailNext makes the next n requests that pass the token and spec checks
// fail with status and Brave's error body for it (429 also carries
// rate-limit details, and X-RateLimit-Remaining says the per-second limit
// was reached: X-RateLimit-Reset has it back in a second).
func (s *Sandbox) FailNext(status, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.status, s.fails = status, n
}

// Requests returns how many requests the sandbox has received.
func (s *Sandbox) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
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

// ServeHTTP checks the subscription token, then hands the request to the
// spec's checks and the search behind them.
func (s *Sandbox) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests++
	s.mu.Unlock()
	w.Header().Set("X-RateLimit-Limit", "1, 15000")
	w.Header().Set("X-RateLimit-Policy", "1;w=1, 15000;w=2592000")
	w.Header().Set("X-RateLimit-Remaining", "1, 14873")
	w.Header().Set("X-RateLimit-Reset", "1, 1419704")
	if r.Header.Get("X-Subscription-Token") != SandboxToken {
		writeError(w, http.StatusUnauthorized, "SUBSCRIPTION_TOKEN_INVALID", "The provided subscription token is invalid.")
		return
	}
	s.Spec.ServeHTTP(&requestWriter{ResponseWriter: w, r: r}, r)
}

// searchHandler answers one endpoint from its corpus. The spec's checks
// have validated the parameters.
func (s *Sandbox) searchHandler(e endpoint, corpus []doc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if status := s.injectedFault(); status != 0 {
			if status == http.StatusTooManyRequests {
				w.Header().Set("X-RateLimit-Remaining", "0, 14873")
			}
			writeError(w, status, faultCode(status), "Injected fault from the sandbox.")
			return
		}
		q := r.URL.Query()
		count, offset := e.defaultCount, 0
		if v := q.Get("count"); v != "" {
			count, _ = strconv.Atoi(v)
		}
		if v := q.Get("offset"); v != "" {
			offset, _ = strconv.Atoi(v)
		}
		term := strings.TrimSpace(q.Get("q"))
		hits := match(corpus, term)
		start := min(offset*count, len(hits))
		end := min(start+count, len(hits))
		page := hits[start:end]
		if e.op.ID == newsSearchOp {
			// NewsSearchApiResponse's Query has no more_results_available.
			query := map[string]any{"original": term, "spellcheck_off": false}
			writeJSON(w, http.StatusOK, map[string]any{"type": "news", "query": query, "results": renderNews(page)})
			return
		}
		query := map[string]any{"original": term, "more_results_available": end < len(hits), "spellcheck_off": false}
		writeJSON(w, http.StatusOK, map[string]any{"type": "search", "query": query,
			"web": map[string]any{"type": "search", "results": renderWeb(page), "family_friendly": true}})
	}
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

// renderWeb renders documents as Brave's SearchResult, with the fields its
// reference marks required.
func renderWeb(docs []doc) []map[string]any {
	out := make([]map[string]any, 0, len(docs))
	for _, d := range docs {
		out = append(out, map[string]any{
			"type": "search_result", "subtype": "generic", "is_live": false,
			"title": d.title, "url": d.url, "description": d.description,
			"is_source_local": false, "is_source_both": false,
			"age": d.age, "page_age": d.pageAge, "language": "en", "family_friendly": true,
			"profile":  map[string]any{"name": d.source, "url": "https://" + d.host, "long_name": d.host},
			"meta_url": metaURL(d),
		})
	}
	return out
}

// renderNews renders documents as Brave's NewsResult, which has no profile:
// the publisher is in meta_url.
func renderNews(docs []doc) []map[string]any {
	out := make([]map[string]any, 0, len(docs))
	for _, d := range docs {
		out = append(out, map[string]any{
			"type": "news_result", "title": d.title, "url": d.url, "description": d.description,
			"age": d.age, "page_age": d.pageAge, "breaking": false, "meta_url": metaURL(d),
		})
	}
	return out
}

func metaURL(d doc) map[string]any {
	return map[string]any{"scheme": "https", "netloc": d.host, "hostname": d.host,
		"favicon": "https://imgs.search.brave.com/favicon/" + d.host,
		"path":    strings.TrimPrefix(d.url, "https://"+d.host)}
}
