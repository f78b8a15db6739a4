package hubspot

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
)

// PropertyDef is a HubSpot property definition, trimmed to what an agent
// needs to read and write the property.
type PropertyDef struct {
	Name           string   `json:"name"`
	Label          string   `json:"label"`
	Type           string   `json:"type"`
	FieldType      string   `json:"field_type"`
	GroupName      string   `json:"group_name"`
	Description    string   `json:"description,omitempty"`
	Options        []Option `json:"options,omitempty"`
	HubspotDefined bool     `json:"hubspot_defined"`
	ReadOnly       bool     `json:"read_only"`
}

// Option is an enumeration option: write Value, show Label.
type Option struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

// PropertyPage is a page of property definitions.
type PropertyPage struct {
	Items      []PropertyDef `json:"items"`
	NextCursor string        `json:"next_cursor"`
	Total      int           `json:"total"`
}

// propertyFilterFields are the definition fields crm_properties filters on.
var propertyFilterFields = []string{"name", "label", "type", "field_type", "group_name", "hubspot_defined", "read_only"}

func propertiesTool(a *api) gtmgate.Tool {
	return gtmgate.Tool{
		Name: "crm_properties", Domain: domain, Provider: Provider, Title: "HubSpot properties",
		Description: "List a HubSpot object type's properties: the internal names that fields, filters and writes take, " +
			"with types and enumeration options.",
		Actions: []gtmgate.Action{
			{Name: "list", Category: gtmgate.CategoryCRMRead, List: true, Required: []string{"object_type"},
				Description: "page through property definitions of object_type"},
		},
		Properties: map[string]*jsonschema.Schema{
			"object_type": {Type: "string", Enum: []any{"contacts", "companies", "deals", "notes", "tasks"}},
		},
		Run: func(ctx context.Context, call *gtmgate.Call) (any, error) {
			var in struct {
				ObjectType string `json:"object_type"`
			}
			if err := call.Bind(&in); err != nil {
				return nil, err
			}
			var p hsProperties
			if err := a.c.Do(ctx, request(call, http.MethodGet, a.crm("properties", false)+"/"+in.ObjectType, nil), &p); err != nil {
				return nil, fmt.Errorf("hubspot: list %s properties: %w", in.ObjectType, err)
			}
			return pageProperties(p.Results, call)
		},
	}
}

// pageProperties filters and pages the definitions locally: HubSpot returns
// them all at once, often several hundred, more than an agent should read.
func pageProperties(all []hsProperty, call *gtmgate.Call) (PropertyPage, error) {
	var match func(PropertyDef) bool
	if call.Filter != nil {
		sf, err := toSearchFilter(call.Filter)
		if err != nil {
			return PropertyPage{}, err
		}
		if !slices.Contains(propertyFilterFields, sf.PropertyName) {
			return PropertyPage{}, gtmgate.Errorf(gtmgate.EValidation, "filter.property must be one of %s", strings.Join(propertyFilterFields, ", "))
		}
		match = func(d PropertyDef) bool { return matchFilter(sf, []string{d.field(sf.PropertyName)}, kindString) }
	}
	start := 0
	if call.Cursor != "" {
		n, err := strconv.Atoi(call.Cursor)
		if err != nil || n < 0 {
			return PropertyPage{}, gtmgate.Errorf(gtmgate.EValidation, "cursor %q is not one this tool returned", call.Cursor)
		}
		start = n
	}
	var kept []PropertyDef
	for _, hp := range all {
		d := toPropertyDef(hp)
		if match == nil || match(d) {
			kept = append(kept, d)
		}
	}
	out := PropertyPage{Items: []PropertyDef{}, Total: len(kept)}
	if start < len(kept) {
		end := min(start+pageLimit(call, maxListLimit), len(kept))
		out.Items = kept[start:end]
		if end < len(kept) {
			out.NextCursor = strconv.Itoa(end)
		}
	}
	return out, nil
}

func toPropertyDef(hp hsProperty) PropertyDef {
	d := PropertyDef{Name: hp.Name, Label: hp.Label, Type: hp.Type, FieldType: hp.FieldType, GroupName: hp.GroupName,
		Description: hp.Description, HubspotDefined: hp.HubspotDefined, ReadOnly: hp.ModificationMetadata.ReadOnlyValue || hp.Calculated}
	for _, o := range hp.Options {
		if !o.Hidden {
			d.Options = append(d.Options, Option{Label: o.Label, Value: o.Value})
		}
	}
	return d
}

func (d PropertyDef) field(name string) string {
	switch name {
	case "name":
		return d.Name
	case "label":
		return d.Label
	case "type":
		return d.Type
	case "field_type":
		return d.FieldType
	case "group_name":
		return d.GroupName
	case "hubspot_defined":
		return strconv.FormatBool(d.HubspotDefined)
	case "read_only":
		return strconv.FormatBool(d.ReadOnly)
	}
	return ""
}
