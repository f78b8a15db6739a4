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
		// Values are compared, with their JSON types.
		{"equal answers", `{"status":"ok","n":3,"ok":true,"x":null}`, `{"status":"ok","n":3,"ok":true,"x":null}`, ""},
		{"fields left unshown", `{"ok":true}`, `{"ok":true,"tool":"crm","extra":2}`, ""},
		{"another string", `{"status":"ok"}`, `{"status":"down"}`, `status: the page shows "ok", the server sent "down"`},
		{"a number shown, a string sent", `{"n":3}`, `{"n":"three"}`, `n: the page shows 3 (a number), the server sent "three" (a string)`},
		{"a string shown, a number sent", `{"n":"3"}`, `{"n":3}`, `n: the page shows "3" (a string), the server sent 3 (a number)`},
		{"another number", `{"calls":3}`, `{"calls":4}`, "calls: the page shows 3, the server sent 4"},
		{"the same number written otherwise", `{"ms":1003.0,"big":1893456000}`, `{"ms":1003,"big":1.893456e9}`, ""},
		{"a large number compared exactly", `{"n":9007199254740993}`, `{"n":9007199254740992}`, "n: the page shows 9007199254740993"},
		{"another boolean", `{"ok":true}`, `{"ok":false}`, "ok: the page shows true, the server sent false"},
		{"null shown, a value sent", `{"x":null}`, `{"x":0}`, "x: the page shows null, the server sent 0 (a number)"},
		{"an error code", `{"error":{"code":"UPSTREAM_ERROR"}}`, `{"error":{"code":"BAD_REQUEST"}}`, `error.code: the page shows "UPSTREAM_ERROR"`},
		{"a JSON-RPC code", `{"error":{"code":-32601}}`, `{"error":{"code":-32700}}`, "error.code: the page shows -32601"},
		{"object shown, string sent", `{"tenant":{"id":"a"}}`, `{"tenant":"a"}`, `tenant: the page shows an object, the server sent "a" (a string)`},
		{"whole answer of another type", `{"a":1}`, `[1]`, "the answer: the page shows an object, the server sent an array"},

		// Keys.
		{"a field the server does not send", `{"tenant":{"id":"x"}}`, `{"id":"x"}`, "tenant: the page shows it, the server does not send it"},
		{"nested field missing", `{"error":{"code":"X","hint":"h"}}`, `{"error":{"code":"X"}}`, "error.hint: the page shows it"},
		{"an elided field must still be sent", `{"id":"…"}`, `{}`, "id: the page shows it, the server does not send it"},
		{"key ... leaves fields out", `{"ok":true,"result":{"...":"the rows"}}`, `{"ok":true,"result":{"a":1,"b":[2]}}`, ""},
		{"key ... does not excuse the fields shown", `{"a":1,"...":"more"}`, `{"a":2,"b":3}`, "a: the page shows 1, the server sent 2"},

		// "…" as a whole value: any value of any type.
		{"elided string", `{"id":"…"}`, `{"id":"tok_9"}`, ""},
		{"elided number", `{"duration_ms":"…"}`, `{"duration_ms":4.2}`, ""},
		{"elided object", `{"result":"…"}`, `{"result":{"a":1}}`, ""},
		{"elided null", `{"x":"…"}`, `{"x":null}`, ""},
		{"three dots are not an elision", `{"id":"..."}`, `{"id":"tok_9"}`, `id: the page shows "...", the server sent "tok_9"`},

		// "…" inside a string: any run of characters.
		{"prefix", `{"id":"tok_…"}`, `{"id":"tok_8f3a9c"}`, ""},
		{"prefix differs", `{"id":"tok_…"}`, `{"id":"apr_8f3a9c"}`, `id: the page shows "tok_…", the server sent "apr_8f3a9c"`},
		{"prefix with nothing after", `{"id":"tok_…"}`, `{"id":"tok_"}`, ""},
		{"suffix", `{"url":"…/callback"}`, `{"url":"http://127.0.0.1:4242/callback"}`, ""},
		{"suffix differs", `{"url":"…/callback"}`, `{"url":"http://x/cb"}`, "url: the page shows"},
		{"middle", `{"m":"GET /api/v1/demo/approvals/apr_… or the tool"}`, `{"m":"GET /api/v1/demo/approvals/apr_1f2e or the tool"}`, ""},
		{"two elisions", `{"u":"http://…/connect/…"}`, `{"u":"http://127.0.0.1:9/connect/Xq2k"}`, ""},
		{"parts in order", `{"u":"a…b…c"}`, `{"u":"acb"}`, "u: the page shows"},
		{"prefix and suffix do not overlap", `{"u":"ab…ba"}`, `{"u":"aba"}`, "u: the page shows"},
		{"a prefix only matches strings", `{"n":"1…"}`, `{"n":12}`, `n: the page shows "1…" (a string), the server sent 12 (a number)`},

		// Arrays: element by element; a last "…" lets more follow.
		{"array equal", `{"s":["a","b"]}`, `{"s":["a","b"]}`, ""},
		{"array element differs", `{"s":["a","b"]}`, `{"s":["a","c"]}`, `s[1]: the page shows "b", the server sent "c"`},
		{"array longer than shown", `{"s":["a"]}`, `{"s":["a","b"]}`, "s: the page shows 1 elements, the server sent 2"},
		{"array shorter than shown", `{"s":["a","b"]}`, `{"s":["a"]}`, "s: the page shows 2 elements, the server sent 1"},
		{"empty array shown", `{"s":[]}`, `{"s":["a"]}`, "s: the page shows 0 elements, the server sent 1"},
		{"last … lets more follow", `{"items":[{"id":"a"},"…"]}`, `{"items":[{"id":"a","x":1},{"id":"b"}]}`, ""},
		{"last … lets none follow", `{"items":[{"id":"a"},"…"]}`, `{"items":[{"id":"a"}]}`, ""},
		{"last … alone: any elements", `{"items":["…"]}`, `{"items":[]}`, ""},
		{"last … still needs the shown ones", `{"items":[{"id":"a"},"…"]}`, `{"items":[]}`, "items: the page shows at least 1 elements, the server sent 0"},
		{"shown elements compared by index", `{"items":[{"id":"a"},"…"]}`, `{"items":[{"id":"b"},{"id":"a"}]}`, `items[0].id: the page shows "a", the server sent "b"`},
		{"element lacks a field", `{"items":[{"id":"a","name":"n"}]}`, `{"items":[{"id":"a"}]}`, "items[0].name: the page shows it"},
		{"an object of ... matches any object", `{"items":[{"id":"a"},{"...":"the others"}]}`, `{"items":[{"id":"a"},{"id":"b"}]}`, ""},

		{"all differences reported", `{"b":"x","a":1}`, `{"a":2,"b":"y"}`, `a: the page shows 1, the server sent 2; b: the page shows "x", the server sent "y"`},
		{"not JSON", `{}`, `<html>`, "the server's answer is not JSON"},
		{"page not JSON", `{"a":1,}`, `{}`, "the answer on the page is not JSON"},
		{"two values on the page", `{} {}`, `{}`, "the answer on the page is not JSON"},
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
