package docexamples

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gtmgate/gtmgate/jsonvalue"
)

// Elided is what a page writes for what varies from run to run: as a whole
// value it stands for any value, inside a string for any run of characters,
// and as an array's last element for any further elements.
const Elided = "…"

// LeftOut is the key a page writes for fields it leaves out; its value is
// a note for the reader and is not compared.
const LeftOut = "..."

// CheckAnswer reports how got, the server's answer, differs from shown,
// the answer a page shows. Every value shown must be in the real answer
// with the same JSON type and value, but for the elisions of the package
// comment: a key "...", a value "…", a "…" inside a string and a last
// array element "…". Fields the page does not show are not compared.
func CheckAnswer(shown, got []byte) error {
	s, err := jsonvalue.Decode(shown)
	if err != nil {
		return fmt.Errorf("the answer on the page is not JSON: %w", err)
	}
	g, err := jsonvalue.Decode(got)
	if err != nil {
		return fmt.Errorf("the server's answer is not JSON: %w", err)
	}
	var diffs []string
	compare(s, g, "", &diffs)
	if len(diffs) > 0 {
		return errors.New(strings.Join(diffs, "; "))
	}
	return nil
}

func compare(shown, got any, path string, diffs *[]string) {
	differ := func(format string, args ...any) {
		*diffs = append(*diffs, at(path)+": "+fmt.Sprintf(format, args...))
	}
	if shown == Elided {
		return
	}
	if kind(shown) != kind(got) {
		differ("the page shows %s, the server sent %s", typed(shown), typed(got))
		return
	}
	switch s := shown.(type) {
	case map[string]any:
		g := got.(map[string]any)
		// In key order, so that a test's message does not change between runs.
		for _, k := range slices.Sorted(maps.Keys(s)) {
			if k == LeftOut {
				continue
			}
			gv, ok := g[k]
			if !ok {
				*diffs = append(*diffs, at(path+"."+k)+": the page shows it, the server does not send it")
				continue
			}
			compare(s[k], gv, path+"."+k, diffs)
		}
	case []any:
		g := got.([]any)
		more := len(s) > 0 && s[len(s)-1] == Elided
		if more {
			s = s[:len(s)-1]
		}
		switch {
		case more && len(g) < len(s):
			differ("the page shows at least %d elements, the server sent %d", len(s), len(g))
			return
		case !more && len(g) != len(s):
			differ("the page shows %d elements, the server sent %d (end the page's array with %q if more may follow)", len(s), len(g), Elided)
			return
		}
		for i := range s {
			compare(s[i], g[i], fmt.Sprintf("%s[%d]", path, i), diffs)
		}
	case string:
		if !matches(s, got.(string)) {
			differ("the page shows %s, the server sent %s", brief(s), brief(got))
		}
	case json.Number:
		if !sameNumber(s, got.(json.Number)) {
			differ("the page shows %s, the server sent %s", s, got)
		}
	default: // bool or null
		if shown != got {
			differ("the page shows %s, the server sent %s", brief(shown), brief(got))
		}
	}
}

// matches reports whether a real string matches a shown one, where each
// "…" stands for any run of characters: "tok_…" matches "tok_8f3a9c".
func matches(shown, got string) bool {
	parts := strings.Split(shown, Elided)
	if len(parts) == 1 {
		return shown == got
	}
	rest, ok := strings.CutPrefix(got, parts[0])
	if !ok {
		return false
	}
	last := parts[len(parts)-1]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(rest, p)
		if i < 0 {
			return false
		}
		rest = rest[i+len(p):]
	}
	return strings.HasSuffix(rest, last)
}

// sameNumber reports whether two JSON numbers are the same number, so
// that 1003.0 equals 1003 and 1893456000 is compared exactly.
func sameNumber(a, b json.Number) bool {
	if a == b {
		return true
	}
	ai, aerr := a.Int64()
	bi, berr := b.Int64()
	if aerr == nil && berr == nil {
		return ai == bi
	}
	af, aerr := a.Float64()
	bf, berr := b.Float64()
	return aerr == nil && berr == nil && af == bf
}

// kind names a value's JSON type.
func kind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	}
	return "null"
}

// typed is a value and its JSON type, for a difference's message:
// "three" (a string), 3 (a number), an object.
func typed(v any) string {
	switch v.(type) {
	case map[string]any, []any, nil:
		return kind(v)
	}
	return brief(v) + " (" + kind(v) + ")"
}

// brief is a value as JSON, cut short, for a difference's message.
func brief(v any) string {
	var b strings.Builder
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	e.Encode(v)
	return truncate(strings.TrimSuffix(b.String(), "\n"), 120)
}

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

func at(path string) string {
	if path == "" {
		return "the answer"
	}
	return strings.TrimPrefix(path, ".")
}
