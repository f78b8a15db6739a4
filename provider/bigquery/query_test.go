package bigquery

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/googleapi"
	"github.com/gtmgate/gtmgate/provider/googleapi/googleapitest"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

func TestQueryRun(t *testing.T) {
	t.Parallel()
	sb, tools := setup(t)
	out, err := run(t, sb, tools["bigquery_query"], `{"rationale":"r","action":"run",
		"query":"SELECT session_id, pageviews, converted, started_at, utm FROM marketing.web_sessions WHERE session_id = @id"
		,"params":{"id":"s-1003"}}`)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	want := []any{map[string]any{
		"session_id": "s-1003", "pageviews": 3.0, "converted": true, "started_at": "2025-11-04T14:05:00Z",
		"utm": map[string]any{"source": "linkedin", "medium": "paid_social", "campaign": "abm-enterprise"},
	}}
	if diff := cmp.Diff(want, out["rows"]); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	cols := out["columns"].([]any)
	if len(cols) != 5 || cols[1].(map[string]any)["type"] != "INTEGER" || out["total_rows"] != 1.0 || out["next_cursor"] != nil {
		t.Errorf("columns %v, total_rows %v, next_cursor %v", cols, out["total_rows"], out["next_cursor"])
	}
	if out["bytes_processed"].(float64) <= 0 || out["cache_hit"] != false || out["job_complete"] != true {
		t.Errorf("bytes_processed %v cache_hit %v job_complete %v", out["bytes_processed"], out["cache_hit"], out["job_complete"])
	}
}

func TestQueryTypes(t *testing.T) {
	t.Parallel()
	sb, tools := setup(t)
	out, err := run(t, sb, tools["bigquery_query"], `{"rationale":"r","action":"run","query":"select * from sales.opportunities where amount = 76500.5"}`)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	rows := out["rows"].([]any)
	if len(rows) != 1 {
		t.Fatalf("rows = %v, want the one opportunity", rows)
	}
	r := rows[0].(map[string]any)
	if r["amount"] != 76500.50 || r["close_date"] != "2025-12-01" || !cmp.Equal(r["products"], []any{"analytics"}) {
		t.Errorf("row = %v: want NUMERIC as number, DATE as string, REPEATED as list", r)
	}
}

func TestQueryPagingAndCache(t *testing.T) {
	t.Parallel()
	sb, tools := setup(t)
	tool := tools["bigquery_query"]
	in := `{"rationale":"r","action":"run","query":"SELECT session_id FROM marketing.web_sessions","limit":5`
	var ids []string
	cursor, first := "", ""
	for pages := 0; ; pages++ {
		if pages > 5 {
			t.Fatal("paging does not end")
		}
		req := in
		if cursor != "" {
			req = `{"rationale":"r","action":"run","limit":5,"cursor":"` + cursor + `"`
		}
		out, err := run(t, sb, tool, req+"}")
		if err != nil {
			t.Fatalf("page %d: %v", pages, err)
		}
		if out["total_rows"] != 12.0 {
			t.Errorf("total_rows = %v, want 12", out["total_rows"])
		}
		for _, r := range out["rows"].([]any) {
			ids = append(ids, r.(map[string]any)["session_id"].(string))
		}
		cursor, _ = out["next_cursor"].(string)
		if first == "" {
			first = cursor
		}
		if cursor == "" {
			break
		}
	}
	if len(ids) != 12 || ids[0] != "s-1001" || ids[11] != "s-1012" {
		t.Errorf("paged ids = %v, want s-1001…s-1012", ids)
	}
	again, err := run(t, sb, tool, in+"}")
	if err != nil || again["cache_hit"] != true || again["bytes_processed"] != 0.0 {
		t.Errorf("repeat = %v, %v; want a cache hit processing 0 bytes", again, err)
	}
	if _, err := runWithSource(t, tool, sb.Accounts[1], gtmgate.StaticToken(SandboxToken), `{"rationale":"r","action":"run","cursor":"`+first+`"}`); gtmgate.ErrorCode(err) != gtmgate.EValidation {
		t.Errorf("foreign cursor: err = %v, want VALIDATION_ERROR", err)
	}
}

func TestQueryEstimate(t *testing.T) {
	t.Parallel()
	sb, tools := setup(t)
	out, err := run(t, sb, tools["bigquery_query"], `{"rationale":"r","action":"estimate",
		"query":"WITH c AS (SELECT channel, SUM(cost) AS cost FROM marketing.ad_spend GROUP BY channel) SELECT * FROM c ORDER BY cost DESC"}`)
	if err != nil {
		t.Fatalf("estimate: %v", err)
	}
	bytes := out["bytes_processed"].(float64)
	wantCost := bytes / (1 << 40) * DefaultPricePerTiB
	if out["statement_type"] != "SELECT" || bytes <= 0 || out["currency"] != "USD" || out["within_limit"] != true {
		t.Errorf("estimate = %v", out)
	}
	if got := out["estimated_cost"].(float64); got < wantCost-1e-6 || got > wantCost+1e-6 {
		t.Errorf("estimated_cost = %v, want %v", got, wantCost)
	}
	if out["max_bytes_billed"] != float64(DefaultMaxBytesBilled) || out["price_per_tib"] != DefaultPricePerTiB {
		t.Errorf("limits = %v %v", out["max_bytes_billed"], out["price_per_tib"])
	}
}

func TestQueryRefusals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, input   string
		forceStmtType string
		wantCode      string
		wantMessage   string
	}{
		{"lexer refuses dml", `{"rationale":"r","action":"run","query":"SELECT 1; DROP TABLE marketing.ad_spend"}`, "", gtmgate.EValidation, "single statement"},
		{"lexer refuses estimate too", `{"rationale":"r","action":"estimate","query":"DELETE FROM t WHERE true"}`, "", gtmgate.EValidation, "DELETE"},
		{"dry run gate", `{"rationale":"r","action":"run","query":"SELECT * FROM marketing.ad_spend"}`, "SCRIPT", gtmgate.EValidation, "classifies the statement as SCRIPT"},
		{"bytes above limit", `{"rationale":"r","action":"run","query":"SELECT * FROM marketing.ad_spend","max_bytes_billed":100}`, "", gtmgate.EValidation, "above max_bytes_billed 100"},
		{"cap on max bytes", `{"rationale":"r","action":"run","query":"SELECT 1","max_bytes_billed":1e15}`, "", gtmgate.EValidation, "max_bytes_billed"},
		{"query required", `{"rationale":"r","action":"run"}`, "", gtmgate.EValidation, "query is required"},
		{"bad cursor", `{"rationale":"r","action":"run","cursor":"!!"}`, "", gtmgate.EValidation, "cursor"},
		{"bad param", `{"rationale":"r","action":"run","query":"SELECT 1","params":{"x":{"a":1}}}`, "", gtmgate.EValidation, "params.*: must be one of the types string, number, boolean, array"},
		{"unknown column", `{"rationale":"r","action":"run","query":"SELECT revenue FROM marketing.ad_spend"}`, "", gtmgate.EUpstream, "Unrecognized name: revenue"},
		{"unknown table", `{"rationale":"r","action":"run","query":"SELECT * FROM marketing.leads"}`, "", gtmgate.EUpstream, "Not found: Table acme-analytics:marketing.leads"},
		{"sandbox cannot evaluate", `{"rationale":"r","action":"run","query":"SELECT channel, SUM(cost) FROM marketing.ad_spend GROUP BY channel"}`, "", gtmgate.EUpstream, "The sandbox evaluates only"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sb, tools := setup(t)
			sb.forceStatementType = tc.forceStmtType
			_, err := run(t, sb, tools["bigquery_query"], tc.input)
			var e *gtmgate.Error
			if !errors.As(err, &e) || e.Code != tc.wantCode || !strings.Contains(e.Message, tc.wantMessage) {
				t.Fatalf("err = %v, want %s containing %q", err, tc.wantCode, tc.wantMessage)
			}
			if tc.wantCode == gtmgate.EUpstream {
				if d, _ := e.Detail.(gtmgate.UpstreamDetail); d.Status != http.StatusBadRequest && d.Status != http.StatusNotFound {
					t.Errorf("detail = %#v, want the provider's 400/404", e.Detail)
				}
			}
		})
	}
}

// TestUsageLimits: BigQuery sends its short-term rate limits
// (rateLimitExceeded) and its longer-term quotas (quotaExceeded, "wait 10
// minutes or more") as HTTP 403 (cloud.google.com/bigquery/docs/troubleshoot-quotas,
// read 2026-11): RATE_LIMITED, not a refused token, the quota not retried.
func TestUsageLimits(t *testing.T) {
	t.Parallel()
	sb, tools := setup(t)
	const datasets = `{"rationale":"r","action":"datasets"}`
	googleapitest.CheckUsageLimits(t, sb, tools["bigquery_schema"], sb.Accounts[0], SandboxToken, datasets)
	quota := googleapi.Fault{Status: http.StatusForbidden, Reason: "quotaExceeded", Domain: "global",
		Message: "Quota exceeded: Your project exceeded quota for free query bytes scanned. For more information, see https://cloud.google.com/bigquery/troubleshooting-errors"}
	before := sb.Requests()
	sb.FailNextWith(quota, 1)
	_, err := run(t, sb, tools["bigquery_query"], `{"rationale":"r","action":"run","query":"SELECT * FROM sales.opportunities LIMIT 2"}`)
	if e := providertest.WantCode(t, err, gtmgate.ERateLimited); e.Hint != googleapi.HintQuota || !strings.Contains(e.Message, "free query bytes") {
		t.Errorf("quotaExceeded: message %q, hint %q", e.Message, e.Hint)
	}
	if n := sb.Requests() - before; n != 1 {
		t.Errorf("quotaExceeded: %d requests, want 1", n)
	}
}

func TestUpstreamFailures(t *testing.T) {
	t.Parallel()
	const bad = "ya29.bad-token-value-123"
	t.Run("bad token", func(t *testing.T) {
		t.Parallel()
		sb, tools := setup(t)
		_, err := runWithSource(t, tools["bigquery_schema"], sb.Accounts[0], refreshedBadToken(bad), `{"rationale":"r","action":"datasets"}`)
		var e *gtmgate.Error
		if !errors.As(err, &e) || e.Code != gtmgate.EUpstream {
			t.Fatalf("err = %v, want UPSTREAM_ERROR", err)
		}
		d, _ := e.Detail.(gtmgate.UpstreamDetail)
		if d.Status != 401 || !strings.Contains(e.Message, "invalid authentication credentials") || strings.Contains(d.Body+e.Message, bad) {
			t.Errorf("message %q detail %#v: want 401, Google's message, no token", e.Message, d)
		}
	})
	t.Run("static bad token needs reauth", func(t *testing.T) {
		t.Parallel()
		sb, tools := setup(t)
		_, err := providertestRun(t, sb, tools["bigquery_schema"], bad, `{"rationale":"r","action":"datasets"}`)
		if gtmgate.ErrorCode(err) != gtmgate.EReauthRequired {
			t.Errorf("err = %v, want REAUTH_REQUIRED", err)
		}
	})
	t.Run("read retried once on 500", func(t *testing.T) {
		t.Parallel()
		sb, tools := setup(t)
		sb.FailNext(http.StatusInternalServerError, 1)
		if _, err := run(t, sb, tools["bigquery_query"], `{"rationale":"r","action":"run","query":"SELECT * FROM sales.opportunities LIMIT 2"}`); err != nil {
			t.Errorf("run after one 500: %v", err)
		}
	})
	t.Run("two 500s fail", func(t *testing.T) {
		t.Parallel()
		sb, tools := setup(t)
		sb.FailNext(http.StatusInternalServerError, 2)
		_, err := run(t, sb, tools["bigquery_schema"], `{"rationale":"r","action":"datasets"}`)
		var e *gtmgate.Error
		if !errors.As(err, &e) || e.Code != gtmgate.EUpstream || !strings.Contains(e.Message, "Injected fault") {
			t.Errorf("err = %v, want UPSTREAM_ERROR with Google's message", err)
		}
	})
	t.Run("bad request message", func(t *testing.T) {
		t.Parallel()
		sb, tools := setup(t)
		sb.FailNext(http.StatusBadRequest, 1)
		_, err := run(t, sb, tools["bigquery_schema"], `{"rationale":"r","action":"datasets"}`)
		var e *gtmgate.Error
		if !errors.As(err, &e) || !strings.Contains(e.Message, "HTTP 400): Injected fault") {
			t.Errorf("err = %v, want the provider's message", err)
		}
	})
}
