package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// protoSet is what specgen reads of a set of .proto files: messages, enums
// and RPCs with their HTTP bindings, by fully qualified name. The parser
// knows the subset of proto3 that Google's API protos use (messages, nested
// messages and enums, oneof, optional, repeated, map, options, services with
// google.api.oauth_scopes and google.api.http); it is not a general protobuf
// compiler.
type protoSet struct {
	messages map[string]*protoMessage
	enums    map[string][]string
	rpcs     []protoRPC
	files    map[string]bool
}

type protoMessage struct {
	Name   string // fully qualified
	Fields []protoField
}

type protoField struct {
	Name      string
	Type      string // as written; resolve with protoSet.resolve in Scope
	Scope     string // the message the field is declared in
	Repeated  bool
	MapKey    string // set for map<K, V> fields (Type is V)
	Behaviors []string
	// ResourceRef is set when the field carries a google.api.resource_reference.
	ResourceRef bool
}

type protoRPC struct {
	Service, Name, Package string
	Request, Response      string
	// HTTP binding (google.api.http): method, path template, body.
	Method, Path, Body string
	// Scopes are the service's google.api.oauth_scopes: a token holding any
	// one may call its RPCs.
	Scopes []string
}

func newProtoSet() *protoSet {
	return &protoSet{messages: map[string]*protoMessage{}, enums: map[string][]string{}, files: map[string]bool{}}
}

// loadDir parses every .proto file under dir and the extra files (import
// paths), then the files they import from root (the directory import paths
// are relative to); imports that are not there (google/protobuf/…) are
// skipped: their types are known by name.
func (ps *protoSet) loadDir(root, dir string, extra ...string) error {
	pending := extra
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".proto") {
			rel, _ := filepath.Rel(root, path)
			pending = append(pending, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		return err
	}
	for len(pending) > 0 {
		name := pending[0]
		pending = pending[1:]
		if ps.files[name] {
			continue
		}
		ps.files[name] = true
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return err
		}
		imports, err := ps.parse(string(b))
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		pending = append(pending, imports...)
	}
	return nil
}

// parse reads one file and returns its imports.
func (ps *protoSet) parse(src string) ([]string, error) {
	p := &protoParser{toks: tokenizeProto(src), set: ps}
	var imports []string
	for !p.done() {
		switch t := p.next(); t {
		case "syntax", "edition", "option":
			p.skipStatement()
		case "package":
			p.pkg = p.next()
			p.expect(";")
		case "import":
			if p.peek() == "public" || p.peek() == "weak" {
				p.next()
			}
			imports = append(imports, unquote(p.next()))
			p.expect(";")
		case "message":
			p.message(p.pkg)
		case "enum":
			p.enum(p.pkg)
		case "service":
			p.service()
		case "extend":
			p.next()
			p.skipBlock()
		case ";":
		default:
			p.fail("unexpected %q", t)
		}
		if p.err != nil {
			return nil, p.err
		}
	}
	return imports, p.err
}

// resolve finds the message or enum a type name written in scope refers
// to, as protoc does: innermost scope first. It returns "" for scalars and
// unknown names.
func (ps *protoSet) resolve(scope, name string) string {
	if full, ok := strings.CutPrefix(name, "."); ok {
		return full
	}
	for s := scope; ; {
		candidate := name
		if s != "" {
			candidate = s + "." + name
		}
		if _, ok := ps.messages[candidate]; ok {
			return candidate
		}
		if _, ok := ps.enums[candidate]; ok {
			return candidate
		}
		if s == "" {
			return ""
		}
		i := strings.LastIndexByte(s, '.')
		if i < 0 {
			s = ""
		} else {
			s = s[:i]
		}
	}
}

type protoParser struct {
	toks []string
	i    int
	pkg  string
	set  *protoSet
	err  error
}

func (p *protoParser) done() bool { return p.err != nil || p.i >= len(p.toks) }

func (p *protoParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

func (p *protoParser) next() string {
	t := p.peek()
	if p.i >= len(p.toks) {
		p.fail("unexpected end of file")
	}
	p.i++
	return t
}

func (p *protoParser) fail(format string, args ...any) {
	if p.err == nil {
		p.err = fmt.Errorf("token %d: %s", p.i, fmt.Sprintf(format, args...))
	}
}

func (p *protoParser) expect(t string) {
	if got := p.next(); got != t {
		p.fail("want %q, got %q", t, got)
	}
}

// skipStatement skips to the ; ending a statement, over nested braces.
func (p *protoParser) skipStatement() {
	depth := 0
	for !p.done() {
		switch p.next() {
		case "{":
			depth++
		case "}":
			depth--
		case ";":
			if depth == 0 {
				return
			}
		}
	}
}

// skipBlock skips a { … } block (the opening brace is the next token).
func (p *protoParser) skipBlock() {
	p.expect("{")
	for depth := 1; depth > 0 && !p.done(); {
		switch p.next() {
		case "{":
			depth++
		case "}":
			depth--
		}
	}
}

func (p *protoParser) message(scope string) {
	m := &protoMessage{Name: scope + "." + p.next()}
	p.set.messages[m.Name] = m
	p.expect("{")
	p.messageBody(m)
}

// messageBody reads fields and nested declarations up to the closing brace
// (also used for the body of a oneof, whose fields belong to m).
func (p *protoParser) messageBody(m *protoMessage) {
	for !p.done() {
		switch t := p.next(); t {
		case "}":
			return
		case ";":
		case "message":
			p.message(m.Name)
		case "enum":
			p.enum(m.Name)
		case "oneof":
			p.next()
			p.expect("{")
			p.messageBody(m)
		case "option", "reserved", "extensions":
			p.skipStatement()
		case "extend":
			p.next()
			p.skipBlock()
		default:
			p.field(m, t)
		}
	}
}

func (p *protoParser) field(m *protoMessage, t string) {
	f := protoField{Scope: m.Name}
	switch t {
	case "repeated":
		f.Repeated = true
		t = p.next()
	case "optional", "required":
		t = p.next()
	}
	if t == "map" {
		p.expect("<")
		f.MapKey = p.next()
		p.expect(",")
		t = p.next()
		p.expect(">")
	}
	for strings.HasPrefix(p.peek(), ".") { // a type name broken across lines
		t += p.next()
	}
	f.Type, f.Name = t, p.next()
	p.expect("=")
	p.next() // field number
	if p.peek() == "[" {
		f.Behaviors, f.ResourceRef = p.fieldOptions()
	}
	p.expect(";")
	m.Fields = append(m.Fields, f)
}

// fieldOptions reads [ … ]: the google.api.field_behavior values and
// whether a google.api.resource_reference is among them.
func (p *protoParser) fieldOptions() (behaviors []string, resourceRef bool) {
	p.expect("[")
	for depth := 1; depth > 0 && !p.done(); {
		switch t := p.next(); t {
		case "[", "{":
			depth++
		case "]", "}":
			depth--
		case "google.api.field_behavior":
			if p.next() == ")" && p.next() == "=" {
				behaviors = append(behaviors, p.next())
			}
		case "google.api.resource_reference":
			resourceRef = true
		}
	}
	return behaviors, resourceRef
}

func (p *protoParser) enum(scope string) {
	name := scope + "." + p.next()
	p.expect("{")
	var values []string
	for !p.done() {
		switch t := p.next(); t {
		case "}":
			p.set.enums[name] = values
			return
		case ";":
		case "option", "reserved":
			p.skipStatement()
		default:
			values = append(values, t)
			p.skipStatement()
		}
	}
}

func (p *protoParser) service() {
	svc := p.next()
	p.expect("{")
	first := len(p.set.rpcs)
	var scopes []string
	for !p.done() {
		switch t := p.next(); t {
		case "}":
			for i := first; i < len(p.set.rpcs); i++ {
				p.set.rpcs[i].Scopes = scopes
			}
			return
		case ";":
		case "option":
			if s, ok := p.oauthScopes(); ok {
				scopes = s
			}
		case "rpc":
			p.rpc(svc)
		default:
			p.fail("unexpected %q in service %s", t, svc)
		}
	}
}

// oauthScopes reads the rest of an option statement: the scopes of
// "(google.api.oauth_scopes) = "a," "b";" (adjacent strings concatenated,
// scopes separated by commas), or false for another option, skipped.
func (p *protoParser) oauthScopes() ([]string, bool) {
	if p.i+3 >= len(p.toks) || p.toks[p.i] != "(" || p.toks[p.i+1] != "google.api.oauth_scopes" || p.toks[p.i+2] != ")" || p.toks[p.i+3] != "=" {
		p.skipStatement()
		return nil, false
	}
	p.i += 4
	var value strings.Builder
	for !p.done() && p.peek() != ";" {
		value.WriteString(unquote(p.next()))
	}
	p.expect(";")
	var scopes []string
	for _, s := range strings.Split(value.String(), ",") {
		if s = strings.TrimSpace(s); s != "" {
			scopes = append(scopes, s)
		}
	}
	return scopes, true
}

func (p *protoParser) rpc(svc string) {
	r := protoRPC{Service: svc, Name: p.next(), Package: p.pkg}
	streamed := func() string {
		p.expect("(")
		if p.peek() == "stream" {
			p.next()
		}
		t := p.next()
		p.expect(")")
		return t
	}
	r.Request = streamed()
	p.expect("returns")
	r.Response = streamed()
	if p.peek() == "{" {
		p.next()
		for depth := 1; depth > 0 && !p.done(); {
			switch t := p.next(); t {
			case "{":
				depth++
			case "}":
				depth--
			case "get", "put", "post", "delete", "patch":
				// Only the primary binding: additional_bindings sit one level deeper.
				if depth == 2 && p.peek() == ":" && r.Method == "" {
					p.next()
					r.Method, r.Path = strings.ToUpper(t), unquote(p.next())
				}
			case "body":
				if depth == 2 && p.peek() == ":" {
					p.next()
					r.Body = unquote(p.next())
				}
			}
		}
	} else {
		p.expect(";")
	}
	p.set.rpcs = append(p.set.rpcs, r)
}

// tokenizeProto splits proto source into identifiers (dots included),
// quoted strings (quotes kept) and single punctuation characters, dropping
// comments.
func tokenizeProto(src string) []string {
	var toks []string
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case strings.HasPrefix(src[i:], "//"):
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return toks
			}
			i += end + 4
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(src) && src[j] != c {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(src))
			toks = append(toks, src[i:j])
			i = j
		case isIdentChar(c):
			j := i
			for j < len(src) && isIdentChar(src[j]) {
				j++
			}
			toks = append(toks, src[i:j])
			i = j
		default:
			toks = append(toks, string(c))
			i++
		}
	}
	return toks
}

func isIdentChar(c byte) bool {
	return c == '_' || c == '.' || c == '-' || c == '+' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// unquote strips a string token's quotes (Google's protos use no escapes
// in paths and imports).
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') {
		return s[1 : len(s)-1]
	}
	return s
}
