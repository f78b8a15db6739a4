package apispec

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"
	"time"
)

const decodedSpec = `{
 "provider": "ads", "title": "Ads API", "version": "v1", "source": "https://example.com/ads.json", "retrieved": "2026-11-27",
 "operations": [{"id": "campaigns.search", "method": "GET", "path": "/v1/campaigns", "response": {"$ref": "Search"}}],
 "schemas": {
  "Search": {"type": "object", "properties": {
    "elements": {"type": "array", "items": {"$ref": "Campaign"}},
    "metadata": {"type": "object", "properties": {"nextPageToken": {"type": "string"}}},
    "byId": {"type": "object", "additionalProperties": {"$ref": "Campaign"}},
    "extra": {"type": "any"},
    "untyped": {},
    "total": {"type": "integer"}}},
  "Campaign": {"type": "object", "properties": {
    "id": {"type": "string"}, "name": {"type": "string"},
    "parts": {"type": "array", "items": {"$ref": "Campaign"}},
    "targeting": {"type": "object", "open": true, "properties": {"geo": {"type": "string"}}},
    "labels": {"type": "object", "additionalProperties": {"type": "string"}},
    "raw": {"type": "string", "format": "byte"},
    "created": {"type": "string", "format": "date-time"}}}
 }
}`

type decodedCampaign struct {
	ID      string            `json:"id"`
	Name    string            // untagged: matched in any case, as encoding/json does
	Parts   []decodedCampaign `json:"parts"`
	Labels  map[string]string `json:"labels"`
	Raw     []byte            `json:"raw"`
	Created time.Time         `json:"created"`
	Target  *struct {
		Geo    string `json:"geo"`
		Radius int    `json:"radius"` // free-form object: not reportable
	} `json:"targeting"`
	local string
}

type decodedPaging struct {
	Metadata struct {
		NextPageToken string `json:"nextPageToken"`
	} `json:"metadata"`
}

type decodedSearch struct {
	decodedPaging
	Elements []*decodedCampaign         `json:"elements"`
	ByID     map[string]decodedCampaign `json:"byId"`
	Extra    struct {
		Anything string `json:"anything"`
	} `json:"extra"`
	Untyped struct {
		Anything string `json:"anything"`
	} `json:"untyped"`
	Total   json.Number     `json:"total"`
	Skipped string          `json:"-"`
	Opaque  json.RawMessage `json:"opaque,omitempty"`
}

func TestUndeclared(t *testing.T) {
	spec := MustParse([]byte(decodedSpec))
	op, _ := spec.Operation("campaigns.search")
	tests := []struct {
		name string
		typ  reflect.Type
		want []string
	}{
		{"every field declared but one raw message", reflect.TypeFor[decodedSearch](), []string{"opaque: not declared by the schema"}},
		{"a misspelled cursor", reflect.TypeFor[struct {
			Metadata struct {
				Next string `json:"nextPage"`
			} `json:"metadata"`
		}](), []string{"metadata.nextPage: not declared by the schema"}},
		{"a tag is the provider's exact spelling", reflect.TypeFor[struct {
			Metadata struct {
				Next string `json:"nextpagetoken"`
			} `json:"metadata"`
		}](), []string{"metadata.nextpagetoken: not declared by the schema"}},
		{"through array items, map values and recursion", reflect.TypeFor[struct {
			Elements []struct {
				Parts []struct {
					Descr string `json:"descr"`
				} `json:"parts"`
			} `json:"elements"`
			ByID map[string]struct {
				Nmae string `json:"nmae"`
			} `json:"byId"`
		}](), []string{"elements[].parts[].descr: not declared by the schema", "byId{}.nmae: not declared by the schema"}},
		{"shapes the schema does not have", reflect.TypeFor[struct {
			Total    struct{} `json:"total"`
			Metadata []string `json:"metadata"`
		}](), []string{"total: decoded as an object, the schema has type integer", "metadata: decoded as an array, the schema has type object"}},
		{"pointer and embedded pointer", reflect.TypeFor[*struct {
			*decodedPaging
			Cursor string `json:"cursor"`
		}](), []string{"cursor: not declared by the schema"}},
		{"any stops the walk", reflect.TypeFor[struct {
			Elements []any            `json:"elements"`
			ByID     map[string]any   `json:"byId"`
			Rest     map[string]any   `json:"-"`
			Whole    *json.RawMessage `json:"whole"`
		}](), []string{"whole: not declared by the schema"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := spec.Undeclared(op.Response, tt.typ)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Undeclared = %q, want %q", got, tt.want)
			}
		})
	}
}
