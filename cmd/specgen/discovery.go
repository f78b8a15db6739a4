package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gtmgate/gtmgate/provider/apispec"
)

// discoveryDoc is the part of a Google API discovery document specgen reads.
type discoveryDoc struct {
	Title       string                       `json:"title"`
	Version     string                       `json:"version"`
	Revision    string                       `json:"revision"`
	ServicePath string                       `json:"servicePath"`
	Parameters  map[string]discoveryParam    `json:"parameters"`
	Resources   map[string]discoveryResource `json:"resources"`
	Schemas     map[string]*discoverySchema  `json:"schemas"`
}

type discoveryResource struct {
	Methods   map[string]discoveryMethod   `json:"methods"`
	Resources map[string]discoveryResource `json:"resources"`
}

type discoveryMethod struct {
	ID         string                    `json:"id"`
	Path       string                    `json:"path"`
	HTTPMethod string                    `json:"httpMethod"`
	Parameters map[string]discoveryParam `json:"parameters"`
	Request    *struct {
		Ref string `json:"$ref"`
	} `json:"request"`
	Response *struct {
		Ref string `json:"$ref"`
	} `json:"response"`
	MediaUpload *struct {
		Accept []string `json:"accept"`
	} `json:"mediaUpload"`
	Scopes []string `json:"scopes"`
}

type discoveryParam struct {
	Type     string   `json:"type"`
	Format   string   `json:"format"`
	Location string   `json:"location"`
	Required bool     `json:"required"`
	Repeated bool     `json:"repeated"`
	Enum     []string `json:"enum"`
	Pattern  string   `json:"pattern"`
}

type discoverySchema struct {
	Ref                  string                      `json:"$ref"`
	Type                 string                      `json:"type"`
	Format               string                      `json:"format"`
	Enum                 []string                    `json:"enum"`
	Properties           map[string]*discoverySchema `json:"properties"`
	Items                *discoverySchema            `json:"items"`
	AdditionalProperties *discoverySchema            `json:"additionalProperties"`
}

func fromDiscovery(spec *apispec.Spec, b []byte, t target) error {
	var doc discoveryDoc
	if err := json.Unmarshal(b, &doc); err != nil {
		return fmt.Errorf("not a discovery document: %w", err)
	}
	spec.Title, spec.Version, spec.Revision = doc.Title, doc.Version, doc.Revision
	for _, name := range sortedKeys(doc.Parameters) {
		spec.GlobalParams = append(spec.GlobalParams, discoveryParamOf(name, doc.Parameters[name]))
	}
	methods := map[string]discoveryMethod{}
	var walk func(map[string]discoveryResource)
	walk = func(rs map[string]discoveryResource) {
		for _, r := range rs {
			for _, m := range r.Methods {
				methods[m.ID] = m
			}
			walk(r.Resources)
		}
	}
	walk(doc.Resources)
	refs := map[string]bool{}
	for _, id := range t.operations {
		m, ok := methods[id]
		if !ok {
			continue
		}
		op := apispec.Operation{ID: m.ID, Method: m.HTTPMethod, Path: "/" + doc.ServicePath + m.Path, Scopes: slices.Sorted(slices.Values(m.Scopes))}
		for _, name := range sortedKeys(m.Parameters) {
			op.Params = append(op.Params, discoveryParamOf(name, m.Parameters[name]))
		}
		if m.Request != nil {
			op.Request = &apispec.Schema{Ref: m.Request.Ref}
			refs[m.Request.Ref] = true
		}
		if m.Response != nil {
			op.Response = &apispec.Schema{Ref: m.Response.Ref}
			refs[m.Response.Ref] = true
		}
		if rt, ok := t.requestTypes[id]; ok {
			op.RequestType, op.Request = rt, nil
		}
		spec.Operations = append(spec.Operations, op)
	}
	// Keep the named schemas the operations reach, and only those.
	for len(refs) > 0 {
		next := map[string]bool{}
		for name := range refs {
			if _, done := spec.Schemas[name]; done {
				continue
			}
			ds, ok := doc.Schemas[name]
			if !ok {
				return fmt.Errorf("schema %q is referred to but not defined", name)
			}
			spec.Schemas[name] = discoverySchemaOf(ds, next)
		}
		refs = next
	}
	return nil
}

func discoveryParamOf(name string, p discoveryParam) apispec.Param {
	return apispec.Param{Name: name, In: p.Location, Required: p.Required, Type: p.Type, Format: p.Format,
		Enum: p.Enum, Repeated: p.Repeated, Pattern: strings.TrimSuffix(strings.TrimPrefix(p.Pattern, "^"), "$")}
}

func discoverySchemaOf(d *discoverySchema, refs map[string]bool) *apispec.Schema {
	if d == nil {
		return nil
	}
	if d.Ref != "" {
		refs[d.Ref] = true
		return &apispec.Schema{Ref: d.Ref}
	}
	s := &apispec.Schema{Type: d.Type, Format: d.Format, Enum: d.Enum, Items: discoverySchemaOf(d.Items, refs),
		AdditionalProperties: discoverySchemaOf(d.AdditionalProperties, refs)}
	if len(d.Properties) > 0 {
		s.Properties = map[string]*apispec.Schema{}
		for k, p := range d.Properties {
			s.Properties[k] = discoverySchemaOf(p, refs)
		}
	}
	return s
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return slices.Clip(keys)
}
