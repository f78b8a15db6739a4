package bigquery

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

func TestSchema(t *testing.T) {
	t.Parallel()
	sb, tools := setup(t)
	tool := tools["bigquery_schema"]
	ids := func(out map[string]any) []string {
		var s []string
		for _, it := range out["items"].([]any) {
			s = append(s, it.(map[string]any)["id"].(string))
		}
		return s
	}

	p1, err := run(t, sb, tool, `{"rationale":"r","action":"datasets","limit":1}`)
	if err != nil || p1["next_cursor"] == "" {
		t.Fatalf("datasets page 1 = %v, %v; want a next_cursor", p1, err)
	}
	p2, err := run(t, sb, tool, `{"rationale":"r","action":"datasets","limit":1,"cursor":"`+p1["next_cursor"].(string)+`"}`)
	if err != nil {
		t.Fatalf("datasets page 2: %v", err)
	}
	if got := append(ids(p1), ids(p2)...); !cmp.Equal(got, []string{"marketing", "sales"}) || p2["next_cursor"] != "" {
		t.Errorf("datasets = %v (next %v), want marketing, sales", got, p2["next_cursor"])
	}

	tables, err := run(t, sb, tool, `{"rationale":"r","action":"tables","dataset":"marketing"}`)
	if err != nil || !cmp.Equal(ids(tables), []string{"ad_spend", "web_sessions"}) {
		t.Errorf("tables = %v, %v", tables, err)
	}

	table, err := run(t, sb, tool, `{"rationale":"r","action":"table","dataset":"marketing","table":"web_sessions"}`)
	if err != nil {
		t.Fatalf("table: %v", err)
	}
	fields := table["fields"].([]any)
	utm := fields[len(fields)-1].(map[string]any)
	if table["num_rows"] != 12.0 || table["num_bytes"].(float64) <= 0 || len(fields) != 8 ||
		utm["type"] != "RECORD" || len(utm["fields"].([]any)) != 3 || fields[0].(map[string]any)["mode"] != "REQUIRED" ||
		fields[0].(map[string]any)["description"] != "GA4 session id" {
		t.Errorf("table = %v", table)
	}

	empty, err := providertest.Run(t, tool, sb.Accounts[1], SandboxToken, `{"rationale":"r","action":"datasets"}`)
	if err != nil || len(empty.(map[string]any)["items"].([]any)) != 0 {
		t.Errorf("empty project datasets = %v, %v", empty, err)
	}

	_, err = run(t, sb, tool, `{"rationale":"r","action":"table","dataset":"marketing","table":"leads"}`)
	var e *gtmgate.Error
	if !errors.As(err, &e) || e.Code != gtmgate.EUpstream || !strings.Contains(e.Message, "Not found: Table") {
		t.Errorf("missing table: err = %v, want UPSTREAM_ERROR with Google's message", err)
	}
	if _, err := run(t, sb, tool, `{"rationale":"r","action":"tables"}`); gtmgate.ErrorCode(err) != gtmgate.EValidation {
		t.Errorf("tables without dataset: err = %v, want VALIDATION_ERROR", err)
	}
}
