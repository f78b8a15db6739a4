package hubspot

import (
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate/registry"
)

// Input property schemas shared by several tools. Most carry no description:
// every tool repeats them in tools/list, and a record id or a sort says
// what it is by its name and schema.

// idSchema is a HubSpot record id (a numeric string such as "1501").
func idSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(40)}
}

// fieldsSchema is the properties to return for each record (crm_properties
// lists their names).
func fieldsSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "array", MaxItems: jsonschema.Ptr(100),
		Items: &jsonschema.Schema{Type: "string", MinLength: jsonschema.Ptr(1)}}
}

func sortSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"property":  {Type: "string", MinLength: jsonschema.Ptr(1)},
			"direction": {Type: "string", Enum: []any{"ASCENDING", "DESCENDING"}},
		},
		Required: []string{"property"}, AdditionalProperties: noMore}
}

// propertyValuesSchema is the property values a create or update writes,
// keyed by HubSpot internal property name; HubSpot takes them as strings.
func propertyValuesSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", MinProperties: jsonschema.Ptr(1),
		AdditionalProperties: registry.Scalar("", true),
		Description:          "By internal name; null clears."}
}

// linkSchema is the id of a record a note or task is on: list narrows to
// it, create attaches to it.
func linkSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(40)}
}

// noMore forbids further properties in nested objects.
var noMore = registry.Closed()

// sortInput is the decoded "sort" property.
type sortInput struct {
	Property  string `json:"property"`
	Direction string `json:"direction"`
}

// sorts converts an optional sort, or uses def when absent.
func sorts(s *sortInput, def ...hsSort) []hsSort {
	if s == nil {
		return def
	}
	dir := s.Direction
	if dir == "" {
		dir = "ASCENDING"
	}
	return []hsSort{{PropertyName: s.Property, Direction: dir}}
}
