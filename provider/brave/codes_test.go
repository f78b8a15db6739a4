package brave

import (
	"slices"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

func TestNewsPagingWithoutMoreResultsFlag(t *testing.T) {
	t.Parallel()
	sb, tools := setup(t)
	pages, seen := pageThrough(t, sb, tools["news_search"], "b2b sales crm", 2, func(page int, items []any, cursor string) {
		if full := len(items) == 2; full != (cursor != "") {
			t.Fatalf("page %d: %d items, next_cursor %q; want a cursor exactly when the page is full", page, len(items), cursor)
		}
	})
	if pages < 2 || len(seen) < 3 {
		t.Errorf("pages = %d, distinct results = %d; want several pages", pages, len(seen))
	}
}

func TestNewsCursorStopsAtMaxOffset(t *testing.T) {
	t.Parallel()
	p := &searchParams{count: 1, offset: newsEndpoint.maxOffset, maxOffset: newsEndpoint.maxOffset}
	if got := p.nextCursor(true); got != "" || newsEndpoint.maxOffset != 9 {
		t.Errorf("nextCursor at offset %d = %q, want none at Brave's 9", p.offset, got)
	}
}

func TestSchemaFollowsBraveReference(t *testing.T) {
	t.Parallel()
	_, tools := setup(t)
	tests := []struct {
		tool, safeSearch string
	}{
		{"web_search", "moderate"},
		{"news_search", "strict"},
	}
	for _, tc := range tests {
		props := tools[tc.tool].Properties
		if d := props["safesearch"].Description; !strings.Contains(d, "default for this search: "+tc.safeSearch+")") {
			t.Errorf("%s safesearch description = %q, want Brave's default %q", tc.tool, d, tc.safeSearch)
		}
		if c := props["country"]; c.Pattern != "" || !slices.Contains(c.Enum, any("ALL")) || slices.Contains(c.Enum, any("SG")) || len(c.Enum) != 37 {
			t.Errorf("%s country = pattern %q enum %v, want Brave's 36 country codes and ALL", tc.tool, c.Pattern, c.Enum)
		}
		if l := props["search_lang"]; l.Pattern != "" || !slices.Contains(l.Enum, any("zh-hans")) || slices.Contains(l.Enum, any("ja")) || len(l.Enum) != 50 {
			t.Errorf("%s search_lang = pattern %q enum %v, want Brave's 50 codes", tc.tool, l.Pattern, l.Enum)
		}
	}
}

func TestCountryAndLanguageCodes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, tool, input string
		wantCode          string
	}{
		{"worldwide", "web_search", `{"rationale":"r","query":"crm","country":"ALL"}`, ""},
		{"worldwide news", "news_search", `{"rationale":"r","query":"crm","country":"ALL","search_lang":"en-gb"}`, ""},
		{"undocumented country", "web_search", `{"rationale":"r","query":"crm","country":"SG"}`, gtmgate.EValidation},
		{"lower-case country", "news_search", `{"rationale":"r","query":"crm","country":"us"}`, gtmgate.EValidation},
		{"ISO code Brave spells jp", "web_search", `{"rationale":"r","query":"crm","search_lang":"ja"}`, gtmgate.EValidation},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sb, tools := setup(t)
			_, err := run(t, sb, tools[tc.tool], SandboxToken, tc.input)
			if tc.wantCode == "" {
				if err != nil {
					t.Fatalf("run: %v", err)
				}
				return
			}
			providertest.WantCode(t, err, tc.wantCode)
		})
	}
}
