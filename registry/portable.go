package registry

import (
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// The portable subset of JSON Schema that tool input schemas keep to, so that
// model providers' tool-calling APIs (OpenAI, Anthropic, Gemini) and MCP
// clients accept them as published:
//
//   - every schema names exactly one type with "type" (no type arrays, no
//     typeless schema), except an "anyOf" whose branches each do;
//   - objects list their properties and close themselves with
//     additionalProperties false, or give one typed schema for every value
//     (a map), or are free-form (type object alone, for a provider's own
//     nested structure passed through as is);
//   - arrays give one "items" schema;
//   - only these keywords: type, title, description, enum, properties,
//     required, additionalProperties, items, anyOf, minimum, maximum,
//     minLength, maxLength, pattern, format, minItems, maxItems,
//     minProperties, maxProperties, and "$schema" at the root.
//
// Docs: docs/content/tools/schemas.md states the same list.
var portableTypes = []string{"string", "number", "integer", "boolean", "object", "array", "null"}

// CheckPortable reports the first place where s leaves the portable subset,
// naming its path ("filter.value").
func CheckPortable(s *jsonschema.Schema) error {
	return checkPortable(s, "", true)
}

func checkPortable(s *jsonschema.Schema, path string, root bool) error {
	at := func(format string, args ...any) error {
		where := path
		if where == "" {
			where = "the root"
		}
		return fmt.Errorf("schema at %s: %s", where, fmt.Sprintf(format, args...))
	}
	if s == nil {
		return at("missing schema")
	}
	if s.Schema != "" && !root {
		return at("$schema only at the root")
	}
	if len(s.Types) > 0 {
		return at("type array %v: use anyOf of single types", s.Types)
	}
	unsupported := map[string]bool{
		"$ref": s.Ref != "", "$defs": len(s.Defs) > 0, "allOf": len(s.AllOf) > 0, "oneOf": len(s.OneOf) > 0,
		"not": s.Not != nil, "if": s.If != nil, "const": s.Const != nil, "patternProperties": len(s.PatternProperties) > 0,
		"prefixItems": len(s.PrefixItems) > 0, "dependentRequired": len(s.DependentRequired) > 0,
		"dependentSchemas": len(s.DependentSchemas) > 0, "propertyNames": s.PropertyNames != nil,
		"uniqueItems": s.UniqueItems, "exclusiveMinimum": s.ExclusiveMinimum != nil, "exclusiveMaximum": s.ExclusiveMaximum != nil,
		"multipleOf": s.MultipleOf != nil, "contains": s.Contains != nil, "unevaluatedProperties": s.UnevaluatedProperties != nil,
		"unevaluatedItems": s.UnevaluatedItems != nil, "additionalItems": s.AdditionalItems != nil, "default": s.Default != nil,
	}
	for _, kw := range sortedKeys(unsupported) {
		if unsupported[kw] {
			return at("keyword %s is outside the portable subset", kw)
		}
	}
	if len(s.AnyOf) > 0 {
		if s.Type != "" {
			return at("anyOf beside type: put the type in each branch")
		}
		for i, b := range s.AnyOf {
			if err := checkPortable(b, fmt.Sprintf("%s(anyOf %d)", dotted(path), i), false); err != nil {
				return err
			}
		}
		return nil
	}
	if !slices.Contains(portableTypes, s.Type) {
		return at("needs exactly one type (one of %s), has %q", strings.Join(portableTypes, ", "), s.Type)
	}
	switch s.Type {
	case "object":
		if len(s.Properties) > 0 && !isFalse(s.AdditionalProperties) {
			return at("an object with properties must set additionalProperties false")
		}
		for _, name := range sortedKeys(s.Properties) {
			if err := checkPortable(s.Properties[name], dotted(path)+name, false); err != nil {
				return err
			}
		}
		for _, name := range s.Required {
			if _, ok := s.Properties[name]; !ok {
				return at("requires %s, which it does not declare", name)
			}
		}
		if ap := s.AdditionalProperties; ap != nil && !isFalse(ap) {
			if err := checkPortable(ap, dotted(path)+"*", false); err != nil {
				return err
			}
		}
	case "array":
		if err := checkPortable(s.Items, dotted(path)+"[]", false); err != nil {
			return err
		}
	default:
		if len(s.Properties) > 0 || s.Items != nil || s.AdditionalProperties != nil {
			return at("type %s with object or array keywords", s.Type)
		}
	}
	return nil
}

// isFalse reports whether s is the schema that matches nothing, which
// jsonschema-go writes as false.
func isFalse(s *jsonschema.Schema) bool {
	return s != nil && s.Not != nil && s.Not.Type == "" && len(s.Not.Types) == 0 && len(s.Not.Properties) == 0
}

func dotted(path string) string {
	if path == "" {
		return ""
	}
	return path + "."
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Scalar is the portable schema for a single value of one of the JSON scalar
// types, with null among them when nullable.
func Scalar(description string, nullable bool) *jsonschema.Schema {
	branches := []*jsonschema.Schema{{Type: "string"}, {Type: "number"}, {Type: "boolean"}}
	if nullable {
		branches = append(branches, &jsonschema.Schema{Type: "null"})
	}
	return &jsonschema.Schema{Description: description, AnyOf: branches}
}
