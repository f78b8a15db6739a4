package site

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/content"
)

// defaultSignal is what the site has always sent; an unset
// GTMGATE_CONTENT_SIGNAL must keep sending exactly it.
const defaultSignal = "search=yes, ai-train=yes, ai-input=yes"

// TestContentSignal serves the site through its real handler with the
// default signal and with training withheld, and checks that every surface
// (each kind of response, robots.txt, llms.txt, the read-site skill) states
// the same one.
func TestContentSignal(t *testing.T) {
	t.Parallel()
	noTrain, err := content.ParseSignal("search=yes, ai-input=yes, ai-train=no")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		signal content.Signal
		want   string
		// llms and skill are lines llms.txt and the read-site SKILL.md hold.
		llms, skill string
	}{
		{name: "default", want: defaultSignal,
			llms:  "All content is free to use: Content-Signal " + defaultSignal + ".",
			skill: "is public and free to use (Content-Signal: " + defaultSignal + ")."},
		{name: "no training", signal: noTrain, want: "search=yes, ai-train=no, ai-input=yes",
			llms:  "Content-Signal search=yes, ai-train=no, ai-input=yes: the content may not be used for AI training.",
			skill: "is public and free to read, but not for AI training (Content-Signal: search=yes, ai-train=no, ai-input=yes)."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h, err := New(Options{SiteURL: testSiteURL, Registry: testRegistry(t), ContentSignal: tc.signal})
			if err != nil {
				t.Fatal(err)
			}
			for _, req := range []struct {
				method, path string
				header       []string
				status       int
			}{
				{"GET", "/about.md", nil, 200},
				{"GET", "/about", []string{"Accept", "text/markdown"}, 200},
				{"GET", "/about", []string{"Accept", "text/html"}, 200},
				{"GET", PathRobots, nil, 200},
				{"GET", PathLLMS, nil, 200},
				{"GET", PathLLMSFull, nil, 200},
				{"GET", PathSitemap, nil, 200},
				{"GET", PathSkills, nil, 200},
				{"GET", skillsDirectory + "read-site/SKILL.md", nil, 200},
				{"GET", PathServerCard, nil, 200},
				{"GET", PathMCPCard, nil, 200},
				{"GET", PathMCP, []string{"Accept", "application/json"}, 200},
				{"GET", PathMCP, []string{"Accept", "text/markdown"}, 200},
				{"GET", PathMCP, []string{"Accept", "text/event-stream"}, http.StatusMethodNotAllowed},
				{"GET", PathSearchPage + "?q=pipeline", nil, 200},
				{"GET", PathSearchPage + "?q=pipeline", []string{"Accept", "text/markdown"}, 200},
				{"GET", "/nope.md", nil, http.StatusNotFound},
				{"HEAD", "/about.md", nil, 200},
			} {
				r := get(t, h, req.method, req.path, req.header...)
				if r.StatusCode != req.status {
					t.Errorf("%s %s %v: status %d, want %d", req.method, req.path, req.header, r.StatusCode, req.status)
				}
				if got := r.Header.Get("Content-Signal"); got != tc.want {
					t.Errorf("%s %s %v: Content-Signal %q, want %q", req.method, req.path, req.header, got, tc.want)
				}
			}
			// An MCP request through the transport (tool results are pages).
			mcp := get(t, h, "POST", PathMCP, "Content-Type", "application/json", "Accept", "application/json, text/event-stream")
			if got := mcp.Header.Get("Content-Signal"); got != tc.want {
				t.Errorf("POST %s: Content-Signal %q, want %q", PathMCP, got, tc.want)
			}
			if robots := body(t, get(t, h, "GET", PathRobots)); !strings.Contains(robots, "\nContent-Signal: "+tc.want+"\n") {
				t.Errorf("robots.txt lacks Content-Signal: %s:\n%s", tc.want, robots)
			}
			if llms := body(t, get(t, h, "GET", PathLLMS)); !strings.Contains(llms, "\n"+tc.llms+" ") {
				t.Errorf("llms.txt lacks %q:\n%s", tc.llms, llms)
			}
			if skill := body(t, get(t, h, "GET", skillsDirectory+"read-site/SKILL.md")); !strings.Contains(skill, tc.skill) {
				t.Errorf("read-site skill lacks %q:\n%s", tc.skill, skill)
			}
		})
	}
}

// TestUsageTerms words every signal for llms.txt and the skill.
func TestUsageTerms(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		signal      content.Signal
		llms, skill string
	}{
		{content.Signal{}, "All content is free to use: Content-Signal " + defaultSignal + ".",
			"free to use (Content-Signal: " + defaultSignal + ")"},
		{content.Signal{NoAITrain: true, NoAIInput: true},
			"Content-Signal search=yes, ai-train=no, ai-input=no: the content may not be used for AI training or AI input.",
			"free to read, but not for AI training or AI input (Content-Signal: search=yes, ai-train=no, ai-input=no)"},
		{content.Signal{NoSearch: true, NoAITrain: true, NoAIInput: true},
			"Content-Signal search=no, ai-train=no, ai-input=no: the content may not be used for search indexing, AI training or AI input.",
			"free to read, but not for search indexing, AI training or AI input (Content-Signal: search=no, ai-train=no, ai-input=no)"},
	} {
		if got := usageTerms(tc.signal); got != tc.llms {
			t.Errorf("usageTerms(%v) = %q, want %q", tc.signal, got, tc.llms)
		}
		if got := skillTerms(tc.signal); got != tc.skill {
			t.Errorf("skillTerms(%v) = %q, want %q", tc.signal, got, tc.skill)
		}
	}
}
