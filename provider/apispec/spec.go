// Package apispec holds the facts of a provider's own published API
// description that gtmgate's adapters depend on: for each operation the
// tools use, its method, path template, parameters and their places,
// request and response fields with their types and enum values, and the
// headers every request needs. The facts are extracted by cmd/specgen from
// the provider's published document (a Google discovery document, an
// OpenAPI file) or transcribed from its reference pages, and each file
// records its source, commit and date.
//
// Sandboxes put an Enforcer in front of their handlers: every request is
// checked against the facts as the real API would check it, a request the
// spec does not allow gets the provider's error shape, and every response
// the sandbox sends is checked against the operation's response schema.
// Violations are kept, so the test that caused one fails.
package apispec

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Spec is one provider API's facts.
type Spec struct {
	// Provider is the provider key ("gmail").
	Provider string `json:"provider"`
	// Title is the API's name in its document.
	Title string `json:"title"`
	// Version is the API version the facts describe ("v1", "v25", "202611").
	Version string `json:"version"`
	// Source is where the document was read: a URL, with Commit the
	// repository commit when the document came from one.
	Source string `json:"source"`
	Commit string `json:"commit,omitempty"`
	// Revision is the document's own revision or date, when it has one.
	Revision string `json:"revision,omitempty"`
	// Retrieved is the day the facts were extracted (YYYY-MM-DD).
	Retrieved string `json:"retrieved"`
	// Transcribed is set when the provider publishes nothing machine-readable
	// and the facts were copied from reference pages (cited per operation).
	Transcribed bool `json:"transcribed,omitempty"`
	// EnumsFoldCase compares enum values without case or underscores: the
	// API documents and accepts "searchAppearance" where its discovery
	// document lists the proto name SEARCH_APPEARANCE.
	EnumsFoldCase bool `json:"enums_fold_case,omitempty"`
	// PathVersion says the API version is the first path segment, so a
	// request on another version is matched with the spec's version in its place.
	PathVersion bool `json:"path_version,omitempty"`
	// Headers every request must carry (API versions, developer tokens).
	Headers []Param `json:"headers,omitempty"`
	// GlobalParams are query parameters every operation accepts (Google's
	// system parameters: fields, alt, prettyPrint…).
	GlobalParams []Param     `json:"global_params,omitempty"`
	Operations   []Operation `json:"operations"`
	// Schemas are the named schemas operations and other schemas refer to.
	Schemas map[string]*Schema `json:"schemas"`
	// Facts are provider-specific tables beyond HTTP shapes (for example the
	// Google Ads GAQL fields), keyed by name.
	Facts map[string]json.RawMessage `json:"facts,omitempty"`
}

// Operation is one HTTP operation.
type Operation struct {
	// ID is the provider's own name for it ("gmail.users.messages.list").
	ID     string `json:"id"`
	Method string `json:"method"`
	// Path is the template: "{name}" is one segment, "{+name}" one or more.
	Path   string  `json:"path"`
	Params []Param `json:"params,omitempty"`
	// Request is the body's schema (nil: no body); Response the 2xx body's.
	Request  *Schema `json:"request,omitempty"`
	Response *Schema `json:"response,omitempty"`
	// RequestType is the body's media type when not JSON
	// ("application/x-www-form-urlencoded", "message/rfc822").
	RequestType string `json:"request_type,omitempty"`
	// Reference is the page an operation was transcribed from.
	Reference string `json:"reference,omitempty"`
	// Scopes are the OAuth scopes the provider accepts for the operation:
	// a token holding any one of them may call it.
	Scopes []string `json:"scopes,omitempty"`

	pattern *regexp.Regexp
	names   []string
}

// Param is one parameter.
type Param struct {
	Name string `json:"name"`
	// In is path, query or header.
	In       string   `json:"in"`
	Required bool     `json:"required,omitempty"`
	Type     string   `json:"type,omitempty"`
	Format   string   `json:"format,omitempty"`
	Enum     []string `json:"enum,omitempty"`
	Repeated bool     `json:"repeated,omitempty"`
	// Pattern, when set, is a regular expression the value must match.
	Pattern string `json:"pattern,omitempty"`
}

// Schema is a JSON value's shape.
type Schema struct {
	// Ref names a schema of Spec.Schemas; nothing else is set with it.
	Ref string `json:"$ref,omitempty"`
	// Type is string, integer, number, boolean, object, array or any.
	Type string `json:"type,omitempty"`
	// Format refines Type: int64 and uint64 are strings of digits in
	// Google's JSON; date-time, date, byte.
	Format   string   `json:"format,omitempty"`
	Enum     []string `json:"enum,omitempty"`
	Nullable bool     `json:"nullable,omitempty"`
	// Properties are an object's known fields; Required those it must carry.
	Properties map[string]*Schema `json:"properties,omitempty"`
	Required   []string           `json:"required,omitempty"`
	// AdditionalProperties is the schema of a map's values (an object whose
	// keys are data, not field names).
	AdditionalProperties *Schema `json:"additionalProperties,omitempty"`
	// Open accepts fields not listed (a document that says the object is free-form).
	Open  bool    `json:"open,omitempty"`
	Items *Schema `json:"items,omitempty"`
}

// Parse reads a spec file and compiles its path templates.
func Parse(b []byte) (*Spec, error) {
	var s Spec
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("apispec: decode: %w", err)
	}
	if s.Provider == "" || s.Source == "" || s.Retrieved == "" {
		return nil, fmt.Errorf("apispec: %q: provider, source and retrieved are required", s.Provider)
	}
	for i := range s.Operations {
		op := &s.Operations[i]
		if err := op.compile(); err != nil {
			return nil, fmt.Errorf("apispec: %s: %w", s.Provider, err)
		}
	}
	// The most literal templates are tried first, so ".../messages/send"
	// is not taken for ".../messages/{id}".
	slices.SortStableFunc(s.Operations, func(a, b Operation) int { return literalLen(b.Path) - literalLen(a.Path) })
	return &s, nil
}

// MustParse is Parse for embedded files known to be valid.
func MustParse(b []byte) *Spec {
	s, err := Parse(b)
	if err != nil {
		panic(err)
	}
	return s
}

// ParseOnce returns a func that parses b (an embedded file known to be
// valid) on its first call and returns that one Spec ever after: a process
// that runs no sandbox and checks no scope never parses it, and the
// sandboxes and scope checks that do share it read-only.
func ParseOnce(b []byte) func() *Spec {
	return sync.OnceValue(func() *Spec { return MustParse(b) })
}

var templateVar = regexp.MustCompile(`\{(\+?)([A-Za-z0-9_.\-]+)\}`)

// literalLen is the length of a path template without its variables.
func literalLen(path string) int { return len(templateVar.ReplaceAllString(path, "")) }

func (op *Operation) compile() error {
	if op.ID == "" || op.Method == "" || !strings.HasPrefix(op.Path, "/") {
		return fmt.Errorf("operation %q: id, method and a path starting with / are required", op.ID)
	}
	var re strings.Builder
	re.WriteString("^")
	last := 0
	for _, m := range templateVar.FindAllStringSubmatchIndex(op.Path, -1) {
		re.WriteString(regexp.QuoteMeta(op.Path[last:m[0]]))
		if m[3] > m[2] { // {+name}: reserved expansion, slashes allowed
			re.WriteString("(.+?)")
		} else {
			re.WriteString("([^/]+?)")
		}
		op.names = append(op.names, op.Path[m[4]:m[5]])
		last = m[1]
	}
	re.WriteString(regexp.QuoteMeta(op.Path[last:]))
	re.WriteString("$")
	p, err := regexp.Compile(re.String())
	if err != nil {
		return fmt.Errorf("operation %s: path %q: %w", op.ID, op.Path, err)
	}
	op.pattern = p
	return nil
}

// Find returns the operation serving method and path with its path
// parameters; ok is false when none does. allowed lists the methods other
// operations accept on that path (for a 405).
func (s *Spec) Find(method, path string) (op *Operation, params map[string]string, allowed []string) {
	if s.PathVersion {
		if rest, ok := strings.CutPrefix(path, "/"); ok {
			if _, tail, found := strings.Cut(rest, "/"); found {
				path = "/" + s.Version + "/" + tail
			}
		}
	}
	for i := range s.Operations {
		o := &s.Operations[i]
		m := o.pattern.FindStringSubmatch(path)
		if m == nil {
			continue
		}
		if o.Method != method {
			allowed = append(allowed, o.Method)
			continue
		}
		params = make(map[string]string, len(o.names))
		for j, n := range o.names {
			params[n] = m[j+1]
		}
		return o, params, nil
	}
	return nil, nil, allowed
}

// Operation returns the operation with the given id.
func (s *Spec) Operation(id string) (*Operation, bool) {
	for i := range s.Operations {
		if s.Operations[i].ID == id {
			return &s.Operations[i], true
		}
	}
	return nil, false
}

// Scopes returns every OAuth scope some operation accepts, sorted: the
// scopes of the provider the spec's facts know, which its sandbox's
// authorization server lets a client ask for.
func (s *Spec) Scopes() []string {
	var out []string
	for _, op := range s.Operations {
		out = append(out, op.Scopes...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// resolve follows a schema's reference.
func (s *Spec) resolve(sc *Schema) *Schema {
	for depth := 0; sc != nil && sc.Ref != "" && depth < 8; depth++ {
		sc = s.Schemas[sc.Ref]
	}
	return sc
}
