package docexamples

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// compared are the fields whose values must be equal, not just present:
// they say what happened.
var compared = []string{"ok", "code"}

// CheckAnswer reports how got, the server's answer, differs from shown,
// the answer a page shows: a key shown and missing, a compared field with
// another value, or another JSON type. A shown key "..." stands for fields
// left out. An array shown is checked against the first element of the
// real one, which must then have one.
func CheckAnswer(shown, got []byte) error {
	var s, g any
	if err := json.Unmarshal(shown, &s); err != nil {
		return fmt.Errorf("the answer on the page is not JSON: %w", err)
	}
	if err := json.Unmarshal(got, &g); err != nil {
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
	switch s := shown.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			*diffs = append(*diffs, fmt.Sprintf("%s: the page shows an object, the server sent %s", at(path), kind(got)))
			return
		}
		for k, sv := range s {
			if k == "..." {
				continue
			}
			gv, ok := g[k]
			switch {
			case !ok:
				*diffs = append(*diffs, fmt.Sprintf("%s: the page shows it, the server does not send it", at(path+"."+k)))
			case slices.Contains(compared, k) && isScalar(sv) && !isExampleCode(k, sv):
				if fmt.Sprint(sv) != fmt.Sprint(gv) {
					*diffs = append(*diffs, fmt.Sprintf("%s: the page shows %v, the server sent %v", at(path+"."+k), sv, gv))
				}
			default:
				compare(sv, gv, path+"."+k, diffs)
			}
		}
	case []any:
		g, ok := got.([]any)
		switch {
		case !ok:
			*diffs = append(*diffs, fmt.Sprintf("%s: the page shows an array, the server sent %s", at(path), kind(got)))
		case len(s) > 0 && len(g) == 0:
			*diffs = append(*diffs, fmt.Sprintf("%s: the page shows elements, the server sent none", at(path)))
		case len(s) > 0:
			compare(s[0], g[0], path+"[0]", diffs)
		}
	}
	// A scalar shown is an example value: its presence was checked above.
}

// isExampleCode reports whether a shown "code" is an example value, not
// an outcome: a one-time code such as a connect code ("gtmcc_…") varies
// from run to run, while error codes (UPSTREAM_ERROR) and JSON-RPC codes
// (-32601) say what happened.
func isExampleCode(k string, v any) bool {
	s, ok := v.(string)
	return k == "code" && ok && strings.ToUpper(s) != s
}

func isScalar(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return false
	}
	return true
}

func kind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T %v", v, v)
}

func at(path string) string {
	if path == "" {
		return "the answer"
	}
	return strings.TrimPrefix(path, ".")
}
