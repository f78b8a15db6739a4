package apispec

import (
	"encoding"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// Undeclared lists the fields that a Go type, decoded from a JSON value of
// schema sc, would read and sc does not declare, each as "path: why" (path
// as "paging.links[].href", a map's values as "{}"). A json tag spelled
// unlike the provider's field decodes nothing, silently; this finds it
// without a sandbox having to send that field.
//
// The walk follows structs (their exported fields, json tags, embedded
// structs), pointers, slices and maps into the schema's properties, array
// items and additionalProperties, resolving references. It stops at
// json.RawMessage, interfaces, maps of interfaces and types that decode
// themselves (json.Unmarshaler, encoding.TextUnmarshaler), whose fields
// are not the JSON's; and where the schema is free-form.
func (s *Spec) Undeclared(sc *Schema, t reflect.Type) []string {
	w := decodedWalk{spec: s, onPath: map[walkStep]bool{}}
	w.walk(sc, t, "")
	return w.out
}

type decodedWalk struct {
	spec *Spec
	out  []string
	// onPath holds the steps of the current path, so a recursive type
	// (a MIME part of parts) over a recursive schema ends.
	onPath map[walkStep]bool
}

type walkStep struct {
	t  reflect.Type
	sc *Schema
}

var (
	rawMessage      = reflect.TypeFor[json.RawMessage]()
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// maxDecodedDepth bounds a walk as CheckValue bounds a value's.
const maxDecodedDepth = 64

func (w *decodedWalk) walk(sc *Schema, t reflect.Type, at string) {
	sc = w.spec.resolve(sc)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if sc == nil || sc.Type == "any" || untyped(sc) || selfDecoding(t) || len(w.onPath) > maxDecodedDepth {
		return
	}
	step := walkStep{t, sc}
	if w.onPath[step] {
		return
	}
	w.onPath[step] = true
	defer delete(w.onPath, step)
	isObject := sc.Type == "object" || sc.Type == "" && (sc.Properties != nil || sc.AdditionalProperties != nil)
	switch t.Kind() {
	case reflect.Struct:
		if !isObject {
			w.fail(at, "decoded as an object, the schema has %s", schemaKind(sc))
			return
		}
		w.fields(sc, t, at)
	case reflect.Map:
		if t.Elem().Kind() == reflect.Interface {
			return
		}
		if !isObject {
			w.fail(at, "decoded as an object, the schema has %s", schemaKind(sc))
			return
		}
		switch {
		case sc.AdditionalProperties != nil:
			w.walk(sc.AdditionalProperties, t.Elem(), at+"{}")
		case len(sc.Properties) > 0:
			// A map over an object of known fields reads each as a key.
			for _, k := range slices.Sorted(maps.Keys(sc.Properties)) {
				w.walk(sc.Properties[k], t.Elem(), at+"{}")
			}
		}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return // bytes are a base64 string
		}
		if sc.Type != "array" {
			w.fail(at, "decoded as an array, the schema has %s", schemaKind(sc))
			return
		}
		w.walk(sc.Items, t.Elem(), at+"[]")
	}
}

// fields walks a struct's fields against an object schema; embedded
// structs without a tag are the same object.
func (w *decodedWalk) fields(sc *Schema, t reflect.Type, at string) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, tagged := f.Tag.Lookup("json")
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" && tag == "-" || !f.IsExported() && !f.Anonymous {
			continue
		}
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" {
			if ft.Kind() == reflect.Struct {
				w.fields(sc, ft, at)
				continue
			}
			if !f.IsExported() {
				continue
			}
		}
		if name == "" {
			name, tagged = f.Name, false
		}
		prop, ok := w.property(sc, name, tagged)
		if !ok {
			if !sc.Open {
				w.fail(join(at, name), "not declared by the schema")
			}
			continue
		}
		w.walk(prop, f.Type, join(at, name))
	}
}

// property is the schema of an object's field: a tag names it exactly (the
// provider's own spelling), an untagged field by its Go name in any case,
// as encoding/json matches it; a map schema has every field.
func (w *decodedWalk) property(sc *Schema, name string, tagged bool) (*Schema, bool) {
	if p, ok := sc.Properties[name]; ok {
		return p, true
	}
	if !tagged {
		for k, p := range sc.Properties {
			if strings.EqualFold(k, name) {
				return p, true
			}
		}
	}
	if sc.AdditionalProperties != nil {
		return sc.AdditionalProperties, true
	}
	return nil, false
}

func (w *decodedWalk) fail(at, format string, args ...any) {
	if at == "" {
		at = "the body"
	}
	w.out = append(w.out, at+": "+fmt.Sprintf(format, args...))
}

// selfDecoding says t's JSON is read by its own code (or is opaque), not
// field by field.
func selfDecoding(t reflect.Type) bool {
	if t == rawMessage || t.Kind() == reflect.Interface {
		return true
	}
	p := reflect.PointerTo(t)
	return t.Implements(jsonUnmarshaler) || p.Implements(jsonUnmarshaler) ||
		t.Implements(textUnmarshaler) || p.Implements(textUnmarshaler)
}

// untyped says sc says nothing of its value's shape, as CheckValue reads it.
func untyped(sc *Schema) bool {
	return sc.Type == "" && sc.Properties == nil && sc.AdditionalProperties == nil && sc.Items == nil
}

func schemaKind(sc *Schema) string {
	if sc.Type == "" {
		return "no type"
	}
	return "type " + sc.Type
}
