package content

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/blevesearch/bleve/v2"
)

func searchTree(t testing.TB) *Tree {
	t.Helper()
	tree, err := Load(fstest.MapFS{
		"index.md":         page("Home", "", "Welcome to the practice."),
		"pricing.md":       page("Pricing", "", "Our prices are fixed. Each sprint has one price."),
		"guide/onboard.md": page("Onboarding", "", "Onboarding a new tenant takes a day. Send the bearer token."),
		"guide/tokens.md":  page("Tokens", "", "A token is issued by the operator. Tokens never expire silently."),
		"blog/mql.md":      page("Why we don't measure MQLs", "", "Marketing qualified leads distort pipeline."),
	}, Options{BaseURL: "https://x.test"})
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

func TestSearch(t *testing.T) {
	ix := searchTree(t).Search()
	tests := []struct {
		q, section string
		first      string
		total      int
	}{
		{"pricing", "", "/pricing", 1},              // stemmed: pricing → price
		{"tokens", "", "/guide/tokens", 2},          // both guide pages mention token(s)
		{`"bearer token"`, "", "/guide/onboard", 1}, // phrase
		{`"token bearer"`, "", "", 0},               // phrase order matters
		{"onboard*", "", "/guide/onboard", 1},       // prefix
		{"token", "blog", "", 0},                    // section filter
		{"token", "guide", "/guide/tokens", 2},      // section filter
		{"mqls", "", "/blog/mql", 1},                // title match
		{"nothing-matches-this", "", "", 0},
	}
	for _, tc := range tests {
		res, err := ix.Search(tc.q, tc.section, 0)
		if err != nil {
			t.Fatalf("%q: %v", tc.q, err)
		}
		first := ""
		if len(res.Results) > 0 {
			first = res.Results[0].Path
		}
		if first != tc.first || int(res.Total) != tc.total {
			t.Errorf("%q in %q: first %q total %d, want %q %d", tc.q, tc.section, first, res.Total, tc.first, tc.total)
		}
	}
	res, _ := ix.Search("operator", "", 1)
	if h := res.Results[0]; !strings.Contains(h.Snippet, "operator") || len(h.Highlights) == 0 || strings.Contains(h.Snippet, "<mark>") || h.URL != "https://x.test/guide/tokens" || h.Section != "guide" {
		t.Errorf("hit %+v", h)
	}
	for _, q := range []string{"", "   ", strings.Repeat("a", MaxQueryLen+1), "\xff"} {
		if _, err := ix.Search(q, "", 0); !errors.Is(err, ErrInvalidQuery) {
			t.Errorf("%q: err %v", q, err)
		}
	}
}

// TestIndexBuiltByFirstSearch: loading a tree builds no index; the first
// search builds it, once, however many search at the same time. (It reads
// the tree's own index rather than counting index goroutines: other tests'
// dropped trees close theirs at any moment.)
func TestIndexBuiltByFirstSearch(t *testing.T) {
	tree := searchTree(t)
	ix := tree.Search()
	if ix.idx != nil {
		t.Fatal("loading a tree built its search index")
	}
	var wg sync.WaitGroup
	built := make(chan bleve.Index, 8)
	for range 8 {
		wg.Go(func() {
			if res, err := ix.Search("pricing", "", 1); err != nil || len(res.Results) == 0 {
				t.Errorf("search: %v %+v", err, res)
			}
			idx, _ := ix.open()
			built <- idx
		})
	}
	wg.Wait()
	close(built)
	for idx := range built {
		if idx == nil || idx != ix.idx {
			t.Fatalf("8 concurrent first searches saw different indexes: %p, %p", idx, ix.idx)
		}
	}
}

// TestDroppedIndexCloses checks that a tree dropped without ceremony (as a
// watched source drops the tree it replaces) does not leave its index's
// goroutine running: the process would otherwise grow with every reload.
func TestDroppedIndexCloses(t *testing.T) {
	const trees = 20
	held := make([]*Tree, trees)
	for i := range held {
		held[i] = searchTree(t)
		if _, err := held[i].Search().Search("pricing", "", 1); err != nil { // the first search builds the index
			t.Fatal(err)
		}
	}
	running := indexGoroutines()
	if running < trees {
		t.Fatalf("%d trees, %d index goroutines; the check below would prove nothing", trees, running)
	}
	runtime.KeepAlive(held)
	held = nil
	// Cleanups run after the collection that finds an index unreachable;
	// give them a few cycles, bounded by count rather than time. Trees of
	// earlier tests may go too, which only lowers the count.
	for range 200 {
		runtime.GC()
		runtime.Gosched()
		if indexGoroutines() <= running-trees {
			return
		}
	}
	t.Fatalf("index goroutines: %d with the trees held, %d after dropping %d trees", running, indexGoroutines(), trees)
}

// indexGoroutines counts the goroutines that open search indexes run.
func indexGoroutines() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return bytes.Count(buf[:n], []byte("scorch.(*Scorch).introducerLoop"))
		}
		buf = make([]byte, 2*len(buf))
	}
}

// generated1000 is a tree of 1,000 pages in 10 sections, ~400 words each.
func generated1000() fstest.MapFS {
	words := strings.Fields("pipeline revenue marketing attribution forecast deal stage buyer meeting channel sprint install diagnose operate program advisory contact session token tenant gateway")
	fsys := fstest.MapFS{"index.md": page("Home", "", "home")}
	for i := range 1000 {
		var b strings.Builder
		for j := range 400 {
			b.WriteString(words[(i*7+j*13)%len(words)])
			if j%12 == 11 {
				b.WriteString(".\n\n")
			} else {
				b.WriteString(" ")
			}
		}
		fsys[fmt.Sprintf("s%d/page-%d.md", i%10, i)] = page(fmt.Sprintf("Page %d about %s", i, words[i%len(words)]),
			fmt.Sprintf("description: Page %d.\ndate: 2025-01-%02d\n", i, 1+i%28), "## Heading\n\n"+b.String())
	}
	return fsys
}

// BenchmarkLoad1000 loads a 1,000-page tree: ready to serve every page; the
// search index waits for the first search (BenchmarkFirstSearch1000).
func BenchmarkLoad1000(b *testing.B) {
	fsys := generated1000()
	for b.Loop() {
		if _, err := Load(fsys, Options{BaseURL: "https://x.test"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFirstSearch1000 is a load plus the first search, which builds
// the index.
func BenchmarkFirstSearch1000(b *testing.B) {
	fsys := generated1000()
	for b.Loop() {
		tree, err := Load(fsys, Options{BaseURL: "https://x.test"})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tree.Search().Search("pipeline", "", 10); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSearch1000(b *testing.B) {
	tree, err := Load(generated1000(), Options{BaseURL: "https://x.test"})
	if err != nil {
		b.Fatal(err)
	}
	queries := []string{"pipeline", "attribution forecast", `"buyer meeting"`, "diagn*", "tenants"}
	if _, err := tree.Search().Search("warm", "", 1); err != nil { // builds the index, untimed
		b.Fatal(err)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := tree.Search().Search(queries[i%len(queries)], "", 10); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkSearch1000Query times each query of BenchmarkSearch1000 alone:
// its mean hides that a phrase common to every page costs most.
func BenchmarkSearch1000Query(b *testing.B) {
	tree, err := Load(generated1000(), Options{BaseURL: "https://x.test"})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := tree.Search().Search("warm", "", 1); err != nil { // builds the index, untimed
		b.Fatal(err)
	}
	for _, q := range []string{"pipeline", "attribution forecast", `"buyer meeting"`, "diagn*", "tenants"} {
		b.Run(strings.Trim(strings.ReplaceAll(q, " ", "_"), `"*`), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := tree.Search().Search(q, "", 10); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
