package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
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
	// Security lists alternative requirements: any one of them admits a call.
	Security    []map[string][]string `json:"security"`
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
// An operation is named by its operationId, or "METHOD path" when it has none
// or the target lists it that way. An API published in several documents (one
// per object, one per version) is read from each in turn: the first document
// that has an operation gives it, and schemas are merged (see addDocument).
func fromOpenAPI(spec *apispec.Spec, b []byte, t target) error {
	var doc openAPIDoc
	if err := json.Unmarshal(b, &doc); err != nil {
		return fmt.Errorf("not an OpenAPI document: %w", err)
	}
	if spec.Title == "" {
		spec.Title, spec.Version = cmp.Or(t.title, doc.Info.Title), doc.Info.Version
	}
	want := map[string]bool{}
	for _, id := range t.operations {
		want[id] = true
	}
	refs := map[string]bool{}
	var ops []apispec.Operation
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
			if _, done := spec.Operation(id); done {
				continue
			}
			op := apispec.Operation{ID: id, Method: strings.ToUpper(method), Path: path, Scopes: oauthScopes(o.Security)}
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
			ops = append(ops, op)
		}
	}
	schemas := map[string]*apispec.Schema{}
	for len(refs) > 0 {
		next := map[string]bool{}
		for name := range refs {
			if _, done := schemas[name]; done {
				continue
			}
			s, ok := doc.Components.Schemas[name]
			if !ok {
				return fmt.Errorf("schema %q is referred to but not defined", name)
			}
			schemas[name] = openAPISchemaOf(s, next)
		}
		refs = next
	}
	if err := correct(spec, schemas, t.corrections); err != nil {
		return err
	}
	return addDocument(spec, ops, schemas, cmp.Or(doc.Info.Version, "2"))
}

// correct applies the target's corrections to the schemas one document
// defines (before they are merged, so documents that agree still do) and
// lists them in the spec's facts.
func correct(spec *apispec.Spec, schemas map[string]*apispec.Schema, cs []correction) error {
	if len(cs) == 0 {
		return nil
	}
	for _, c := range cs {
		s, ok := schemas[c.Schema]
		if !ok {
			continue
		}
		if _, ok := s.Properties[c.Field]; !ok {
			return fmt.Errorf("correction of %s.%s: the document's %s has no such field", c.Schema, c.Field, c.Schema)
		}
		s.Properties[c.Field] = c.To
	}
	b, err := json.Marshal(cs)
	if err != nil {
		return err
	}
	if spec.Facts == nil {
		spec.Facts = map[string]json.RawMessage{}
	}
	spec.Facts["corrections"] = b
	return nil
}

// addDocument adds one document's operations and schemas to the spec. A
// schema the spec already holds under the same name with another shape (the
// name in another version of the API: HubSpot's 2026-03 PipelineStage
// requires writePermissions, its v3 one does not) is kept as name_version,
// and the document's references follow it.
func addDocument(spec *apispec.Spec, ops []apispec.Operation, schemas map[string]*apispec.Schema, version string) error {
	rename := map[string]string{}
	// Renaming one schema changes those that refer to it: repeat until none differs.
	for changed := true; changed; {
		changed = false
		for _, name := range sortedKeys(schemas) {
			if _, done := rename[name]; done {
				continue
			}
			if have, ok := spec.Schemas[name]; ok && !reflect.DeepEqual(have, renameRefs(schemas[name], rename)) {
				rename[name] = name + "_" + version
				changed = true
			}
		}
	}
	for _, name := range sortedKeys(schemas) {
		to, s := cmp.Or(rename[name], name), renameRefs(schemas[name], rename)
		if have, ok := spec.Schemas[to]; ok && !reflect.DeepEqual(have, s) {
			return fmt.Errorf("schema %s: the spec already holds %s with another shape", name, to)
		}
		spec.Schemas[to] = s
	}
	for _, op := range ops {
		op.Request, op.Response = renameRefs(op.Request, rename), renameRefs(op.Response, rename)
		spec.Operations = append(spec.Operations, op)
	}
	return nil
}

// renameRefs returns s with its references renamed, copied where it changes.
func renameRefs(s *apispec.Schema, rename map[string]string) *apispec.Schema {
	if s == nil || len(rename) == 0 {
		return s
	}
	c := *s
	c.Ref = cmp.Or(rename[s.Ref], s.Ref)
	c.Items = renameRefs(s.Items, rename)
	c.AdditionalProperties = renameRefs(s.AdditionalProperties, rename)
	if s.Properties != nil {
		c.Properties = make(map[string]*apispec.Schema, len(s.Properties))
		for k, p := range s.Properties {
			c.Properties[k] = renameRefs(p, rename)
		}
	}
	return &c
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

// oauthScopes are the OAuth 2 scopes of an operation's security
// requirements, any one of which admits a call (sorted, without repeats).
func oauthScopes(security []map[string][]string) []string {
	var out []string
	for _, req := range security {
		for _, s := range req["oauth2"] {
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	slices.Sort(out)
	return out
}
