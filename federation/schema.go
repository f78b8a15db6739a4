package federation

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// Bounds on rewriting an upstream schema into the portable subset.
const (
	// maxRefDepth is how many $ref expansions may nest along one path.
	maxRefDepth = 16
	// maxPortableBytes bounds a schema after its $refs are expanded
	// (JSON-encoded): a few small definitions used many times over can
	// otherwise grow without limit.
	maxPortableBytes = 64 << 10
)

// schemaOf returns an upstream tool's schema (nil when absent) rewritten
// into the portable subset the gateway serves and validates with
// (registry.CheckPortable), as far as that keeps its meaning, for schemas
// written to the 2026-07-28 specification:
//
//   - a local $ref ("#/$defs/x", "#/definitions/x", any JSON pointer into
//     the schema) is replaced by what it points at, keywords beside it
//     added to it; $defs and definitions are then dropped. A remote $ref
//     is never fetched, and a recursive one cannot be expanded: either
//     refuses the tool with the reason;
//   - allOf is merged into one schema (required and properties united,
//     bounds narrowed); branches that contradict each other refuse it;
//   - oneOf becomes anyOf (gtmgate lets through a call matching several
//     branches; the upstream still judges it);
//   - const becomes a one-value enum, and an enum without a type takes
//     its values' type;
//   - a type array becomes an anyOf of single types, each branch keeping
//     the keywords of its type; keywords beside an anyOf move into each
//     branch.
//
// What remains outside the portable subset is left for the registry to
// refuse, naming the keyword.
func schemaOf(v any) (*jsonschema.Schema, error) {
	if v == nil {
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil || string(b) == "null" {
		return nil, err
	}
	return portableSchema(b)
}

// outputSchemaOf is schemaOf for an output schema, which agents' model
// APIs never read: one that cannot be rewritten (a recursive tree, say) is
// served as the upstream gave it, as before 2026-07-28 schemas were
// rewritten, for the registry to resolve or refuse.
func outputSchemaOf(v any) (*jsonschema.Schema, error) {
	s, err := schemaOf(v)
	if err == nil {
		return s, nil
	}
	b, merr := json.Marshal(v)
	if merr != nil {
		return nil, merr
	}
	raw := new(jsonschema.Schema)
	if uerr := json.Unmarshal(b, raw); uerr != nil {
		return nil, err
	}
	return raw, nil
}

// portableSchema rewrites the JSON schema in b (see schemaOf).
func portableSchema(b []byte) (*jsonschema.Schema, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var doc any
	if err := d.Decode(&doc); err != nil {
		return nil, err
	}
	w := &rewriter{root: doc, sizes: map[string]int{}}
	out, err := w.node(doc)
	if err != nil {
		return nil, err
	}
	if m, ok := out.(map[string]any); ok {
		// Definitions are not schemas of the document's values; with their
		// $refs expanded nothing points at them.
		delete(m, "$defs")
		delete(m, "definitions")
	}
	pb, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	if len(pb) > maxPortableBytes {
		return nil, fmt.Errorf("it is %d KiB once its $refs are expanded; at most %d KiB", len(pb)>>10, maxPortableBytes>>10)
	}
	s := new(jsonschema.Schema)
	if err := json.Unmarshal(pb, s); err != nil {
		return nil, err
	}
	return s, nil
}

// keywords are the JSON names of jsonschema.Schema's fields, which its
// decoder matches case-insensitively.
var keywords = sync.OnceValue(func() []string {
	kws := []string{"dependencies"}
	t := reflect.TypeFor[jsonschema.Schema]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			kws = append(kws, name)
		}
	}
	return kws
})

// knownKeyword is the keyword k spells, whatever its case ("" for none).
func knownKeyword(k string) string {
	for _, kw := range keywords() {
		if strings.EqualFold(k, kw) {
			return kw
		}
	}
	return ""
}

// rewriter expands one document's $refs.
type rewriter struct {
	root any
	// stack is the $refs being expanded along the current path.
	stack []string
	// expanded counts the bytes $ref expansions added, so a schema that
	// expands past the bound stops before it is built.
	expanded int
	sizes    map[string]int
	// depth is how deep in the document the schema being rewritten is (0
	// at the root).
	depth int
}

// Keywords whose value is a schema, a list of schemas, or a map of them.
var (
	schemaKeywords = []string{"items", "additionalProperties", "not", "if", "then", "else", "contains",
		"propertyNames", "unevaluatedProperties", "unevaluatedItems", "additionalItems"}
	schemaListKeywords = []string{"anyOf", "oneOf", "allOf", "prefixItems"}
	schemaMapKeywords  = []string{"properties", "patternProperties", "dependentSchemas"}
	// dropped keywords only name or annotate places (nothing refers to
	// them once $refs are expanded).
	dropped = []string{"$defs", "definitions", "$id", "$anchor", "$dynamicAnchor", "$comment"}
	// annotations say nothing about which values match: when two schemas
	// are merged, the one written beside the $ref (or the parent) keeps
	// its own.
	annotations = []string{"title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly"}
)

// node rewrites one schema. Values that are not objects (true, false, or
// junk) are left to the registry.
func (w *rewriter) node(n any) (any, error) {
	m, ok := n.(map[string]any)
	if !ok {
		return n, nil
	}
	w.depth++
	defer func() { w.depth-- }()
	if ref, ok := m["$ref"]; ok {
		return w.ref(m, ref)
	}
	for k := range m {
		if kw := knownKeyword(k); kw != "" && kw != k {
			// The validator reads keywords whatever their case; the
			// upstream does not.
			return nil, fmt.Errorf("its %q is not a keyword (%s is; keywords are case-sensitive)", k, kw)
		}
	}
	for _, kw := range []string{"$dynamicRef", "$recursiveRef"} {
		if _, ok := m[kw]; ok {
			return nil, fmt.Errorf("its %s cannot be expanded", kw)
		}
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		if !slices.Contains(dropped, k) {
			out[k] = v
		}
	}
	for _, kw := range schemaKeywords {
		if v, ok := out[kw]; ok {
			if kw == "items" {
				if list, ok := v.([]any); ok { // draft-07 tuple form
					r, err := w.list(list)
					if err != nil {
						return nil, err
					}
					out[kw] = r
					continue
				}
			}
			r, err := w.node(v)
			if err != nil {
				return nil, err
			}
			out[kw] = r
		}
	}
	for _, kw := range schemaListKeywords {
		if list, ok := out[kw].([]any); ok {
			r, err := w.list(list)
			if err != nil {
				return nil, err
			}
			out[kw] = r
		}
	}
	for _, kw := range schemaMapKeywords {
		if props, ok := out[kw].(map[string]any); ok {
			r := make(map[string]any, len(props))
			for name, p := range props {
				v, err := w.node(p)
				if err != nil {
					return nil, err
				}
				r[name] = v
			}
			out[kw] = r
		}
	}
	if all, ok := out["allOf"].([]any); ok {
		delete(out, "allOf")
		for _, b := range all {
			switch b := b.(type) {
			case bool:
				if !b {
					return nil, fmt.Errorf("its allOf has a branch that matches nothing")
				}
			case map[string]any:
				merged, err := merge(out, b)
				if err != nil {
					return nil, fmt.Errorf("its allOf cannot be merged: %w", err)
				}
				out = merged
			}
		}
	}
	return w.finish(out)
}

func (w *rewriter) list(list []any) ([]any, error) {
	r := make([]any, len(list))
	for i, b := range list {
		v, err := w.node(b)
		if err != nil {
			return nil, err
		}
		r[i] = v
	}
	return r, nil
}

// ref expands the $ref of m, merging the keywords written beside it.
func (w *rewriter) ref(m map[string]any, ref any) (any, error) {
	r, ok := ref.(string)
	if !ok {
		return nil, fmt.Errorf("its $ref is not a string")
	}
	if slices.Contains(w.stack, r) {
		return nil, fmt.Errorf("its $ref %q is recursive (%s), so it cannot be expanded into a schema agents are served", r, strings.Join(append(slices.Clone(w.stack), r), " → "))
	}
	if len(w.stack) >= maxRefDepth {
		return nil, fmt.Errorf("its $refs nest more than %d deep", maxRefDepth)
	}
	target, err := w.resolve(r)
	if err != nil {
		return nil, err
	}
	if _, ok := w.sizes[r]; !ok {
		b, _ := json.Marshal(target)
		w.sizes[r] = len(b)
	}
	w.expanded += w.sizes[r]
	if w.expanded > maxPortableBytes {
		return nil, fmt.Errorf("it is over %d KiB once its $refs are expanded", maxPortableBytes>>10)
	}
	w.stack = append(w.stack, r)
	expanded, err := w.node(target)
	w.stack = w.stack[:len(w.stack)-1]
	if err != nil {
		return nil, err
	}
	rest := make(map[string]any, len(m))
	for k, v := range m {
		if k != "$ref" {
			rest[k] = v
		}
	}
	if len(rest) == 0 {
		return expanded, nil
	}
	beside, err := w.node(rest)
	if err != nil {
		return nil, err
	}
	switch e := expanded.(type) {
	case bool:
		if !e {
			return nil, fmt.Errorf("its $ref %q points at a schema that matches nothing", r)
		}
		return beside, nil
	case map[string]any:
		bm, _ := beside.(map[string]any)
		merged, err := merge(bm, e)
		if err != nil {
			return nil, fmt.Errorf("the keywords beside its $ref %q conflict with what it points at: %w", r, err)
		}
		return w.finish(merged)
	}
	return expanded, nil
}

// resolve finds what a local $ref points at in the document.
func (w *rewriter) resolve(ref string) (any, error) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil, fmt.Errorf("its remote $ref %q is not fetched: gtmgate serves only schemas complete in themselves", ref)
	}
	if frag != "" && !strings.HasPrefix(frag, "/") {
		return nil, fmt.Errorf("its $ref %q names an anchor; only JSON pointers (#/$defs/…) are expanded", ref)
	}
	frag, err := url.PathUnescape(frag)
	if err != nil {
		return nil, fmt.Errorf("its $ref %q is not a JSON pointer", ref)
	}
	cur := w.root
	if frag == "" {
		return cur, nil
	}
	for _, tok := range strings.Split(frag[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[tok]
			if !ok {
				return nil, fmt.Errorf("its $ref %q points at nothing", ref)
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, fmt.Errorf("its $ref %q points at nothing", ref)
			}
			cur = c[i]
		default:
			return nil, fmt.Errorf("its $ref %q points at nothing", ref)
		}
	}
	switch cur.(type) {
	case map[string]any, bool:
		return cur, nil
	}
	return nil, fmt.Errorf("its $ref %q points at something that is not a schema", ref)
}

// finish makes one schema's keywords portable, once its subschemas are.
// At the root, keywords beside an anyOf stay where they are: a tool's
// input must be one object, and the registry says why it is not.
func (w *rewriter) finish(m map[string]any) (map[string]any, error) {
	if one, ok := m["oneOf"]; ok {
		if _, both := m["anyOf"]; both {
			return nil, fmt.Errorf("it has both oneOf and anyOf in one place")
		}
		m["anyOf"] = one
		delete(m, "oneOf")
	}
	if c, ok := m["const"]; ok {
		if e, ok := m["enum"].([]any); ok && !containsJSON(e, c) {
			return nil, fmt.Errorf("its const is not among its enum: nothing matches")
		}
		m["enum"] = []any{c}
		delete(m, "const")
	}
	if types, ok := m["type"].([]any); ok {
		if err := splitTypes(m, types); err != nil {
			return nil, err
		}
	}
	if branches, ok := m["anyOf"].([]any); ok && w.depth > 1 {
		if err := w.distribute(m, branches); err != nil {
			return nil, err
		}
	}
	if _, typed := m["type"]; !typed {
		if e, ok := m["enum"].([]any); ok {
			if t := typeOfAll(e); t != "" {
				m["type"] = t
			}
		}
	}
	return m, nil
}

// Keywords that apply to values of one type only.
var typeKeywords = map[string][]string{
	"string":  {"minLength", "maxLength", "pattern", "format", "contentEncoding", "contentMediaType"},
	"number":  {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"},
	"integer": {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"},
	"object": {"properties", "required", "additionalProperties", "patternProperties", "minProperties", "maxProperties",
		"propertyNames", "dependentRequired", "dependentSchemas", "unevaluatedProperties"},
	"array": {"items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains", "unevaluatedItems", "additionalItems"},
}

// splitTypes turns {"type": [a, b], …} into {"anyOf": [{"type": a, …}, {"type": b, …}]},
// each branch with the keywords of its type and the ones of every type.
func splitTypes(m map[string]any, types []any) error {
	if len(types) == 0 {
		return fmt.Errorf("its type array is empty")
	}
	if len(types) == 1 {
		m["type"] = types[0]
		return nil
	}
	if _, ok := m["anyOf"]; ok {
		return fmt.Errorf("it has both a type array and anyOf in one place")
	}
	var specific []string
	for _, kws := range typeKeywords {
		specific = append(specific, kws...)
	}
	branches := make([]any, 0, len(types))
	for _, t := range types {
		name, ok := t.(string)
		if !ok {
			return fmt.Errorf("its type array holds a non-string")
		}
		b := map[string]any{"type": name}
		for k, v := range m {
			switch {
			case k == "type" || slices.Contains(annotations, k):
			case slices.Contains(typeKeywords[name], k), !slices.Contains(specific, k):
				b[k] = v
			}
		}
		branches = append(branches, b)
	}
	for k := range m {
		if !slices.Contains(annotations, k) {
			delete(m, k)
		}
	}
	m["anyOf"] = branches
	return nil
}

// distribute moves the keywords beside an anyOf into each of its branches
// (A and (B or C) is (A and B) or (A and C)); a branch that contradicts
// them can match nothing and is dropped.
func (w *rewriter) distribute(m map[string]any, branches []any) error {
	beside := map[string]any{}
	for k, v := range m {
		if k != "anyOf" && !slices.Contains(annotations, k) {
			beside[k] = v
		}
	}
	if len(beside) == 0 {
		return nil
	}
	var out []any
	var firstErr error
	for _, b := range branches {
		switch b := b.(type) {
		case bool:
			if b {
				out = append(out, maps.Clone(beside))
			}
		case map[string]any:
			merged, err := merge(b, beside)
			if err != nil {
				firstErr = cmp.Or(firstErr, err)
				continue
			}
			merged, err = w.finish(merged)
			if err != nil {
				firstErr = cmp.Or(firstErr, err)
				continue
			}
			out = append(out, merged)
		}
	}
	if len(out) == 0 {
		if firstErr == nil {
			firstErr = fmt.Errorf("no branch can match")
		}
		return fmt.Errorf("its anyOf cannot take the keywords beside it: %w", firstErr)
	}
	for k := range beside {
		delete(m, k)
	}
	m["anyOf"] = out
	return nil
}

// merge returns the schema matching what both a and b match, as one
// schema; a's annotations win. It refuses keywords it cannot combine.
func merge(a, b map[string]any) (map[string]any, error) {
	out := maps.Clone(a)
	for k, bv := range b {
		av, ok := out[k]
		if !ok {
			out[k] = bv
			continue
		}
		if slices.Contains(annotations, k) || sameJSON(av, bv) {
			continue
		}
		switch k {
		case "required":
			al, _ := av.([]any)
			bl, _ := bv.([]any)
			u := slices.Clone(al)
			for _, x := range bl {
				if !containsJSON(u, x) {
					u = append(u, x)
				}
			}
			out[k] = u
		case "properties":
			ap, _ := av.(map[string]any)
			bp, _ := bv.(map[string]any)
			u := maps.Clone(ap)
			for name, s := range bp {
				if prev, ok := u[name]; ok {
					pm, ok1 := prev.(map[string]any)
					sm, ok2 := s.(map[string]any)
					if !ok1 || !ok2 {
						return nil, fmt.Errorf("property %s is declared twice differently", name)
					}
					m, err := merge(pm, sm)
					if err != nil {
						return nil, fmt.Errorf("property %s: %w", name, err)
					}
					u[name] = m
					continue
				}
				u[name] = s
			}
			out[k] = u
		case "enum":
			al, _ := av.([]any)
			bl, _ := bv.([]any)
			var both []any
			for _, x := range al {
				if containsJSON(bl, x) {
					both = append(both, x)
				}
			}
			if len(both) == 0 {
				return nil, fmt.Errorf("their enums share no value")
			}
			out[k] = both
		case "minimum", "minLength", "minItems", "minProperties":
			out[k] = bound(av, bv, true)
		case "maximum", "maxLength", "maxItems", "maxProperties":
			out[k] = bound(av, bv, false)
		default:
			return nil, fmt.Errorf("conflicting %s", k)
		}
	}
	return out, nil
}

// bound is the larger of two numbers (the smaller when larger is false).
func bound(a, b any, larger bool) any {
	fa, errA := strconv.ParseFloat(fmt.Sprint(a), 64)
	fb, errB := strconv.ParseFloat(fmt.Sprint(b), 64)
	if errA != nil {
		return b
	}
	if errB != nil || (fa > fb) == larger {
		return a
	}
	return b
}

// typeOfAll is the JSON Schema type of every value in vs, "" when they
// differ.
func typeOfAll(vs []any) string {
	t := ""
	for _, v := range vs {
		var vt string
		switch v := v.(type) {
		case string:
			vt = "string"
		case bool:
			vt = "boolean"
		case nil:
			vt = "null"
		case json.Number:
			vt = "number"
			if _, err := v.Int64(); err == nil {
				vt = "integer"
			}
		default:
			return ""
		}
		switch {
		case t == "":
			t = vt
		case t == vt:
		case (t == "integer" && vt == "number") || (t == "number" && vt == "integer"):
			t = "number"
		default:
			return ""
		}
	}
	return t
}

func sameJSON(a, b any) bool {
	ab, err1 := json.Marshal(a)
	bb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(ab, bb)
}

func containsJSON(list []any, v any) bool {
	return slices.ContainsFunc(list, func(x any) bool { return sameJSON(x, v) })
}
