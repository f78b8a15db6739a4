package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gtmgate/gtmgate/provider/apispec"
)

// openAPIDoc is the part of an OpenAPI 3 document specgen reads.
type openAPIDoc struct {
	Info struct {
		Title   string `json:"title"`
		Version string `json:"version"`
	} `json:"info"`
	Paths      map[string]map[string]json.RawMessage `json:"paths"`
	Components struct {
		Schemas map[string]*openAPISchema `json:"schemas"`
	} `json:"components"`
}

type openAPIOperation struct {
	OperationID string         `json:"operationId"`
	Parameters  []openAPIParam `json:"parameters"`
	RequestBody *struct {
		Content map[string]struct {
			Schema *openAPISchema `json:"schema"`
		} `json:"content"`
	} `json:"requestBody"`
	Responses map[string]struct {
		Content map[string]struct {
			Schema *openAPISchema `json:"schema"`
		} `json:"content"`
	} `json:"responses"`
}

type openAPIParam struct {
	Name     string         `json:"name"`
	In       string         `json:"in"`
	Required bool           `json:"required"`
	Schema   *openAPISchema `json:"schema"`
	Explode  *bool          `json:"explode"`
}

type openAPISchema struct {
	Ref                  string                    `json:"$ref"`
	Type                 string                    `json:"type"`
	Format               string                    `json:"format"`
	Enum                 []any                     `json:"enum"`
	Nullable             bool                      `json:"nullable"`
	Required             []string                  `json:"required"`
	Properties           map[string]*openAPISchema `json:"properties"`
	Items                *openAPISchema            `json:"items"`
	AdditionalProperties json.RawMessage           `json:"additionalProperties"`
	AllOf                []*openAPISchema          `json:"allOf"`
	OneOf                []*openAPISchema          `json:"oneOf"`
	AnyOf                []*openAPISchema          `json:"anyOf"`
}

var httpMethods = []string{"get", "post", "put", "patch", "delete"}

// fromOpenAPI adds the target's operations found in one OpenAPI document.
// An operation is named by its operationId, or "METHOD path" when it has none.
func fromOpenAPI(spec *apispec.Spec, b []byte, t target) error {
	var doc openAPIDoc
	if err := json.Unmarshal(b, &doc); err != nil {
		return fmt.Errorf("not an OpenAPI document: %w", err)
	}
	if spec.Title == "" {
		spec.Title, spec.Version = doc.Info.Title, doc.Info.Version
	}
	want := map[string]bool{}
	for _, id := range t.operations {
		want[id] = true
	}
	refs := map[string]bool{}
	for _, path := range sortedKeys(doc.Paths) {
		for _, method := range httpMethods {
			raw, ok := doc.Paths[path][method]
			if !ok {
				continue
			}
			var o openAPIOperation
			if err := json.Unmarshal(raw, &o); err != nil {
				return fmt.Errorf("%s %s: %w", method, path, err)
			}
			id := o.OperationID
			key := strings.ToUpper(method) + " " + path
			if !want[id] && !want[key] {
				continue
			}
			if !want[id] {
				id = key
			}
			op := apispec.Operation{ID: id, Method: strings.ToUpper(method), Path: path}
			for _, p := range o.Parameters {
				ap := apispec.Param{Name: p.Name, In: p.In, Required: p.Required}
				if s := p.Schema; s != nil {
					ap.Type, ap.Format, ap.Enum = s.Type, s.Format, enumStrings(s.Enum)
					if s.Type == "array" {
						ap.Repeated = true
						if s.Items != nil {
							ap.Type, ap.Format, ap.Enum = s.Items.Type, s.Items.Format, enumStrings(s.Items.Enum)
						}
					}
				}
				op.Params = append(op.Params, ap)
			}
			if o.RequestBody != nil {
				if c, ok := o.RequestBody.Content["application/json"]; ok {
					op.Request = openAPISchemaOf(c.Schema, refs)
				}
			}
			for _, code := range []string{"200", "201", "202", "default"} {
				if r, ok := o.Responses[code]; ok {
					if c, ok := r.Content["application/json"]; ok {
						op.Response = openAPISchemaOf(c.Schema, refs)
						break
					}
				}
			}
			spec.Operations = append(spec.Operations, op)
		}
	}
	for len(refs) > 0 {
		next := map[string]bool{}
		for name := range refs {
			if _, done := spec.Schemas[name]; done {
				continue
			}
			s, ok := doc.Components.Schemas[name]
			if !ok {
				return fmt.Errorf("schema %q is referred to but not defined", name)
			}
			spec.Schemas[name] = openAPISchemaOf(s, next)
		}
		refs = next
	}
	return nil
}

func openAPISchemaOf(s *openAPISchema, refs map[string]bool) *apispec.Schema {
	if s == nil {
		return nil
	}
	if s.Ref != "" {
		name := s.Ref[strings.LastIndex(s.Ref, "/")+1:]
		refs[name] = true
		return &apispec.Schema{Ref: name}
	}
	if len(s.OneOf) > 0 || len(s.AnyOf) > 0 {
		// Alternatives are not checked field by field.
		return &apispec.Schema{Type: "any"}
	}
	out := &apispec.Schema{Type: s.Type, Format: s.Format, Enum: enumStrings(s.Enum), Nullable: s.Nullable, Required: s.Required,
		Items: openAPISchemaOf(s.Items, refs)}
	if len(s.AllOf) > 0 {
		// allOf of objects: the union of their fields. A referenced part is
		// kept as a whole schema only when it is the sole part.
		if len(s.AllOf) == 1 {
			return openAPISchemaOf(s.AllOf[0], refs)
		}
		out.Type, out.Open = "object", true
	}
	if len(s.Properties) > 0 {
		out.Properties = map[string]*apispec.Schema{}
		for k, p := range s.Properties {
			out.Properties[k] = openAPISchemaOf(p, refs)
		}
	}
	switch ap := strings.TrimSpace(string(s.AdditionalProperties)); {
	case ap == "" || ap == "false":
	case ap == "true" || ap == "{}":
		out.Open = true
	default:
		var sub openAPISchema
		if json.Unmarshal(s.AdditionalProperties, &sub) == nil {
			out.AdditionalProperties = openAPISchemaOf(&sub, refs)
		}
	}
	return out
}

func enumStrings(vs []any) []string {
	var out []string
	for _, v := range vs {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
