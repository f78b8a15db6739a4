package app_test

import (
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
)

// mdLink finds markdown links and images: [text](target) and ![alt](target).
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestDocsLinksResolve: every page of the built-in docs, as an agent reads
// it in markdown, links only to pages and images the docs host serves.
func TestDocsLinksResolve(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	base, err := url.Parse(env.Config.DocsURL)
	if err != nil {
		t.Fatal(err)
	}
	path := func(link string) (string, bool) {
		u, err := url.Parse(link)
		if err != nil || u.Host != "" && u.Host != base.Host || u.Scheme != "" && u.Scheme != base.Scheme || !strings.HasPrefix(u.Path, "/") {
			return "", false
		}
		return u.Path, true
	}
	llms := env.Do("GET", env.DocsURL+"/llms.txt", nil)
	var pages []string
	for _, m := range mdLink.FindAllStringSubmatch(string(llms.Body), -1) {
		if p, ok := path(m[1]); ok && strings.HasSuffix(p, ".md") {
			pages = append(pages, p)
		}
	}
	if len(pages) < 20 {
		t.Fatalf("only %d pages in llms.txt", len(pages))
	}
	checked := map[string]int{}
	images := 0
	for _, page := range pages {
		r := env.Do("GET", env.DocsURL+page, nil)
		if r.Status != 200 {
			t.Errorf("%s: %d", page, r.Status)
			continue
		}
		for _, m := range mdLink.FindAllStringSubmatch(string(r.Body), -1) {
			target, ok := path(m[1])
			if !ok {
				continue
			}
			if _, seen := checked[target]; !seen {
				checked[target] = env.Do("GET", env.DocsURL+target, nil).Status
			}
			if strings.HasSuffix(target, ".png") {
				images++
			}
			if st := checked[target]; st != 200 {
				t.Errorf("%s links %s: %d", page, m[1], st)
			}
		}
	}
	t.Logf("%d pages, %d distinct local links, %d image references", len(pages), len(checked), images)
}
