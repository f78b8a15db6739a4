package googleads

import (
	"fmt"
	"strconv"
)

// gaqlQuery is a parsed GAQL statement as the sandbox understands it.
type gaqlQuery struct {
	Fields   []string
	Resource string
	Where    []gaqlCond
	OrderBy  []gaqlOrder
	Limit    int
}

// gaqlCond is one WHERE condition: field op values.
type gaqlCond struct {
	Field  string
	Op     string // = != < <= > >= IN NOT_IN LIKE NOT_LIKE IS_NULL IS_NOT_NULL DURING BETWEEN
	Values []any
}

type gaqlOrder struct {
	Field string
	Desc  bool
}

// queryError is a GAQL error with Google's queryError code.
type queryError struct{ code, msg string }

func (e *queryError) Error() string { return e.msg }

func qerr(code, format string, args ...any) error {
	return &queryError{code: code, msg: fmt.Sprintf(format, args...)}
}

// parseGAQL parses SELECT … FROM … [WHERE …] [ORDER BY …] [LIMIT n] [PARAMETERS …].
func parseGAQL(q string) (*gaqlQuery, error) {
	toks, err := lexGAQL(q)
	if err != nil {
		return nil, qerr("UNEXPECTED_INPUT", "Error in query: %v.", err)
	}
	p := &parser{toks: toks}
	out := &gaqlQuery{}
	if !p.keyword("SELECT") {
		return nil, qerr("EXPECTED_SELECT", "Error in query: expected SELECT.")
	}
	for {
		f, err := p.field()
		if err != nil {
			return nil, err
		}
		out.Fields = append(out.Fields, f)
		if !p.punct(",") {
			break
		}
	}
	if !p.keyword("FROM") {
		return nil, qerr("EXPECTED_FROM", "Error in query: expected FROM.")
	}
	if out.Resource, err = p.field(); err != nil {
		return nil, err
	}
	if p.keyword("WHERE") {
		for {
			c, err := p.cond()
			if err != nil {
				return nil, err
			}
			out.Where = append(out.Where, c)
			if !p.keyword("AND") {
				break
			}
		}
	}
	if p.keyword("ORDER") {
		if !p.keyword("BY") {
			return nil, qerr("UNEXPECTED_INPUT", "Error in query: expected BY after ORDER.")
		}
		for {
			f, err := p.field()
			if err != nil {
				return nil, err
			}
			o := gaqlOrder{Field: f}
			if p.keyword("DESC") {
				o.Desc = true
			} else {
				p.keyword("ASC")
			}
			out.OrderBy = append(out.OrderBy, o)
			if !p.punct(",") {
				break
			}
		}
	}
	if p.keyword("LIMIT") {
		t := p.next()
		n, err := strconv.Atoi(t.text)
		if t.kind != tokNumber || err != nil {
			return nil, qerr("BAD_LIMIT_VALUE", "Error in query: LIMIT must be a number.")
		}
		if n <= 0 {
			return nil, qerr("LIMIT_VALUE_TOO_LOW", "Error in query: LIMIT must be positive.")
		}
		out.Limit = n
	}
	if p.keyword("PARAMETERS") {
		p.i = len(p.toks) // include_drafts and friends do not change the sandbox's answer
	}
	if p.i < len(p.toks) {
		return nil, qerr("UNEXPECTED_INPUT", "Error in query: unexpected input %s.", p.toks[p.i].text)
	}
	return out, nil
}

type parser struct {
	toks []token
	i    int
}

func (p *parser) peek() token {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return token{kind: tokPunct}
}

func (p *parser) next() token { t := p.peek(); p.i++; return t }

func (p *parser) keyword(kw string) bool {
	if p.peek().is(kw) {
		p.i++
		return true
	}
	return false
}

func (p *parser) punct(s string) bool {
	if t := p.peek(); t.kind == tokPunct && t.text == s {
		p.i++
		return true
	}
	return false
}

func (p *parser) field() (string, error) {
	t := p.next()
	if t.kind != tokIdent || !validField(t.text) {
		return "", qerr("UNEXPECTED_INPUT", "Error in query: expected a field name, found %q.", t.text)
	}
	return t.text, nil
}

func (p *parser) value() (any, error) {
	t := p.next()
	switch t.kind {
	case tokString:
		return t.text, nil
	case tokNumber:
		n, err := strconv.ParseFloat(t.text, 64)
		if err != nil {
			return nil, qerr("UNEXPECTED_INPUT", "Error in query: bad number %s.", t.text)
		}
		return n, nil
	case tokIdent:
		switch {
		case t.is("TRUE"):
			return true, nil
		case t.is("FALSE"):
			return false, nil
		}
		return t.text, nil // unquoted enum value
	}
	return nil, qerr("UNEXPECTED_INPUT", "Error in query: expected a value, found %q.", t.text)
}

func (p *parser) list() ([]any, error) {
	if !p.punct("(") {
		return nil, qerr("UNEXPECTED_INPUT", "Error in query: expected (.")
	}
	var out []any
	for {
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		if p.punct(")") {
			return out, nil
		}
		if !p.punct(",") {
			return nil, qerr("UNEXPECTED_INPUT", "Error in query: expected , or ).")
		}
	}
}

func (p *parser) cond() (gaqlCond, error) {
	f, err := p.field()
	if err != nil {
		return gaqlCond{}, err
	}
	c := gaqlCond{Field: f}
	t := p.next()
	switch {
	case t.kind == tokPunct && t.text != "," && t.text != "(" && t.text != ")":
		c.Op = t.text
		v, err := p.value()
		c.Values = []any{v}
		return c, err
	case t.is("IN"):
		c.Op = "IN"
		c.Values, err = p.list()
		return c, err
	case t.is("NOT"):
		switch {
		case p.keyword("IN"):
			c.Op = "NOT_IN"
			c.Values, err = p.list()
			return c, err
		case p.keyword("LIKE"):
			c.Op = "NOT_LIKE"
			v, err := p.value()
			c.Values = []any{v}
			return c, err
		}
	case t.is("LIKE"):
		c.Op = "LIKE"
		v, err := p.value()
		c.Values = []any{v}
		return c, err
	case t.is("IS"):
		c.Op = "IS_NULL"
		if p.keyword("NOT") {
			c.Op = "IS_NOT_NULL"
		}
		if !p.keyword("NULL") {
			return c, qerr("UNEXPECTED_INPUT", "Error in query: expected NULL.")
		}
		return c, nil
	case t.is("DURING"):
		c.Op = "DURING"
		d := p.next()
		c.Values = []any{d.text}
		if d.kind != tokIdent {
			return c, qerr("INVALID_VALUE_WITH_DURING_OPERATOR", "Error in query: DURING needs a date range literal.")
		}
		return c, nil
	case t.is("BETWEEN"):
		c.Op = "BETWEEN"
		lo, err := p.value()
		if err != nil {
			return c, err
		}
		if !p.keyword("AND") {
			return c, qerr("UNEXPECTED_INPUT", "Error in query: expected AND in BETWEEN.")
		}
		hi, err := p.value()
		c.Values = []any{lo, hi}
		return c, err
	}
	return c, qerr("UNEXPECTED_INPUT", "Error in query: unexpected operator %q.", t.text)
}
