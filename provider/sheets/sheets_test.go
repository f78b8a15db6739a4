package sheets

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/googleapi/googleapitest"
	"github.com/gtmgate/gtmgate/provider/providertest"
	"github.com/gtmgate/gtmgate/provider/upstream"
	"github.com/gtmgate/gtmgate/registry"
)

func setup(t *testing.T) (*Sandbox, gtmgate.Tool) {
	t.Helper()
	sb := NewSandbox()
	opts := Options(providertest.Serve(t, sb.ProviderSandbox))
	opts.Backoff = time.Millisecond
	return sb, Tools(upstream.MustNew(opts))[0]
}

func run(t *testing.T, sb *Sandbox, tool gtmgate.Tool, input string) (map[string]any, error) {
	t.Helper()
	out, err := providertest.Run(t, tool, sb.Accounts[0], SandboxToken, input)
	if err != nil {
		return nil, err
	}
	return out.(map[string]any), nil
}

const sheetID = `"spreadsheet_id":"` + SandboxSpreadsheetID + `"`

func TestGet(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, args string
		wantRange  string
		want       [][]any
	}{
		{"cells", `"range":"Pipeline!A1:C3"`, "Pipeline!A1:C3",
			[][]any{{"Account", "Stage", "Amount"}, {"Northwind Traders", "closed_won", "48000"}, {"Globex", "negotiation", "120000"}}},
		{"unformatted", `"range":"Pipeline!C2:C3","value_render_option":"UNFORMATTED_VALUE"`, "Pipeline!C2:C3",
			[][]any{{48000.0}, {120000.0}}},
		{"columns", `"range":"Pipeline!A1:B2","major_dimension":"COLUMNS"`, "Pipeline!A1:B2",
			[][]any{{"Account", "Northwind Traders"}, {"Stage", "closed_won"}}},
		{"quoted sheet name", `"range":"'Lead list'!A2:B"`, "'Lead list'!A2:B1000",
			[][]any{{"Ada Park", "ada@globex.example"}, {"Tom Reyes", "tom@initech.example"}}},
		{"whole columns", `"range":"'Lead list'!C:D"`, "'Lead list'!C1:D1000",
			[][]any{{"Company", "Source"}, {"Globex", "webinar"}, {"Initech", "paid_search"}}},
		{"booleans formatted", `"range":"Pipeline!F2:F3"`, "Pipeline!F2:F3", [][]any{{"TRUE"}, {"FALSE"}}},
		{"empty area", `"range":"Pipeline!H1:J5"`, "Pipeline!H1:J5", [][]any{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sb, tool := setup(t)
			out, err := run(t, sb, tool, `{"rationale":"r","action":"get",`+sheetID+`,`+tc.args+`}`)
			if err != nil {
				t.Fatalf("get: %v", err)
			}
			if out["range"] != tc.wantRange {
				t.Errorf("range = %v, want %s", out["range"], tc.wantRange)
			}
			var got [][]any
			b, _ := json.Marshal(out["values"])
			_ = json.Unmarshal(b, &got)
			if got == nil {
				got = [][]any{}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("values (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAppendPersists(t *testing.T) {
	t.Parallel()
	sb, tool := setup(t)
	out, err := run(t, sb, tool, `{"rationale":"r","action":"append",`+sheetID+`,"range":"Pipeline!A:F",
		"values":[["Soylent Foods","proposal","64000","sam@acme.example","2025-12-20","FALSE"],["Acme Robotics","qualification",22000]]}`)
	if err != nil {
		t.Fatalf("append: %v", err)
	}
	want := map[string]any{"table_range": "Pipeline!A1:F6", "updated_range": "Pipeline!A7:F8",
		"updated_rows": 2.0, "updated_columns": 6.0, "updated_cells": 9.0}
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("append result (-want +got):\n%s", diff)
	}
	got, err := run(t, sb, tool, `{"rationale":"r","action":"get",`+sheetID+`,"range":"Pipeline!A7:C8","value_render_option":"UNFORMATTED_VALUE"}`)
	if err != nil {
		t.Fatalf("get: %v", err)
	}
	if diff := cmp.Diff([]any{[]any{"Soylent Foods", "proposal", 64000.0}, []any{"Acme Robotics", "qualification", 22000.0}}, got["values"]); diff != "" {
		t.Errorf("appended rows (-want +got):\n%s", diff)
	}
}

func TestErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, input string
		fail        int
		wantCode    string
		wantStatus  int
		wantMessage string
	}{
		{"unknown sheet", `{"rationale":"r","action":"get",` + sheetID + `,"range":"Forecast!A1:B2"}`, 0, gtmgate.EUpstream, 400, "Unable to parse range: Forecast!A1:B2"},
		{"unknown spreadsheet", `{"rationale":"r","action":"get","spreadsheet_id":"1NoSuchSheet_abcdefgh","range":"A1:B2"}`, 0, gtmgate.EUpstream, 404, "Requested entity was not found"},
		{"bad range", `{"rationale":"r","action":"get",` + sheetID + `,"range":"Pipeline!A1:1B"}`, 0, gtmgate.EValidation, 0, "range"},
		{"unquoted spaced name", `{"rationale":"r","action":"get",` + sheetID + `,"range":"Lead list!A1"}`, 0, gtmgate.EValidation, 0, "must be quoted"},
		{"values required", `{"rationale":"r","action":"append",` + sheetID + `,"range":"Pipeline!A:F"}`, 0, gtmgate.EValidation, 0, "values is required"},
		{"append not retried", `{"rationale":"r","action":"append",` + sheetID + `,"range":"Pipeline!A:F","values":[["x"]]}`, http.StatusInternalServerError, gtmgate.EUpstream, 500, "Injected fault"},
		{"read fails after two 503s", `{"rationale":"r","action":"get",` + sheetID + `,"range":"Pipeline"}`, http.StatusServiceUnavailable, gtmgate.EUpstream, 503, "Injected fault"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sb, tool := setup(t)
			if tc.fail != 0 {
				n := 1
				if tc.fail == http.StatusServiceUnavailable {
					n = 2
				}
				sb.FailNext(tc.fail, n)
			}
			_, err := run(t, sb, tool, tc.input)
			var e *gtmgate.Error
			if !errors.As(err, &e) || e.Code != tc.wantCode || !strings.Contains(e.Message, tc.wantMessage) {
				t.Fatalf("err = %v, want %s containing %q", err, tc.wantCode, tc.wantMessage)
			}
			if d, _ := e.Detail.(gtmgate.UpstreamDetail); tc.wantStatus != 0 && d.Status != tc.wantStatus {
				t.Errorf("detail = %#v, want status %d", e.Detail, tc.wantStatus)
			}
		})
	}
}

func TestAppendNotRetriedLeavesSheetUnchanged(t *testing.T) {
	t.Parallel()
	sb, tool := setup(t)
	sb.FailNext(http.StatusInternalServerError, 1)
	if _, err := run(t, sb, tool, `{"rationale":"r","action":"append",`+sheetID+`,"range":"Pipeline!A:F","values":[["x"]]}`); err == nil {
		t.Fatal("append succeeded: it was retried after a 500")
	}
	out, err := run(t, sb, tool, `{"rationale":"r","action":"get",`+sheetID+`,"range":"Pipeline!A7:A9"}`)
	if err != nil || len(out["values"].([]any)) != 0 {
		t.Errorf("after failed append: %v, %v; want no new rows", out, err)
	}
}

// TestUsageLimits: Sheets' usage limits sent as 403 are RATE_LIMITED, not a
// refused token.
func TestUsageLimits(t *testing.T) {
	t.Parallel()
	sb, tool := setup(t)
	googleapitest.CheckUsageLimits(t, sb, tool, sb.Accounts[0], SandboxToken, `{"rationale":"r","action":"get",`+sheetID+`,"range":"Pipeline!A1"}`)
}

func TestReadRetriedOnceAfter500(t *testing.T) {
	t.Parallel()
	sb, tool := setup(t)
	sb.FailNext(http.StatusInternalServerError, 1)
	if _, err := run(t, sb, tool, `{"rationale":"r","action":"get",`+sheetID+`,"range":"Pipeline!A1"}`); err != nil {
		t.Errorf("get after one 500: %v", err)
	}
}

// refreshedBadToken refreshes into another refused token, so the second
// 401 reaches the caller as UPSTREAM_ERROR.
type refreshedBadToken string

func (b refreshedBadToken) Token(context.Context) (string, error) { return string(b), nil }

func (b refreshedBadToken) Refresh(context.Context, string) (string, error) {
	return string(b) + "-refreshed", nil
}

func TestBadToken(t *testing.T) {
	t.Parallel()
	sb, tool := setup(t)
	const bad = "ya29.sheets-bad-token"
	input := `{"rationale":"r","action":"get",` + sheetID + `,"range":"Pipeline!A1"}`
	entry, _ := registry.MustNew(tool).Tool(tool.Name)
	_, action, err := entry.Validate(json.RawMessage(input))
	if err != nil {
		t.Fatal(err)
	}
	call := &gtmgate.Call{Tool: entry.Tool, Action: action, Input: json.RawMessage(input), Account: sb.Accounts[0], Token: refreshedBadToken(bad)}
	_, err = tool.Run(context.Background(), call)
	var e *gtmgate.Error
	if !errors.As(err, &e) || e.Code != gtmgate.EUpstream {
		t.Fatalf("err = %v, want UPSTREAM_ERROR", err)
	}
	d, _ := e.Detail.(gtmgate.UpstreamDetail)
	if d.Status != 401 || strings.Contains(d.Body+e.Message, bad) || !strings.Contains(e.Message, "invalid authentication credentials") {
		t.Errorf("message %q detail %#v: want 401 with Google's message and no token", e.Message, d)
	}
	if _, err := providertest.Run(t, tool, sb.Accounts[0], bad, input); gtmgate.ErrorCode(err) != gtmgate.EReauthRequired {
		t.Errorf("static bad token: err = %v, want REAUTH_REQUIRED", err)
	}
}
