package brave

import (
	"net/url"
	"regexp"
	"strconv"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
)

// properties are the input properties of the search tool for endpoint e:
// its page size bound, its safesearch default (in the description: the
// registry's portable schema subset has no "default"), and the country,
// language, safesearch and freshness values its reference documents, all
// read from the spec.
//
// limit and cursor are declared here rather than by marking the action List:
// the registry's list schema reuses one additionalProperties schema twice and
// fails to resolve, and search has no use for the generic filter anyway.
func properties(e endpoint) map[string]*jsonschema.Schema {
	maxCount := e.maxCount
	return map[string]*jsonschema.Schema{
		"limit":       {Type: "integer", Minimum: jsonschema.Ptr(1.0), Maximum: jsonschema.Ptr(float64(maxCount))},
		"cursor":      {Type: "string"},
		"query":       {Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(400)},
		"country":     {Type: "string", Enum: enum(e.countries)},
		"search_lang": {Type: "string", Enum: enum(e.languages)},
		"freshness": {Type: "string", Pattern: e.pattern("freshness"),
			Description: "pd, pw, pm, py (past day to year) or YYYY-MM-DDtoYYYY-MM-DD."},
		"safesearch": {Type: "string", Enum: enum(e.safeSearches), Description: "Default " + e.safeSearch + "."},
	}
}

// input is the decoded tool input.
type input struct {
	Query      string `json:"query"`
	Country    string `json:"country"`
	SearchLang string `json:"search_lang"`
	Freshness  string `json:"freshness"`
	SafeSearch string `json:"safesearch"`
	Limit      int    `json:"limit"`
	Cursor     string `json:"cursor"`
}

// searchParams is one Brave search request's query string.
type searchParams struct {
	input
	count, offset int
	// maxOffset is the endpoint's bound on offset.
	maxOffset int
}

var cursorPattern = regexp.MustCompile(`^[0-9]{1,2}$`)

// newParams reads the call into Brave parameters for endpoint e; the cursor
// is the page offset Brave counts in, 0 to its maxOffset.
func newParams(call *gtmgate.Call, e endpoint) (*searchParams, error) {
	var in input
	if err := call.Bind(&in); err != nil {
		return nil, err
	}
	p := &searchParams{input: in, count: e.maxCount, maxOffset: e.maxOffset}
	if in.Limit > 0 {
		p.count = min(in.Limit, e.maxCount)
	}
	if in.Cursor != "" {
		p.offset, _ = strconv.Atoi(in.Cursor)
		if !cursorPattern.MatchString(in.Cursor) || p.offset > e.maxOffset {
			return nil, gtmgate.Errorf(gtmgate.EValidation, "cursor %q is not a next_cursor of this tool", in.Cursor)
		}
	}
	return p, nil
}

func (p *searchParams) query() url.Values {
	q := url.Values{"q": {p.Query}, "count": {strconv.Itoa(p.count)}}
	if p.offset > 0 {
		q.Set("offset", strconv.Itoa(p.offset))
	}
	set := func(k, v string) {
		if v != "" {
			q.Set(k, v)
		}
	}
	set("country", p.Country)
	set("search_lang", p.SearchLang)
	set("freshness", p.Freshness)
	set("safesearch", p.SafeSearch)
	return q
}

// nextCursor returns the next page's offset, or "" when there is no sign of
// more results (more is false) or the offset limit is reached.
func (p *searchParams) nextCursor(more bool) string {
	if !more || p.offset >= p.maxOffset {
		return ""
	}
	return strconv.Itoa(p.offset + 1)
}
