package docexamples

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	page := strings.Join([]string{
		"# Page",
		"```sh",
		"curl -s $GTMGATE_GATEWAY_URL/health",
		"```",
		"```json answer",
		`{"status":"ok"}`,
		"```",
		"```sh expect=202",
		"curl -s x",
		"```",
		"```sh not-run: needs a real Google Ads account",
		"gtmgate admin ...",
		"```",
		"- a list item:",
		"  ```bash tested:rest",
		"  curl -s y",
		"    indented",
		"  ```",
		"```json",
		`{"request":"not an answer"}`,
		"```",
		"```go",
		"not a shell example",
		"```",
	}, "\n")
	got, err := Parse("p.md", []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	want := []Example{
		{Page: "p.md", Line: 2, Script: "curl -s $GTMGATE_GATEWAY_URL/health", Answer: `{"status":"ok"}`},
		{Page: "p.md", Line: 8, Script: "curl -s x", Expect: 202},
		{Page: "p.md", Line: 11, Script: "gtmgate admin ...", NotRun: "needs a real Google Ads account"},
		{Page: "p.md", Line: 15, Script: "curl -s y\n  indented", RunBy: "rest"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d examples: %+v", len(got), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("example %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
	if got[0].Runnable() == false || got[2].Runnable() || got[3].Runnable() {
		t.Error("Runnable: only unmarked examples and expect= ones run here")
	}
}

func TestParseRefusesWhatWouldTurnACheckOff(t *testing.T) {
	for name, page := range map[string]string{
		"unknown mark":       "```sh exepct=200\nx\n```",
		"not-run, no reason": "```sh not-run:\nx\n```",
		"bad status":         "```sh expect=20\nx\n```",
		"orphan answer":      "```json answer\n{}\n```",
		"two answers":        "```sh\nx\n```\n```json answer\n{}\n```\n```json answer\n{}\n```",
		"unclosed":           "```sh\nx",
	} {
		if _, err := Parse("p.md", []byte(page)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestCheckAnswer(t *testing.T) {
	for _, tc := range []struct {
		name, shown, got, want string
	}{
		{"fields shown are there", `{"ok":true,"tool":"x","result":{"...":"left out"}}`, `{"ok":true,"tool":"crm","result":{"a":1},"extra":2}`, ""},
		{"a field the server does not send", `{"tenant":{"id":"x"}}`, `{"id":"x"}`, "tenant: the page shows it"},
		{"nested field missing", `{"error":{"code":"X","hint":"h"}}`, `{"error":{"code":"X"}}`, "error.hint: the page shows it"},
		{"code compared", `{"error":{"code":"UPSTREAM_ERROR"}}`, `{"error":{"code":"BAD_REQUEST"}}`, "error.code: the page shows UPSTREAM_ERROR"},
		{"ok compared", `{"ok":true}`, `{"ok":false}`, "ok: the page shows true"},
		{"JSON-RPC code compared", `{"error":{"code":-32601}}`, `{"error":{"code":-32700}}`, "error.code: the page shows -32601"},
		{"a one-time code is an example", `{"code":"gtmcc_Fmo_h9Bvx"}`, `{"code":"gtmcc_RAjYkMw9"}`, ""},
		{"other values are examples", `{"id":"tok_1","n":3}`, `{"id":"tok_9","n":7}`, ""},
		{"array first element", `{"items":[{"id":"a"}]}`, `{"items":[{"id":"b","x":1},{"y":2}]}`, ""},
		{"array element lacks a field", `{"items":[{"id":"a","name":"n"}]}`, `{"items":[{"id":"b"}]}`, "items[0].name"},
		{"array shown, none sent", `{"items":[{"id":"a"}]}`, `{"items":[]}`, "items: the page shows elements"},
		{"object shown, string sent", `{"tenant":{"id":"a"}}`, `{"tenant":"a"}`, "tenant: the page shows an object"},
		{"not JSON", `{}`, `<html>`, "the server's answer is not JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckAnswer([]byte(tc.shown), []byte(tc.got))
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("unexpected difference: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}
