package hubspot

import (
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate/registry"
)

// Input property schemas shared by several tools.

func idSchema(singular, actions string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(40),
		Description: fmt.Sprintf("HubSpot record ID of the %s, a numeric string such as \"1501\" taken from a list or search result. Required for %s.", singular, actions)}
}

func fieldsSchema(defaults []string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "array", MaxItems: jsonschema.Ptr(100),
		Items: &jsonschema.Schema{Type: "string", MinLength: jsonschema.Ptr(1)},
		Description: "HubSpot internal property names to return for each record (crm_properties lists them). " +
			"Default: " + strings.Join(defaults, ", ") + "."}
}

func sortSchema(example string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object",
		Description: "Order results by one property (list and search). For example {\"property\": \"" + example + "\", \"direction\": \"DESCENDING\"}.",
		Properties: map[string]*jsonschema.Schema{
			"property":  {Type: "string", MinLength: jsonschema.Ptr(1), Description: "HubSpot internal property name."},
			"direction": {Type: "string", Enum: []any{"ASCENDING", "DESCENDING"}, Description: "Default ASCENDING."},
		},
		Required: []string{"property"}, AdditionalProperties: noMore}
}

func propertyValuesSchema(example string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", MinProperties: jsonschema.Ptr(1),
		AdditionalProperties: registry.Scalar("", true),
		Description: "Property values to write, keyed by HubSpot internal property name, for example " + example +
			". Values are sent as strings; null clears a property. Enumeration properties take an option's internal value " +
			"(crm_properties lists names and options). Required for create and update."}
}

func linkSchema(singular, what string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(40),
		Description: fmt.Sprintf("HubSpot record ID of a %s. On create, %s; on list, return only those associated with it.", singular, what)}
}

func timestampSchema(desc string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Format: "date-time", Description: desc + " RFC 3339, for example 2025-03-14T15:00:00Z."}
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
