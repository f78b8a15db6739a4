package hubspot

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

// specAssocPage is a GET …/associations/{toObjectType} answer in the shape of
// CollectionResponseMultiAssociatedObjectWithLabelForwardPaging in HubSpot's
// associations spec (HubSpot/HubSpot-public-api-spec-collection,
// PublicApiSpecs/CRM/Associations/Rollouts/130902/v4/associations.json):
// toObjectId is a string there.
const specAssocPage = `{"results":[
	{"toObjectId":"8801","associationTypes":[{"category":"HUBSPOT_DEFINED","typeId":279,"label":null}]},
	{"toObjectId":"9007199254740993","associationTypes":[{"category":"USER_DEFINED","typeId":7,"label":"Champion","fromObjectTypeId":"0-1","toObjectTypeId":"0-2"}]}],
	"paging":{"next":{"after":"2","link":"https://api.hubapi.com/…"}}}`

func TestAssocPageDecodesBothIDShapes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body string
		want       []hsObjectID
	}{
		{"spec: strings", specAssocPage, []hsObjectID{"8801", "9007199254740993"}},
		{"older rollout: numbers", `{"results":[{"toObjectId":8801,"associationTypes":[]},{"toObjectId":9007199254740993,"associationTypes":[]}]}`,
			[]hsObjectID{"8801", "9007199254740993"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var p hsAssocPage
			if err := json.Unmarshal([]byte(tt.body), &p); err != nil {
				t.Fatalf("decode: %v", err)
			}
			if len(p.Results) != len(tt.want) {
				t.Fatalf("results = %+v", p.Results)
			}
			for i, r := range p.Results {
				if r.ToObjectID != tt.want[i] {
					t.Errorf("result %d toObjectId = %q, want %q", i, r.ToObjectID, tt.want[i])
				}
			}
		})
	}
}

func TestObjectIDRefusesNonIDs(t *testing.T) {
	t.Parallel()
	for _, in := range []string{`""`, `"12a"`, `-3`, `1.5`, `true`, `null`, `{}`, `"1 2"`} {
		var id hsObjectID
		if err := json.Unmarshal([]byte(in), &id); err == nil && in != "null" {
			t.Errorf("%s decoded to %q, want an error", in, id)
		}
	}
}

func FuzzObjectID(f *testing.F) {
	for _, s := range []string{`"8801"`, `8801`, `"x"`, `1e3`, `""`, `null`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var id hsObjectID
		if err := json.Unmarshal([]byte(in), &id); err == nil && id != "" && strings.Trim(string(id), "0123456789") != "" {
			t.Fatalf("%q decoded to non-digits %q", in, id)
		}
	})
}

// TestAssociationsListSpecShape: the sandbox answers in the spec's shape
// (string ids) and the tool returns them.
func TestAssociationsListSpecShape(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	w, body := call(t, e.sandbox, "GET", "/crm/v4/objects/contacts/1501/associations/companies", "", nil)
	results, _ := body["results"].([]any)
	if w.Code != 200 || len(results) == 0 {
		t.Fatalf("sandbox: %d %v", w.Code, body)
	}
	if _, ok := results[0].(map[string]any)["toObjectId"].(string); !ok {
		t.Fatalf("sandbox toObjectId = %#v, want a string as the spec types it", results[0].(map[string]any)["toObjectId"])
	}
	page := mustRun[AssociationPage](e, "crm_associations", `{"rationale":"r","action":"list","from_type":"contacts","from_id":"1501","to_type":"companies"}`)
	if len(page.Items) != len(results) || page.Items[0].ID != results[0].(map[string]any)["toObjectId"] {
		t.Errorf("items = %+v, want the sandbox's %v", page.Items, results)
	}
}

// TestTaskPriorityValues: hs_task_priority is LOW, MEDIUM or HIGH; NONE is
// no documented value, so the tool refuses it and so does the sandbox.
func TestTaskPriorityValues(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	_, err := e.run("crm_tasks", `{"rationale":"r","action":"create","subject":"s","priority":"NONE"}`)
	providertest.WantCode(t, err, gtmgate.EValidation)
	w, body := call(t, e.sandbox, "POST", "/crm/v3/objects/tasks", `{"properties":{"hs_timestamp":"2026-02-01T09:00:00Z","hs_task_priority":"NONE"},"associations":[]}`, nil)
	if w.Code != 400 || !strings.Contains(w.Body.String(), "INVALID_OPTION") {
		t.Errorf("sandbox create with NONE: %d %v, want 400 INVALID_OPTION", w.Code, body)
	}
	for _, p := range []string{"LOW", "MEDIUM", "HIGH"} {
		mustRun[Item](e, "crm_tasks", `{"rationale":"r","action":"create","subject":"s","priority":"`+p+`","due":"2026-02-01T09:00:00Z"}`)
	}
}
