package bigquery

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gtmgate/gtmgate"
)

// forbiddenWords are statement keywords that change data, schema, access or
// control flow. An unquoted occurrence anywhere outside string literals and
// comments refuses the query: a column named like one must be quoted in
// backticks. Being stricter than BigQuery's grammar is the point here.
var forbiddenWords = map[string]bool{
	"INSERT": true, "UPDATE": true, "DELETE": true, "MERGE": true, "CREATE": true, "DROP": true,
	"ALTER": true, "TRUNCATE": true, "GRANT": true, "REVOKE": true, "EXPORT": true, "LOAD": true,
	"CALL": true, "EXECUTE": true, "IMMEDIATE": true, "DECLARE": true, "SET": true, "BEGIN": true,
	"COMMIT": true, "ROLLBACK": true, "UNDROP": true, "RAISE": true, "ASSERT": true,
}

// tokenKind classifies a lexed token.
type tokenKind int

const (
	tokWord tokenKind = iota
	tokQuoted
	tokString
	tokNumber
	tokPunct
)

type token struct {
	kind tokenKind
	text string
}

// CheckReadOnly is the first read-only layer: the SQL must be a single
// statement that starts with SELECT or WITH (optionally after opening
// parentheses) and contains no data-changing or scripting keyword outside
// string literals, quoted identifiers and comments. It returns a
// VALIDATION_ERROR naming the problem. The second layer is the dry run's
// statement type, checked before every run.
func CheckReadOnly(sql string) error {
	toks, err := lex(sql)
	if err != nil {
		return refuse("%v", err)
	}
	if len(toks) == 0 {
		return refuse("query is empty")
	}
	for i, t := range toks {
		if t.kind == tokPunct && t.text == ";" && i != len(toks)-1 {
			return refuse("query must be a single statement; nothing may follow ';'")
		}
		if t.kind == tokWord && forbiddenWords[strings.ToUpper(t.text)] {
			return refuse("%s is not allowed: bigquery_query only reads (quote a column of that name in backticks)", strings.ToUpper(t.text))
		}
	}
	first := toks[0]
	for i := 0; first.kind == tokPunct && first.text == "(" && i+1 < len(toks); i++ {
		first = toks[i+1]
	}
	if kw := strings.ToUpper(first.text); first.kind != tokWord || (kw != "SELECT" && kw != "WITH") {
		return refuse("query must start with SELECT or WITH, not %q", clipToken(first.text))
	}
	return nil
}

func refuse(format string, args ...any) error {
	return gtmgate.Errorf(gtmgate.EValidation, "read-only check: "+format, args...).
		WithHint("send one SELECT (or WITH … SELECT) statement; bigquery_query never changes data")
}

func clipToken(s string) string {
	if len(s) > 20 {
		return s[:20] + "…"
	}
	return s
}

// lex splits GoogleSQL into tokens, dropping whitespace (any Unicode space)
// and comments (--, # and /* */) and keeping string literals (with r/b
// prefixes, triple quotes and backslash escapes) and backtick-quoted
// identifiers as single opaque tokens.
func lex(s string) ([]token, error) {
	var toks []token
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case unicode.IsSpace(r) || r == '\uFEFF':
			i += size
		case strings.HasPrefix(s[i:], "--") || r == '#':
			end := strings.IndexByte(s[i:], '\n')
			if end < 0 {
				return toks, nil
			}
			i += end + 1
		case strings.HasPrefix(s[i:], "/*"):
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return nil, fmt.Errorf("unterminated /* comment")
			}
			i += 2 + end + 2
		case r == '\'' || r == '"' || r == '`':
			n, err := quoted(s[i:], false)
			if err != nil {
				return nil, err
			}
			kind := tokString
			if r == '`' {
				kind = tokQuoted
			}
			toks = append(toks, token{kind, s[i : i+n]})
			i += n
		case r == '_' || unicode.IsLetter(r):
			j := i + size
			for j < len(s) {
				r2, sz := utf8.DecodeRuneInString(s[j:])
				if r2 != '_' && !unicode.IsLetter(r2) && !unicode.IsDigit(r2) {
					break
				}
				j += sz
			}
			word := s[i:j]
			if isStringPrefix(word) && j < len(s) && (s[j] == '\'' || s[j] == '"') {
				n, err := quoted(s[j:], strings.ContainsAny(word, "rR"))
				if err != nil {
					return nil, err
				}
				toks = append(toks, token{tokString, s[i : j+n]})
				i = j + n
				continue
			}
			toks = append(toks, token{tokWord, word})
			i = j
		case unicode.IsDigit(r):
			j := i + size
			for j < len(s) && (isDigit(s[j]) || s[j] == '.' || s[j] == 'e' || s[j] == 'E' || s[j] == 'x' || s[j] == 'X') {
				j++
			}
			toks = append(toks, token{tokNumber, s[i:j]})
			i = j
		default:
			toks = append(toks, token{tokPunct, s[i : i+size]})
			i += size
		}
	}
	return toks, nil
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

func isStringPrefix(w string) bool {
	switch strings.ToLower(w) {
	case "r", "b", "rb", "br":
		return true
	}
	return false
}

// quoted returns the length of the quoted literal or identifier at the start
// of s (quote char ', " or `; triple-quoted strings too).
func quoted(s string, raw bool) (int, error) {
	q := s[:1]
	if q != "`" && strings.HasPrefix(s, q+q+q) {
		end := 3
		for {
			k := strings.Index(s[end:], q+q+q)
			if k < 0 {
				return 0, fmt.Errorf("unterminated triple-quoted string")
			}
			if !raw && escaped(s, end+k) {
				end += k + 1
				continue
			}
			return end + k + 3, nil
		}
	}
	for j := 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			if !raw {
				j++
			} else if j+1 < len(s) && s[j+1] == q[0] {
				j++ // a raw string still cannot hold its own quote unescaped
			}
		case '\n':
			if q != "`" {
				return 0, fmt.Errorf("string literal runs past the end of its line")
			}
		case q[0]:
			return j + 1, nil
		}
	}
	if q == "`" {
		return 0, fmt.Errorf("unterminated quoted identifier")
	}
	return 0, fmt.Errorf("unterminated string literal")
}

// escaped reports whether s[i] is preceded by an odd number of backslashes.
func escaped(s string, i int) bool {
	n := 0
	for k := i - 1; k >= 0 && s[k] == '\\'; k-- {
		n++
	}
	return n%2 == 1
}
