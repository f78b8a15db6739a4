package brave

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
	"github.com/gtmgate/gtmgate/provider/upstream"
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
		if d := props["safesearch"].Description; !strings.Contains(d, "Default "+tc.safeSearch+".") {
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

// TestRateLimitReset: Brave's 429 says in X-RateLimit-Reset when each limit
// of the plan resets, and in X-RateLimit-Remaining which one was reached
// (api.search.brave.com/app/documentation/web-search/response-headers, read
// 2026-11): the call reports that wait as retry_after instead of sending
// the search again before the limit allows it.
func TestRateLimitReset(t *testing.T) {
	t.Parallel()
	sb, tools := setup(t)
	sb.FailNext(http.StatusTooManyRequests, 1)
	_, err := run(t, sb, tools["web_search"], SandboxToken, `{"rationale":"r","query":"crm"}`)
	e := providertest.WantCode(t, err, gtmgate.ERateLimited)
	if e.RetryAfter != 1 || e.Hint != hintRateLimited {
		t.Errorf("retry_after = %d, hint %q; want Brave's 1 second", e.RetryAfter, e.Hint)
	}
	if n := sb.Requests(); n != 1 {
		t.Errorf("requests = %d, want 1: no retry before the per-second limit resets", n)
	}
}

func TestClassify(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		status    int
		header    http.Header
		wantWait  time.Duration
		unchanged bool
	}{
		{name: "per-second limit", status: 429, header: http.Header{"X-Ratelimit-Remaining": {"0, 14873"}, "X-Ratelimit-Reset": {"1, 1419704"}}, wantWait: time.Second},
		{name: "monthly quota used up", status: 429, header: http.Header{"X-Ratelimit-Remaining": {"0, 0"}, "X-Ratelimit-Reset": {"1, 1419704"}}, wantWait: 1419704 * time.Second},
		{name: "nothing at zero: the first limit", status: 429, header: http.Header{"X-Ratelimit-Remaining": {"1, 10"}, "X-Ratelimit-Reset": {"1, 1419704"}}, wantWait: time.Second},
		{name: "Retry-After longer", status: 429, header: http.Header{"Retry-After": {"3"}, "X-Ratelimit-Remaining": {"0, 9"}, "X-Ratelimit-Reset": {"1, 99"}}, wantWait: 3 * time.Second},
		{name: "no headers", status: 429, header: http.Header{}, wantWait: 0},
		{name: "malformed reset", status: 429, header: http.Header{"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {"soon"}}, wantWait: 0},
		{name: "not a 429", status: 422, header: http.Header{"X-Ratelimit-Remaining": {"0, 0"}, "X-Ratelimit-Reset": {"1, 5"}}, unchanged: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			resp := &upstream.Response{Status: tt.status, Header: tt.header}
			status := upstream.StatusFailure(resp)
			got := classify(resp, status)
			if tt.unchanged {
				if got != status {
					t.Errorf("classify = %+v, want %+v", got, status)
				}
				return
			}
			if got.RetryAfter != tt.wantWait || got.Code != gtmgate.ERateLimited || !got.Retry || got.Hint != hintRateLimited {
				t.Errorf("classify = %+v, want a rate limit with wait %v", got, tt.wantWait)
			}
		})
	}
}

func FuzzHeaderList(f *testing.F) {
	f.Add("1, 1419704")
	f.Add("0,-1")
	f.Fuzz(func(t *testing.T, v string) {
		for _, n := range headerList(v) {
			if n < 0 {
				t.Fatalf("headerList(%q) has %d", v, n)
			}
		}
	})
}
