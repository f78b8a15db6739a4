package content

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// FrontMatter holds a page's front matter: string values and lists of strings.
//
// The accepted syntax is a strict subset of YAML, enough for page metadata:
//
//	---
//	title: Why GTM initiatives fail
//	description: "Quoted values may contain: colons"
//	date: 2025-03-01
//	aliases: [/old-path, /older-path]
//	tags:
//	  - one
//	  - two
//	---
//
// Keys are lower case letters, digits, "_" and "-"; each appears once. A line
// that is neither a key, a list item under a key with no value, a comment nor
// blank is an error, so typos fail the load instead of vanishing.
type FrontMatter map[string]Value

// Value is one front matter value: a scalar string or a list.
type Value struct {
	Str    string
	List   []string
	IsList bool
}

var fmKey = regexp.MustCompile(`^([a-z0-9_-]+):(?:\s+(.*))?$`)

// SplitFrontMatter separates a leading "---" front matter block from the body.
// A file without one has empty front matter.
func SplitFrontMatter(src []byte) (fm FrontMatter, body string, err error) {
	s := strings.TrimPrefix(string(src), "\ufeff")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	if !strings.HasPrefix(s, "---\n") {
		return FrontMatter{}, s, nil
	}
	rest := s[len("---\n"):]
	end := strings.Index(rest, "\n---\n")
	switch {
	case strings.HasPrefix(rest, "---\n"):
		return FrontMatter{}, rest[len("---\n"):], nil
	case end >= 0:
		body = rest[end+len("\n---\n"):]
	case strings.HasSuffix(rest, "\n---"):
		end = len(rest) - len("\n---")
	default:
		return nil, "", fmt.Errorf("front matter: no closing ---")
	}
	fm, err = ParseFrontMatter(rest[:end])
	return fm, strings.TrimLeft(body, "\n"), err
}

// ParseFrontMatter parses the lines between the "---" delimiters.
func ParseFrontMatter(block string) (FrontMatter, error) {
	fm := FrontMatter{}
	var listKey string
	for i, line := range strings.Split(block, "\n") {
		n := i + 2 // line numbers count the opening ---
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		if strings.HasPrefix(trimmed, "- ") || trimmed == "-" {
			if listKey == "" || line == trimmed {
				return nil, fmt.Errorf("front matter line %d: list item without an indented key above it", n)
			}
			item, err := scalar(strings.TrimSpace(strings.TrimPrefix(trimmed, "-")))
			if err != nil {
				return nil, fmt.Errorf("front matter line %d: %w", n, err)
			}
			v := fm[listKey]
			v.List = append(v.List, item)
			fm[listKey] = v
			continue
		}
		listKey = ""
		if line != trimmed {
			return nil, fmt.Errorf("front matter line %d: unexpected indentation", n)
		}
		m := fmKey.FindStringSubmatch(line)
		if m == nil {
			return nil, fmt.Errorf("front matter line %d: want \"key: value\", got %q", n, line)
		}
		key, raw := m[1], strings.TrimSpace(m[2])
		if _, dup := fm[key]; dup {
			return nil, fmt.Errorf("front matter line %d: duplicate key %q", n, key)
		}
		switch {
		case raw == "":
			fm[key] = Value{IsList: true}
			listKey = key
		case strings.HasPrefix(raw, "["):
			list, err := inlineList(raw)
			if err != nil {
				return nil, fmt.Errorf("front matter line %d: %s: %w", n, key, err)
			}
			fm[key] = Value{List: list, IsList: true}
		default:
			s, err := scalar(raw)
			if err != nil {
				return nil, fmt.Errorf("front matter line %d: %s: %w", n, key, err)
			}
			fm[key] = Value{Str: s}
		}
	}
	return fm, nil
}

// scalar unquotes a value; unquoted values lose a trailing " # comment".
func scalar(raw string) (string, error) {
	if raw == "" {
		return "", nil
	}
	switch raw[0] {
	case '"':
		s, err := strconv.Unquote(raw)
		if err != nil {
			return "", fmt.Errorf("bad double-quoted string %s", raw)
		}
		return s, nil
	case '\'':
		if len(raw) < 2 || raw[len(raw)-1] != '\'' {
			return "", fmt.Errorf("unterminated single-quoted string %s", raw)
		}
		inner := raw[1 : len(raw)-1]
		if strings.Contains(strings.ReplaceAll(inner, "''", ""), "'") {
			return "", fmt.Errorf("unescaped quote in %s", raw)
		}
		return strings.ReplaceAll(inner, "''", "'"), nil
	}
	if i := strings.Index(raw, " #"); i >= 0 {
		raw = strings.TrimSpace(raw[:i])
	}
	return raw, nil
}

// inlineList parses "[a, "b, c", 'd']". Unquoted items end at a comma
// followed by a space.
func inlineList(raw string) ([]string, error) {
	if !strings.HasSuffix(raw, "]") {
		return nil, fmt.Errorf("unterminated list %s", raw)
	}
	inner := strings.TrimSpace(raw[1 : len(raw)-1])
	list := []string{}
	for inner != "" {
		var item string
		if inner[0] == '"' || inner[0] == '\'' {
			end := closingQuote(inner)
			if end < 0 {
				return nil, fmt.Errorf("unterminated quoted item in %s", raw)
			}
			s, err := scalar(inner[:end+1])
			if err != nil {
				return nil, err
			}
			item, inner = s, strings.TrimSpace(inner[end+1:])
			if inner != "" && !strings.HasPrefix(inner, ",") {
				return nil, fmt.Errorf("want , after quoted item in %s", raw)
			}
		} else {
			i := listComma(inner)
			item, inner = strings.TrimSpace(inner[:i]), inner[i:]
		}
		list = append(list, item)
		inner = strings.TrimSpace(strings.TrimPrefix(inner, ","))
	}
	return list, nil
}

// listComma finds the comma that ends an unquoted list item: one followed by
// a space or the end, so "$9,500" stays one item (a lenient reading of YAML's
// flow sequences, which would split it).
func listComma(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == ',' && (i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\t') {
			return i
		}
	}
	return len(s)
}

func closingQuote(s string) int {
	q := s[0]
	for i := 1; i < len(s); i++ {
		switch {
		case q == '"' && s[i] == '\\':
			i++
		case s[i] == q && q == '\'' && i+1 < len(s) && s[i+1] == '\'':
			i++
		case s[i] == q:
			return i
		}
	}
	return -1
}
