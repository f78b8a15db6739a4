package linkedinads

import (
	"fmt"
	"net/url"
	"strings"
)

// Decode parses one Rest.li 2.0 query value: a leaf (returned unescaped as a
// string), List(…) ([]any) or a record (map[string]any). The sandbox uses it
// to read what the adapter sends, so encoder and decoder are tested together.
func Decode(s string) (any, error) {
	p := &decoder{s: s}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	if p.i != len(s) {
		return nil, fmt.Errorf("restli: unexpected %q at offset %d", s[p.i], p.i)
	}
	return v, nil
}

type decoder struct {
	s string
	i int
}

func (p *decoder) value() (any, error) {
	switch {
	case strings.HasPrefix(p.s[p.i:], "List("):
		p.i += len("List(")
		var out []any
		if p.eat(')') {
			return []any{}, nil
		}
		for {
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			out = append(out, v)
			if p.eat(')') {
				return out, nil
			}
			if !p.eat(',') {
				return nil, fmt.Errorf("restli: expected , or ) at offset %d", p.i)
			}
		}
	case p.eat('('):
		out := map[string]any{}
		if p.eat(')') {
			return out, nil
		}
		for {
			k, err := p.leaf()
			if err != nil {
				return nil, err
			}
			if !p.eat(':') {
				return nil, fmt.Errorf("restli: expected : at offset %d", p.i)
			}
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			out[k] = v
			if p.eat(')') {
				return out, nil
			}
			if !p.eat(',') {
				return nil, fmt.Errorf("restli: expected , or ) at offset %d", p.i)
			}
		}
	}
	return p.leaf()
}

// leaf reads up to the next structural character and unescapes it.
func (p *decoder) leaf() (string, error) {
	start := p.i
	for p.i < len(p.s) && !strings.ContainsRune("(),:", rune(p.s[p.i])) {
		p.i++
	}
	v, err := url.PathUnescape(p.s[start:p.i])
	if err != nil {
		return "", fmt.Errorf("restli: bad escape at offset %d: %w", start, err)
	}
	return v, nil
}

func (p *decoder) eat(c byte) bool {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

// rawParams splits a raw query into names and still-encoded values, without
// url.ParseQuery's decoding, which would erase the difference between
// structure and escaped text.
func rawParams(raw string) map[string]string {
	out := map[string]string{}
	for _, kv := range strings.Split(raw, "&") {
		k, v, _ := strings.Cut(kv, "=")
		if k, err := url.QueryUnescape(k); err == nil && k != "" {
			out[k] = v
		}
	}
	return out
}
