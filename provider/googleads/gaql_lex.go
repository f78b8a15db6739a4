package googleads

import (
	"fmt"
	"strings"
)

// tokenKind classifies a GAQL token.
type tokenKind int

const (
	tokIdent  tokenKind = iota // keyword or field path: SELECT, campaign.name
	tokString                  // quoted literal, value unquoted
	tokNumber                  // 12, -3.5
	tokPunct                   // , ( ) = != < <= > >=
)

// token is one lexical unit of a GAQL query.
type token struct {
	kind tokenKind
	text string
}

// is reports whether t is the keyword kw (case-insensitive).
func (t token) is(kw string) bool { return t.kind == tokIdent && strings.EqualFold(t.text, kw) }

// lexGAQL splits a GAQL query into tokens. It rejects characters GAQL has no
// use for (";", comments, control characters), so a query that lexes is one
// statement.
func lexGAQL(q string) ([]token, error) {
	var out []token
	for i := 0; i < len(q); {
		c := q[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case isIdentStart(c):
			j := i + 1
			for j < len(q) && (isIdentStart(q[j]) || isDigit(q[j]) || q[j] == '.') {
				j++
			}
			out = append(out, token{tokIdent, q[i:j]})
			i = j
		case isDigit(c) || (c == '-' && i+1 < len(q) && isDigit(q[i+1])):
			j := i + 1
			for j < len(q) && (isDigit(q[j]) || q[j] == '.') {
				j++
			}
			out = append(out, token{tokNumber, q[i:j]})
			i = j
		case c == '\'' || c == '"':
			j := strings.IndexByte(q[i+1:], c)
			if j < 0 {
				return nil, fmt.Errorf("unterminated string at offset %d", i)
			}
			s := q[i+1 : i+1+j]
			if strings.ContainsAny(s, "\\\n\r") {
				return nil, fmt.Errorf("string at offset %d contains a backslash or line break", i)
			}
			out = append(out, token{tokString, s})
			i += j + 2
		case c == '!' || c == '<' || c == '>':
			if i+1 < len(q) && q[i+1] == '=' {
				out = append(out, token{tokPunct, q[i : i+2]})
				i += 2
			} else if c == '!' {
				return nil, fmt.Errorf("unexpected %q at offset %d", c, i)
			} else {
				out = append(out, token{tokPunct, string(c)})
				i++
			}
		case c == ',' || c == '(' || c == ')' || c == '=':
			out = append(out, token{tokPunct, string(c)})
			i++
		default:
			return nil, fmt.Errorf("unexpected character %q at offset %d", c, i)
		}
	}
	return out, nil
}

func isIdentStart(c byte) bool { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }
func isDigit(c byte) bool      { return c >= '0' && c <= '9' }
