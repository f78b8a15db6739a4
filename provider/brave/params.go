package brave

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
)

// Brave's documented bounds: web count ≤ 20, news count ≤ 50, offset (in pages) ≤ 9.
const (
	maxWebCount  = 20
	maxNewsCount = 50
	maxOffset    = 9
)

var freshnessPattern = `^(pd|pw|pm|py|\d{4}-\d{2}-\d{2}to\d{4}-\d{2}-\d{2})$`

// properties are the input properties of a search tool whose pages hold at
// most maxCount results.
//
// limit and cursor are declared here rather than by marking the action List:
// the registry's list schema reuses one additionalProperties schema twice and
// fails to resolve, and search has no use for the generic filter anyway.
func properties(maxCount int) map[string]*jsonschema.Schema {
	return map[string]*jsonschema.Schema{
		"limit": {Type: "integer", Minimum: jsonschema.Ptr(1.0), Maximum: jsonschema.Ptr(float64(maxCount)),
			Description: fmt.Sprintf("Results per page (default %d, max %d).", maxCount, maxCount)},
		"cursor": {Type: "string", Description: "Opaque cursor from a previous page's next_cursor."},
		"query": {Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(400),
			Description: "Search terms (at most 400 characters, 50 words). Operators such as site: and quotes work."},
		"country": {Type: "string", Pattern: `^[A-Za-z]{2}$`,
			Description: "Two-letter country code to localise results, for example US, DE."},
		"search_lang": {Type: "string", Pattern: `^[a-z]{2}(-[a-z]+)?$`,
			Description: "Language of the results, for example en, de, pt-br."},
		"freshness": {Type: "string", Pattern: freshnessPattern,
			Description: "Age limit: pd (24 h), pw (7 days), pm (31 days), py (365 days) or YYYY-MM-DDtoYYYY-MM-DD."},
		"safesearch": {Type: "string", Enum: []any{"off", "moderate", "strict"},
			Description: "Adult content filter (default moderate)."},
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
}

var cursorPattern = regexp.MustCompile(`^[0-9]$`)

// newParams reads the call into Brave parameters; the cursor is the page
// offset Brave counts in, 0 to 9.
func newParams(call *gtmgate.Call, maxCount int) (*searchParams, error) {
	var in input
	if err := call.Bind(&in); err != nil {
		return nil, err
	}
	p := &searchParams{input: in, count: maxCount}
	if in.Limit > 0 {
		p.count = min(in.Limit, maxCount)
	}
	if in.Cursor != "" {
		if !cursorPattern.MatchString(in.Cursor) {
			return nil, gtmgate.Errorf(gtmgate.EValidation, "cursor %q is not a next_cursor of this tool", in.Cursor)
		}
		p.offset, _ = strconv.Atoi(in.Cursor)
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

// nextCursor returns the next page's offset, or "" when Brave has no more
// results or the offset limit is reached.
func (p *searchParams) nextCursor(more bool) string {
	if !more || p.offset >= maxOffset {
		return ""
	}
	return strconv.Itoa(p.offset + 1)
}
