package content

import (
	"fmt"
	"strings"
)

// Signal is a tree's content usage signal (contentsignals.org): whether its
// content may be used for search, as input to AI answers and to train AI
// models. It is sent as the Content-Signal header of every response of the
// tree and as robots.txt's Content-Signal line.
//
// The fields say what is withheld, so the zero value, which permits all
// three, is what a tree sends unless told otherwise.
type Signal struct {
	NoSearch, NoAITrain, NoAIInput bool
}

// signalKeys are the signal's keys in the order String writes them (the
// order the site has always sent), with what each permits in words.
var signalKeys = []struct{ key, use string }{
	{"search", "search indexing"},
	{"ai-train", "AI training"},
	{"ai-input", "AI input"},
}

// withheld returns the fields of s in signalKeys' order.
func (s Signal) withheld() [3]bool { return [3]bool{s.NoSearch, s.NoAITrain, s.NoAIInput} }

// String renders s as a Content-Signal value:
// "search=yes, ai-train=yes, ai-input=yes".
func (s Signal) String() string {
	no := s.withheld()
	parts := make([]string, len(signalKeys))
	for i, k := range signalKeys {
		parts[i] = k.key + "=" + yesNo(!no[i])
	}
	return strings.Join(parts, ", ")
}

// PermitsAll reports whether s withholds nothing.
func (s Signal) PermitsAll() bool { return s == Signal{} }

// Withheld names, in words, the uses s does not permit ("AI training"), in
// the order String writes them.
func (s Signal) Withheld() []string {
	var out []string
	for i, no := range s.withheld() {
		if no {
			out = append(out, signalKeys[i].use)
		}
	}
	return out
}

// ParseSignal reads a Content-Signal value such as "search=yes,
// ai-input=yes, ai-train=no": each of search, ai-train and ai-input exactly
// once, set to yes or no, separated by commas, in any order (keys and values
// are case-insensitive, spaces around them are ignored). Anything else is an
// error that says what is wrong.
func ParseSignal(v string) (Signal, error) {
	var s Signal
	fields := map[string]*bool{"search": &s.NoSearch, "ai-train": &s.NoAITrain, "ai-input": &s.NoAIInput}
	seen := map[string]bool{}
	for _, part := range strings.Split(v, ",") {
		key, value, ok := strings.Cut(part, "=")
		key, value = strings.ToLower(strings.TrimSpace(key)), strings.ToLower(strings.TrimSpace(value))
		if !ok || key == "" {
			return Signal{}, fmt.Errorf("%q is not key=yes or key=no", strings.TrimSpace(part))
		}
		dst, known := fields[key]
		if !known {
			return Signal{}, fmt.Errorf("unknown key %q (the keys are search, ai-input and ai-train)", key)
		}
		if seen[key] {
			return Signal{}, fmt.Errorf("%s is given twice", key)
		}
		seen[key] = true
		switch value {
		case "yes":
			*dst = false
		case "no":
			*dst = true
		default:
			return Signal{}, fmt.Errorf("%s=%q: the value must be yes or no", key, value)
		}
	}
	var missing []string
	for _, k := range signalKeys {
		if !seen[k.key] {
			missing = append(missing, k.key)
		}
	}
	if len(missing) > 0 {
		return Signal{}, fmt.Errorf("missing %s: give all three of search, ai-input and ai-train, e.g. %q",
			strings.Join(missing, " and "), "search=yes, ai-input=yes, ai-train=no")
	}
	return s, nil
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
