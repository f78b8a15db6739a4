// Package docexamples finds the shell examples of the documentation pages,
// so the docs tests can run each one against a real server and check its
// answer. A page says, in a fence's info string, how its example is
// checked:
//
//	```sh                       run; every curl must answer 2xx or 3xx
//	```sh expect=202            run; the block's last curl must answer 202
//	```sh not-run: <reason>     not run, for the reason shown on the page
//	```sh tested:<name>         run by the test that owns it (TestConnectRecipes)
//	```json answer              the answer the page shows for the example above
//
// A shown answer is compared with the real one by CheckAnswer: every value
// it shows must be in the real answer, with the same JSON type and value
// (numbers as numbers: 1003.0 equals 1003, 3 does not equal "three").
// Fields it does not show are not compared, so a page may leave fields
// out but cannot show one the server does not send, or show it otherwise.
// What varies from run to run (ids, times, secrets, durations, ports) is
// elided, in four ways:
//
//	"...": "note"         a key "..." marks fields left out; its value is a note, not compared
//	"id": "…"             a value "…" (U+2026) stands for any value, of any type
//	"id": "tok_…"         "…" inside a string stands for any run of characters:
//	                      "tok_…" is a prefix, "…/callback" a suffix, "a…b" both
//	["a", "…"]            a last array element "…" lets more elements follow;
//	                      without it the arrays have the same length
//
// Array elements are compared by index. An elided key must still be sent:
// "…" stands for its value, not for its absence.
package docexamples

import (
	"fmt"
	"strconv"
	"strings"
)

// Example is one shell example of a page.
type Example struct {
	Page string
	// Line is the line of the opening fence, from 1.
	Line   int
	Script string
	// NotRun is why the docs tests do not run it ("" when they do).
	NotRun string
	// RunBy names the test that runs it instead (tested:<name>).
	RunBy string
	// Expect is the status the block's last curl must answer (0: any
	// 2xx or 3xx).
	Expect int
	// Answer is the JSON the page shows as its answer ("" when none).
	Answer string
}

// Runnable reports whether the docs tests run the example themselves.
func (e Example) Runnable() bool { return e.NotRun == "" && e.RunBy == "" }

// String names the example as page:line.
func (e Example) String() string { return fmt.Sprintf("%s:%d", e.Page, e.Line) }

// shells are the fence languages of shell examples.
var shells = map[string]bool{"sh": true, "bash": true, "shell": true, "console": true}

// Parse returns the shell examples of a page's markdown, with their marks.
// A mark it does not know, a not-run without a reason or an answer with no
// example before it is an error: a typo must not turn a check off.
func Parse(page string, src []byte) ([]Example, error) {
	var out []Example
	lines := strings.Split(string(src), "\n")
	for i := 0; i < len(lines); i++ {
		fence, info, ok := openFence(lines[i])
		if !ok {
			continue
		}
		start := i
		indent := len(lines[i]) - len(strings.TrimLeft(lines[i], " "))
		var body []string
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != fence; i++ {
			l := lines[i]
			if n := len(l) - len(strings.TrimLeft(l, " ")); n >= indent {
				l = l[indent:]
			} else {
				l = strings.TrimLeft(l, " ")
			}
			body = append(body, l)
		}
		if i == len(lines) {
			return nil, fmt.Errorf("%s:%d: code fence not closed", page, start+1)
		}
		lang, marks, _ := strings.Cut(info, " ")
		marks = strings.TrimSpace(marks)
		switch {
		case shells[lang]:
			e := Example{Page: page, Line: start + 1, Script: strings.Join(body, "\n")}
			if err := e.mark(marks); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", page, start+1, err)
			}
			out = append(out, e)
		case lang == "json" && marks == "answer":
			if len(out) == 0 || out[len(out)-1].Answer != "" {
				return nil, fmt.Errorf("%s:%d: a json answer with no shell example of its own before it", page, start+1)
			}
			out[len(out)-1].Answer = strings.Join(body, "\n")
		}
	}
	return out, nil
}

// openFence reports whether line opens a fenced block, and its fence and
// info string.
func openFence(line string) (fence, info string, ok bool) {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 8 || !strings.HasPrefix(t, "```") {
		return "", "", false
	}
	n := len(t) - len(strings.TrimLeft(t, "`"))
	return t[:n], strings.TrimSpace(t[n:]), true
}

// mark reads an example's marks from its fence's info string.
func (e *Example) mark(marks string) error {
	if reason, ok := strings.CutPrefix(marks, "not-run:"); ok {
		if e.NotRun = strings.TrimSpace(reason); e.NotRun == "" {
			return fmt.Errorf("not-run needs a reason")
		}
		return nil
	}
	for _, m := range strings.Fields(marks) {
		switch k, v, _ := strings.Cut(m, "="); {
		case strings.HasPrefix(m, "tested:") && len(m) > len("tested:"):
			e.RunBy = strings.TrimPrefix(m, "tested:")
		case k == "expect":
			n, err := strconv.Atoi(v)
			if err != nil || n < 100 || n > 599 {
				return fmt.Errorf("expect=%q is not an HTTP status", v)
			}
			e.Expect = n
		default:
			return fmt.Errorf("unknown mark %q (marks: expect=NNN, not-run: reason, tested:name)", m)
		}
	}
	return nil
}
