package console

import (
	"encoding/json"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/provider/hubspot"
	"github.com/gtmgate/gtmgate/provider/upstream"
	"github.com/gtmgate/gtmgate/registry"
)

// hubspotSchema is the input schema of a real HubSpot tool as the admin API
// answers it (decoded JSON).
func hubspotSchema(t *testing.T, tool string) map[string]any {
	t.Helper()
	c, err := upstream.New(upstream.Options{Provider: "hubspot", BaseURL: "https://api.hubapi.com"})
	if err != nil {
		t.Fatal(err)
	}
	e, ok := registry.MustNew(hubspot.Tools(c)...).Tool(tool)
	if !ok {
		t.Fatalf("no tool %s", tool)
	}
	return decoded(t, e.Schema)
}

func decoded(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// scalars is a schema with the kinds no HubSpot tool takes.
const scalars = `{"type": "object", "required": ["rationale"], "properties": {
	"rationale": {"type": "string", "minLength": 1, "maxLength": 2000},
	"dry_run": {"type": "boolean", "description": "Check only."},
	"budget": {"type": "number"},
	"count": {"type": ["integer", "null"]},
	"channel": {"type": "string", "enum": ["email", "sms"]},
	"to": {"type": "string", "format": "email"},
	"day": {"type": "string", "format": "date"},
	"tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}}}}`

// TestFormFields: each property of a tool's input schema becomes the
// field its type calls for, action first and the required ones next.
func TestFormFields(t *testing.T) {
	var synthetic map[string]any
	if err := json.Unmarshal([]byte(scalars), &synthetic); err != nil {
		t.Fatal(err)
	}
	marks := actionMarks{"create": {"held for approval", "changes data"}}
	for _, tc := range []struct {
		name   string
		schema map[string]any
		// want is "name:kind[:type]" of each field, in order, with "*"
		// after a required one's name.
		want []string
	}{
		{"crm_contacts", hubspotSchema(t, "crm_contacts"), []string{
			"action*:select", "rationale*:textarea", "account_id:text:text", "cursor:text:text", "fields:lines", "filter:json",
			"id:text:text", "limit:number:number", "properties:json", "query:textarea", "sort:json"}},
		{"crm_notes", hubspotSchema(t, "crm_notes"), []string{
			"action*:select", "rationale*:textarea", "account_id:text:text", "body:textarea", "company_id:text:text",
			"contact_id:text:text", "cursor:text:text", "deal_id:text:text", "fields:lines", "filter:json", "limit:number:number",
			"owner_id:text:text", "sort:json", "timestamp:text:text"}},
		{"scalars", synthetic, []string{
			"rationale*:textarea", "budget:number:number", "channel:select", "count:number:number", "day:text:date",
			"dry_run:checkbox", "tags:json", "to:text:email"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, f := range formFields(tc.schema, marks) {
				s := f.Name
				if f.Required {
					s += "*"
				}
				s += ":" + f.Kind
				if f.Type != "" {
					s += ":" + f.Type
				}
				got = append(got, s)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("fields\n got %v\nwant %v", got, tc.want)
			}
		})
	}
	fields := formFields(hubspotSchema(t, "crm_notes"), marks)
	if got := fields[0].Options; len(got) != 2 || got[1] != (fieldOption{"create", "create (held for approval, changes data)"}) || got[0].Value != "list" {
		t.Errorf("action options %v: every action, marked, and no empty choice", got)
	}
	if f := formFields(synthetic, nil)[2]; f.Options[0].Value != "" || !f.Integer == (f.Name == "count") {
		t.Errorf("an optional enum starts with an empty choice: %+v", f)
	}
	if help := formFields(hubspotSchema(t, "crm_notes"), nil)[13].Help; !strings.Contains(help, "RFC 3339") {
		t.Errorf("a date-time field says its format: %q", help)
	}
}

// TestInputOf: a posted form becomes the tool's input typed as its schema
// says; a value that cannot be read is kept and its field says why.
func TestInputOf(t *testing.T) {
	var synthetic map[string]any
	if err := json.Unmarshal([]byte(scalars), &synthetic); err != nil {
		t.Fatal(err)
	}
	fields := append(formFields(synthetic, nil), formFields(hubspotSchema(t, "crm_contacts"), nil)...)
	for _, tc := range []struct {
		name string
		form url.Values
		want map[string]any
		// bad names the fields that could not be read.
		bad []string
	}{
		{"empty fields are left out", url.Values{"in.rationale": {"why"}, "in.query": {""}, "in.limit": {" "}},
			map[string]any{"rationale": "why"}, nil},
		{"typed values", url.Values{"in.rationale": {"why"}, "in.budget": {"12.5"}, "in.count": {"3"}, "in.dry_run": {"true"},
			"in.action": {"search"}, "in.query": {"ada"}, "in.fields": {"email\n\n firstname \n"}, "in.sort": {`{"property": "email"}`}},
			map[string]any{"rationale": "why", "budget": 12.5, "count": int64(3), "dry_run": true, "action": "search", "query": "ada",
				"fields": []string{"email", "firstname"}, "sort": map[string]any{"property": "email"}}, nil},
		{"values that cannot be read", url.Values{"in.rationale": {"why"}, "in.count": {"2.5"}, "in.budget": {"lots"}, "in.filter": {"{oops"}},
			map[string]any{"rationale": "why"}, []string{"budget", "count", "filter"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			input, shown, ok := inputOf(fields, tc.form)
			if ok != (len(tc.bad) == 0) {
				t.Errorf("ok = %v", ok)
			}
			if len(tc.bad) == 0 && !reflect.DeepEqual(input, tc.want) {
				t.Errorf("input\n got %#v\nwant %#v", input, tc.want)
			}
			var bad []string
			for _, f := range shown {
				if f.Error != "" {
					bad = append(bad, f.Name)
					if f.Value != tc.form.Get("in."+f.Name) {
						t.Errorf("%s: the value typed is not kept: %q", f.Name, f.Value)
					}
				}
			}
			if !reflect.DeepEqual(bad, tc.bad) {
				t.Errorf("fields in error %v, want %v", bad, tc.bad)
			}
		})
	}
}
