package content

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
)

// Search limits.
const (
	MaxQueryLen   = 256
	DefaultLimit  = 10
	MaxLimit      = 50
	snippetLength = 200
)

// ErrInvalidQuery is returned (wrapped, with the reason) for an empty or
// overlong query; callers map it to VALIDATION_ERROR.
var ErrInvalidQuery = errors.New("invalid query")

// Index is an in-memory full-text index of a tree's pages (English analyzer:
// stop words, possessives, stemming). It is a scorch index without a path:
// its segments are byte slices the garbage collector does not scan, where
// bleve's older upsidedown memory store held a treap of small objects that
// made up most of the process's live heap (and searches ran 3x slower).
//
// The index is built by the first search, not with the tree: analysing every
// page was most of a large tree's load time, and a process whose clients
// never search never holds it.
type Index struct {
	tree *Tree
	once sync.Once
	idx  bleve.Index
	err  error
}

// Hit is one search result. Snippet is plain text (not HTML); Highlights
// are the matched terms in it as [start, end) offsets in UTF-16 code units,
// the units JavaScript's String.prototype.slice counts, so a browser marks
// them without converting. They are sorted, and neither overlap nor touch.
type Hit struct {
	Title      string   `json:"title"`
	URL        string   `json:"url"`
	Path       string   `json:"path"`
	Snippet    string   `json:"snippet"`
	Highlights [][2]int `json:"highlights"`
	Score      float64  `json:"score"`
	Section    string   `json:"section"`
	// marks are Highlights as byte offsets into Snippet, for the pages
	// rendered here.
	marks [][2]int
}

// Results is a ranked page of hits.
type Results struct {
	Query   string `json:"query"`
	Total   uint64 `json:"total"`
	Results []Hit  `json:"results"`
}

type indexedPage struct {
	Title       string `json:"title"`
	Description string `json:"description"`
	Body        string `json:"body"`
	Section     string `json:"section"`
}

func newIndex(t *Tree) *Index { return &Index{tree: t} }

// open builds the index on first use; later calls return what it built.
func (ix *Index) open() (bleve.Index, error) {
	ix.once.Do(func() {
		ix.idx, ix.err = buildIndex(ix.tree.pages)
		if ix.err == nil {
			// A scorch index runs a goroutine until closed. A tree is dropped
			// without ceremony when a watched source reloads (searches in
			// flight keep the old one), so the index closes once its Index
			// is unreachable.
			runtime.AddCleanup(ix, func(idx bleve.Index) { _ = idx.Close() }, ix.idx)
		}
	})
	return ix.idx, ix.err
}

func buildIndex(pages []*Page) (bleve.Index, error) {
	// Nothing is stored or kept for sorting: hits are looked up in the tree
	// and snippets cut from its text, by the term locations (term vectors).
	text := bleve.NewTextFieldMapping()
	text.Analyzer = en.AnalyzerName
	text.Store, text.DocValues = false, false
	kw := bleve.NewTextFieldMapping()
	kw.Analyzer = keyword.Name
	kw.Store, kw.DocValues = false, false
	doc := bleve.NewDocumentMapping()
	doc.AddFieldMappingsAt("title", text)
	doc.AddFieldMappingsAt("description", text)
	doc.AddFieldMappingsAt("body", text)
	doc.AddFieldMappingsAt("section", kw)
	m := bleve.NewIndexMapping()
	m.DefaultMapping = doc
	m.DefaultAnalyzer = en.AnalyzerName
	idx, err := bleve.NewUsing("", m, scorch.Name, scorch.Name, nil)
	if err != nil {
		return nil, fmt.Errorf("content: search index: %w", err)
	}
	batch := idx.NewBatch()
	for _, p := range pages {
		if err := batch.Index(p.Path, indexedPage{Title: p.Title, Description: p.Description, Body: p.Text, Section: p.Section}); err != nil {
			_ = idx.Close()
			return nil, fmt.Errorf("content: index %s: %w", p.Path, err)
		}
	}
	if err := idx.Batch(batch); err != nil {
		_ = idx.Close()
		return nil, fmt.Errorf("content: search index: %w", err)
	}
	return idx, nil
}

// ValidateQuery checks a query string; the error wraps ErrInvalidQuery.
func ValidateQuery(q string) error {
	switch {
	case strings.TrimSpace(q) == "":
		return fmt.Errorf("%w: q is required", ErrInvalidQuery)
	case !utf8.ValidString(q):
		return fmt.Errorf("%w: q must be UTF-8", ErrInvalidQuery)
	case len(q) > MaxQueryLen:
		return fmt.Errorf("%w: q is longer than %d bytes", ErrInvalidQuery, MaxQueryLen)
	}
	return nil
}

// Search ranks pages for q, optionally within one section. Words are
// stemmed ("pricing" finds "price"); "quoted phrases" must match as phrases;
// a trailing * makes a prefix query ("onboard*").
func (ix *Index) Search(q, section string, limit int) (*Results, error) {
	if err := ValidateQuery(q); err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = DefaultLimit
	}
	limit = min(limit, MaxLimit)
	bq := buildQuery(q)
	if section != "" {
		tq := bleve.NewTermQuery(section)
		tq.SetField("section")
		bq.AddMust(tq)
	}
	// Two passes: rank every match without term locations, then highlight
	// only the page of hits. Asking for highlights in the first pass makes
	// every matching page's term locations be decoded, which was most of a
	// search's time on a large tree.
	idx, err := ix.open()
	if err != nil {
		return nil, err
	}
	res, err := idx.Search(bleve.NewSearchRequestOptions(bq, limit, 0, false))
	if err != nil {
		return nil, fmt.Errorf("content: search %q: %w", q, err)
	}
	out := &Results{Query: q, Total: res.Total, Results: []Hit{}}
	if len(res.Hits) == 0 {
		return out, nil
	}
	locations, err := hitLocations(idx, bq, res.Hits)
	if err != nil {
		return nil, fmt.Errorf("content: search %q: %w", q, err)
	}
	for _, h := range res.Hits {
		p, ok := ix.tree.byPath[h.ID]
		if !ok {
			continue
		}
		sn := snippet(locations[h.ID], p)
		out.Results = append(out.Results, Hit{Title: p.Title, URL: ix.tree.URL(p.Path), Path: p.Path,
			Snippet: sn.text, Highlights: utf16Spans(sn.text, sn.marks), marks: sn.marks, Score: h.Score, Section: p.Section})
	}
	return out, nil
}

// hitLocations returns the body term locations of bq's matches among hits. The
// snippet is cut from the page's text in memory (markSnippet): bleve's
// highlighter would load each hit's stored body from the index and fragment
// all of it, half of a search's time.
func hitLocations(idx bleve.Index, bq query.Query, hits search.DocumentMatchCollection) (map[string]search.TermLocationMap, error) {
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	req := bleve.NewSearchRequestOptions(bleve.NewConjunctionQuery(bleve.NewDocIDQuery(ids), bq), len(ids), 0, false)
	req.IncludeLocations = true
	res, err := idx.Search(req)
	if err != nil {
		return nil, err
	}
	locations := make(map[string]search.TermLocationMap, len(res.Hits))
	for _, h := range res.Hits {
		locations[h.ID] = h.Locations["body"]
	}
	return locations, nil
}

// buildQuery turns q into a boolean query: phrases and prefixes must match;
// plain words should (all of them when nothing else is required).
func buildQuery(q string) *query.BooleanQuery {
	phrases, prefixes, words := splitQuery(q)
	bq := bleve.NewBooleanQuery()
	for _, ph := range phrases {
		bq.AddMust(anyField(func(f string) query.Query { m := bleve.NewMatchPhraseQuery(ph); m.SetField(f); return m }))
	}
	for _, pre := range prefixes {
		bq.AddMust(anyField(func(f string) query.Query { m := bleve.NewPrefixQuery(pre); m.SetField(f); return m }))
	}
	if len(words) > 0 {
		text := strings.Join(words, " ")
		wq := anyField(func(f string) query.Query { m := bleve.NewMatchQuery(text); m.SetField(f); return m })
		if len(phrases)+len(prefixes) == 0 {
			bq.AddMust(wq)
		} else {
			bq.AddShould(wq)
		}
	}
	return bq
}

// anyField matches in title (boost 3), description (2) or body.
func anyField(mk func(field string) query.Query) query.Query {
	var qs []query.Query
	for f, boost := range map[string]float64{"title": 3, "description": 2, "body": 1} {
		q := mk(f)
		if b, ok := q.(query.BoostableQuery); ok {
			b.SetBoost(boost)
		}
		qs = append(qs, q)
	}
	return bleve.NewDisjunctionQuery(qs...)
}

// splitQuery separates "quoted phrases", prefix* terms and plain words.
func splitQuery(q string) (phrases, prefixes, words []string) {
	for i, part := range strings.Split(q, `"`) {
		if i%2 == 1 {
			if p := strings.TrimSpace(part); p != "" {
				phrases = append(phrases, p)
			}
			continue
		}
		for _, w := range strings.Fields(part) {
			if pre := strings.ToLower(strings.TrimRight(w, "*")); strings.HasSuffix(w, "*") {
				if utf8.RuneCountInString(pre) >= 2 {
					prefixes = append(prefixes, pre)
				}
				continue
			}
			words = append(words, w)
		}
	}
	return phrases, prefixes, words
}
