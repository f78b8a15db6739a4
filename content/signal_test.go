package content

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

func TestParseSignal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in string
		want     Signal
		wantErr  string
	}{
		{name: "all yes", in: "search=yes, ai-train=yes, ai-input=yes", want: Signal{}},
		{name: "no training", in: "search=yes, ai-input=yes, ai-train=no", want: Signal{NoAITrain: true}},
		{name: "all no, without spaces", in: "search=no,ai-train=no,ai-input=no", want: Signal{NoSearch: true, NoAITrain: true, NoAIInput: true}},
		{name: "case and spaces", in: " AI-Input = No ,SEARCH=yes,  ai-train=YES ", want: Signal{NoAIInput: true}},
		{name: "unknown key", in: "search=yes, ai-train=no, ai-input=yes, ai-index=no", wantErr: `unknown key "ai-index"`},
		{name: "value not yes or no", in: "search=yes, ai-train=false, ai-input=yes", wantErr: `ai-train="false": the value must be yes or no`},
		{name: "empty value", in: "search=yes, ai-train=, ai-input=yes", wantErr: `ai-train="": the value must be yes or no`},
		{name: "duplicate", in: "search=yes, ai-train=no, ai-train=yes, ai-input=yes", wantErr: "ai-train is given twice"},
		{name: "missing keys", in: "ai-train=no", wantErr: "missing search and ai-input"},
		{name: "not key=value", in: "search=yes, ai-train no, ai-input=yes", wantErr: `"ai-train no" is not key=yes or key=no`},
		{name: "trailing comma", in: "search=yes, ai-train=no, ai-input=yes,", wantErr: `"" is not key=yes or key=no`},
		{name: "semicolons", in: "search=yes; ai-train=no; ai-input=yes", wantErr: "must be yes or no"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseSignal(tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("ParseSignal(%q) error = %v, want it to contain %q", tc.in, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseSignal(%q): %v", tc.in, err)
			}
			if got != tc.want {
				t.Errorf("ParseSignal(%q) = %+v, want %+v", tc.in, got, tc.want)
			}
			// What String writes parses back to the same signal.
			if again, err := ParseSignal(got.String()); err != nil || again != got {
				t.Errorf("round trip of %q: %+v, %v", got.String(), again, err)
			}
		})
	}
}

func TestSignalString(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s        Signal
		want     string
		withheld string
	}{
		{Signal{}, "search=yes, ai-train=yes, ai-input=yes", ""},
		{Signal{NoAITrain: true}, "search=yes, ai-train=no, ai-input=yes", "AI training"},
		{Signal{NoSearch: true, NoAIInput: true}, "search=no, ai-train=yes, ai-input=no", "search indexing|AI input"},
	} {
		if got := tc.s.String(); got != tc.want {
			t.Errorf("%+v.String() = %q, want %q", tc.s, got, tc.want)
		}
		if got := strings.Join(tc.s.Withheld(), "|"); got != tc.withheld {
			t.Errorf("%+v.Withheld() = %q, want %q", tc.s, got, tc.withheld)
		}
		if tc.s.PermitsAll() != (tc.withheld == "") {
			t.Errorf("%+v.PermitsAll() = %v", tc.s, tc.s.PermitsAll())
		}
	}
}

// TestTreeSignal: every body a tree precomputes (pages, markdown, resources
// whatever their type, the stylesheet, the 404s), the search page and
// robots.txt carry the tree's own signal, and a resource cannot send another.
func TestTreeSignal(t *testing.T) {
	t.Parallel()
	sig := Signal{NoAITrain: true}
	want := "search=yes, ai-train=no, ai-input=yes"
	shared := http.Header{"Content-Signal": {"search=yes, ai-train=yes, ai-input=yes"}}
	tree, err := Load(fstest.MapFS{
		"index.md": page("Home", "", "home"),
		"about.md": page("About", "", "about"),
		"logo.png": {Data: []byte("\x89PNG")},
	}, Options{BaseURL: "https://x.test", SearchPath: "/search", Signal: sig, Resources: func(t *Tree) ([]Resource, error) {
		return []Resource{
			{Path: "/robots.txt", ContentType: TypeText, Data: Robots(t)},
			{Path: "/llms.txt", ContentType: TypeMarkdown, Data: []byte("# Home\n"), Header: shared},
			{Path: "/card.json", ContentType: TypeJSON, Data: []byte("{}"), Header: shared},
		}, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if tree.Signal() != sig {
		t.Errorf("Signal() = %+v", tree.Signal())
	}
	if shared.Get("Content-Signal") != "search=yes, ai-train=yes, ai-input=yes" {
		t.Error("the resource's header map was modified")
	}
	for path, r := range tree.routes {
		for _, b := range []*Body{r.body, r.markdown} {
			if b != nil && b.Header.Get("Content-Signal") != want {
				t.Errorf("%s: Content-Signal %q, want %q", path, b.Header.Get("Content-Signal"), want)
			}
		}
	}
	for _, b := range tree.notFound {
		if got := b.Header.Get("Content-Signal"); got != want {
			t.Errorf("404: Content-Signal %q", got)
		}
	}
	rec := httptest.NewRecorder()
	tree.ServeHTTP(rec, httptest.NewRequest("GET", "/search?q=about", nil))
	if got := rec.Header().Get("Content-Signal"); rec.Code != 200 || got != want {
		t.Errorf("search page: %d, Content-Signal %q", rec.Code, got)
	}
	if robots := string(Robots(tree)); !strings.Contains(robots, "\nContent-Signal: "+want+"\n") {
		t.Errorf("robots.txt:\n%s", robots)
	}
}
