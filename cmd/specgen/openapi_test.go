package main

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/provider/apispec"
)

// openAPIFixture is a tiny OpenAPI document of one API version: GET
// /{version}/things/{id} answers a Thing, whose part is a Part; Part's
// required fields and the path's version vary.
func openAPIFixture(version, partRequired string) []byte {
	doc := `{
	  "openapi": "3.0.1",
	  "info": {"title": "Things ` + version + `", "version": "` + version + `"},
	  "paths": {
	    "/` + version + `/things/{id}": {"get": {"operationId": "get-thing",
	      "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}},
	                     {"name": "fields", "in": "query", "schema": {"type": "array", "items": {"type": "string"}}}],
	      "responses": {"200": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}},
	                    "default": {"$ref": "#/components/responses/Error"}}}},
	    "/shared/search": {"post": {
	      "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Search"}}}},
	      "responses": {"200": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}}}}}
	  },
	  "components": {"schemas": {
	    "Thing": {"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}, "part": {"$ref": "#/components/schemas/Part"}}},
	    "Part": {"type": "object", "required": [` + partRequired + `], "properties": {"name": {"type": "string"}, "mode": {"type": "string", "enum": ["A", "B"]}}},
	    "Search": {"type": "object", "properties": {"sorts": {"type": "array", "items": {"type": "string"}}}}
	  }}
	}`
	return []byte(doc)
}

// TestOpenAPISeveralDocuments: an API published in several documents keeps
// the first document's operation where two list it, shares schemas the
// documents agree on, keeps a schema that differs under name_version with
// the references to it, and applies the target's corrections to each.
func TestOpenAPISeveralDocuments(t *testing.T) {
	t.Parallel()
	sortObjects := &apispec.Schema{Type: "array", Items: &apispec.Schema{Type: "object",
		Properties: map[string]*apispec.Schema{"propertyName": {Type: "string"}}}}
	tg := target{format: "openapi", title: "Things API",
		operations:  []string{"GET /2026-03/things/{id}", "GET /v3/things/{id}", "POST /shared/search"},
		corrections: []correction{{Schema: "Search", Field: "sorts", To: sortObjects, Why: "the guide sorts with objects"}}}
	spec := &apispec.Spec{Provider: "things", Source: "fixture", Retrieved: "2026-01-01", Schemas: map[string]*apispec.Schema{}}
	for _, doc := range [][]byte{openAPIFixture("2026-03", `"name", "mode"`), openAPIFixture("v3", `"name"`)} {
		if err := fromOpenAPI(spec, doc, tg); err != nil {
			t.Fatal(err)
		}
	}
	if spec.Title != "Things API" || spec.Version != "2026-03" {
		t.Errorf("title %q version %q", spec.Title, spec.Version)
	}
	var ids []string
	for _, op := range spec.Operations {
		ids = append(ids, op.ID+" → "+op.Response.Ref)
	}
	if want := []string{"GET /2026-03/things/{id} → Thing", "POST /shared/search → Thing", "GET /v3/things/{id} → Thing_v3"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("operations %q, want %q", ids, want)
	}
	if got := spec.Operations[0].Params; len(got) != 2 || !got[1].Repeated || got[1].Type != "string" {
		t.Errorf("params %+v", got)
	}
	var names []string
	for name := range spec.Schemas {
		names = append(names, name)
	}
	if want := "Part Part_v3 Search Thing Thing_v3"; strings.Join(sortedKeys(spec.Schemas), " ") != want {
		t.Errorf("schemas %v, want %s", names, want)
	}
	if r := spec.Schemas["Part_v3"].Required; !reflect.DeepEqual(r, []string{"name"}) || spec.Schemas["Thing_v3"].Properties["part"].Ref != "Part_v3" {
		t.Errorf("v3 schemas: Part_v3 requires %v, Thing_v3.part is %+v", r, spec.Schemas["Thing_v3"].Properties["part"])
	}
	if spec.Schemas["Thing"].Properties["part"].Ref != "Part" {
		t.Errorf("Thing.part is %+v", spec.Schemas["Thing"].Properties["part"])
	}
	if got := spec.Schemas["Search"].Properties["sorts"]; !reflect.DeepEqual(got, sortObjects) {
		t.Errorf("Search.sorts = %+v, want the correction", got)
	}
	var recorded []correction
	if err := json.Unmarshal(spec.Facts["corrections"], &recorded); err != nil || len(recorded) != 1 || recorded[0].Why == "" {
		t.Errorf("corrections fact %s: %v", spec.Facts["corrections"], err)
	}
	b, _ := json.Marshal(spec)
	if _, err := apispec.Parse(b); err != nil {
		t.Fatal(err)
	}
}

// TestOpenAPICorrectionOfMissingField: a correction naming a field the
// document's schema lacks is an error, not a silent no-op.
func TestOpenAPICorrectionOfMissingField(t *testing.T) {
	t.Parallel()
	tg := target{format: "openapi", operations: []string{"POST /shared/search"},
		corrections: []correction{{Schema: "Search", Field: "sort", To: &apispec.Schema{Type: "string"}, Why: "typo"}}}
	spec := &apispec.Spec{Schemas: map[string]*apispec.Schema{}}
	if err := fromOpenAPI(spec, openAPIFixture("v3", `"name"`), tg); err == nil || !strings.Contains(err.Error(), "Search.sort") {
		t.Fatalf("err = %v", err)
	}
}

func TestOAuthScopes(t *testing.T) {
	for _, tc := range []struct {
		security []map[string][]string
		want     string
	}{
		{nil, ""},
		{[]map[string][]string{{"oauth2": {"crm.objects.contacts.read"}}, {"private_apps": {"x"}}}, "crm.objects.contacts.read"},
		{[]map[string][]string{{"oauth2": {"b", "a"}}, {"oauth2": {"a", "c"}}}, "a b c"},
	} {
		if got := strings.Join(oauthScopes(tc.security), " "); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.security, got, tc.want)
		}
	}
}
