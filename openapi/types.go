package openapi

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
)

// Response and request schemas are inferred from the Go types the handlers
// encode and decode, so the description cannot drift from the wire format.
var typeSchemas = map[reflect.Type]*jsonschema.Schema{
	// A raw JSON member is whatever the provider or the caller sent.
	reflect.TypeFor[json.RawMessage](): {},
	reflect.TypeFor[time.Time]():       {Type: "string", Format: "date-time"},
}

// responseOf is the schema of what encoding a T produces: members without
// omitempty are required, unknown members are not allowed.
func responseOf[T any]() Schema {
	return schemaOf(reflect.TypeFor[T]())
}

// requestOf is the schema of a body decoded into a T. The decoders refuse
// unknown members, but a member left out takes its default, so only the
// named members are required.
func requestOf[T any](required ...string) Schema {
	s := schemaOf(reflect.TypeFor[T]())
	dropRequired(s)
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

func schemaOf(t reflect.Type) Schema {
	js, err := jsonschema.ForType(t, &jsonschema.ForOptions{TypeSchemas: typeSchemas})
	if err != nil {
		// The types are fixed at compile time; a failure is a programming error.
		panic(fmt.Sprintf("openapi: schema of %s: %v", t, err))
	}
	b, err := json.Marshal(js)
	if err != nil {
		panic(fmt.Sprintf("openapi: encode schema of %s: %v", t, err))
	}
	var s Schema
	if err := json.Unmarshal(b, &s); err != nil {
		panic(fmt.Sprintf("openapi: decode schema of %s: %v", t, err))
	}
	return s
}

// dropRequired removes "required" at every depth of s.
func dropRequired(v any) {
	switch v := v.(type) {
	case map[string]any:
		delete(v, "required")
		for _, c := range v {
			dropRequired(c)
		}
	case []any:
		for _, c := range v {
			dropRequired(c)
		}
	}
}

// object is a schema of an object with the given members, all required.
func object(members map[string]Schema) Schema {
	props := map[string]any{}
	var required []string
	for name, s := range members {
		props[name] = s
		required = append(required, name)
	}
	slices.Sort(required)
	return Schema{"type": "object", "properties": props, "required": required}
}

// listOf is {"<member>": [T…]}, the shape of the admin API's listings.
func listOf[T any](member string) Schema {
	item := responseOf[T]()
	return object(map[string]Schema{member: {"type": "array", "items": item}})
}
