package brave

import (
	"strings"

	"github.com/gtmgate/gtmgate/provider/apispec"
)

// endpoint is one Brave search endpoint as its API reference describes it,
// read from the spec (apispec.json).
type endpoint struct {
	op *apispec.Operation
	// path follows /res/{version}.
	path string
	// maxCount and maxOffset are Brave's bounds on count and offset (pages).
	maxCount, maxOffset int
	// defaultCount is what Brave returns when count is not sent.
	defaultCount int
	// safeSearch is Brave's default for the safesearch parameter, which
	// differs between endpoints.
	safeSearch string
	// The codes Brave documents for country, search_lang and safesearch.
	// Brave refuses anything else with 422 VALIDATION: lower-case country
	// codes, "uk" for Britain, and countries outside the list ("SG", "VN")
	// included.
	countries, languages, safeSearches []string
}

// webEndpoint follows api-dashboard.search.brave.com/api-reference/web/search/get.
var webEndpoint = newEndpoint(webSearchOp)

// newsEndpoint follows api-dashboard.search.brave.com/api-reference/news/news_search/get.
var newsEndpoint = newEndpoint(newsSearchOp)

func newEndpoint(id string) endpoint {
	op := specOperation(id)
	path, ok := strings.CutPrefix(op.Path, "/res/"+braveSpec.Version)
	if !ok {
		panic("brave: apispec.json: " + id + " is not under /res/" + braveSpec.Version)
	}
	e := endpoint{op: op, path: path,
		countries:    specParam(op, "country").Enum,
		languages:    specParam(op, "search_lang").Enum,
		safeSearches: specParam(op, "safesearch").Enum}
	_, e.maxCount = integerBounds(specParam(op, "count"))
	_, e.maxOffset = integerBounds(specParam(op, "offset"))
	specDefault(op, "count", &e.defaultCount)
	specDefault(op, "safesearch", &e.safeSearch)
	return e
}

// pattern is a spec parameter's pattern anchored, as JSON Schema wants it.
func (e endpoint) pattern(param string) string {
	return "^(?:" + specParam(e.op, param).Pattern + ")$"
}

func enum(values []string) []any {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = v
	}
	return out
}
