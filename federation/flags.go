package federation

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// Kinds of flag raised on a tool definition.
const (
	FlagInstruction = "instruction"
	FlagHidden      = "hidden_characters"
	FlagURL         = "outside_url"
)

// Flag is something suspicious in a tool definition's text: an instruction
// to the model, hidden characters, or a URL to another host (a possible
// exfiltration channel).
type Flag struct {
	Kind string `json:"kind"`
	// Text is the part flagged, hidden characters shown as U+XXXX.
	Text string `json:"text"`
}

// instructionPhrases are words aimed at the model rather than describing a tool.
var instructionPhrases = regexp.MustCompile(`(?i)\b(ignore (all |any )?(previous|prior|above|earlier)|disregard (all |any )?(previous|prior|the above)|you must|you should always|do not (tell|mention|reveal|inform)|don't (tell|mention|reveal)|without telling|system prompt|new instructions|before (using|calling) (this|any other) tool|send (it|them|the \w+) to)\b|<\s*/?\s*(important|system|instructions?)\s*>`)

// urlPattern finds http(s) URLs.
var urlPattern = regexp.MustCompile(`(?i)\bhttps?://[^\s"'<>()\x60]+`)

// hidden reports characters a reader cannot see: zero-width ones, bidi
// controls, tag characters (U+E0000–E007F) and other format controls.
func hidden(r rune) bool {
	switch {
	case r >= 0x200B && r <= 0x200F, r >= 0x202A && r <= 0x202E, r >= 0x2060 && r <= 0x2064,
		r >= 0x2066 && r <= 0x2069, r == 0xFEFF, r == 0x00AD, r == 0x180E, r == 0x061C,
		r >= 0xE0000 && r <= 0xE007F:
		return true
	}
	return false
}

// Flags finds what is suspicious in one text of a tool definition; host is
// the server's own host, whose URLs are not flagged.
func Flags(text, host string) []Flag {
	out := []Flag{}
	for _, m := range instructionPhrases.FindAllString(text, 8) {
		out = append(out, Flag{Kind: FlagInstruction, Text: m})
	}
	var codes []string
	for _, r := range text {
		if hidden(r) {
			c := fmt.Sprintf("U+%04X", r)
			if !slices.Contains(codes, c) {
				codes = append(codes, c)
			}
		}
	}
	if len(codes) > 0 {
		if len(codes) > 8 {
			codes = append(codes[:8], "…")
		}
		out = append(out, Flag{Kind: FlagHidden, Text: strings.Join(codes, " ")})
	}
	for _, m := range urlPattern.FindAllString(text, 8) {
		u, err := url.Parse(m)
		if err != nil || u.Hostname() == "" || !strings.EqualFold(u.Hostname(), host) {
			out = append(out, Flag{Kind: FlagURL, Text: m})
		}
	}
	return out
}

// FlagsOf flags every text of a tool's JSON (names, descriptions, schema
// texts), each flag once.
func FlagsOf(tool json.RawMessage, host string) []Flag {
	var v any
	if err := json.Unmarshal(tool, &v); err != nil {
		return []Flag{}
	}
	out := []Flag{}
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			for _, f := range Flags(x, host) {
				if !slices.Contains(out, f) {
					out = append(out, f)
				}
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for k, e := range x {
				walk(k)
				walk(e)
			}
		}
	}
	walk(v)
	slices.SortStableFunc(out, func(a, b Flag) int { return strings.Compare(a.Kind+a.Text, b.Kind+b.Text) })
	return out
}

// hostOfURL is the host name of a server's URL.
func hostOfURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Hostname()
}
