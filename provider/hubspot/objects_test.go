package hubspot

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

func TestRecordToolsListAndGet(t *testing.T) {
	t.Parallel()
	tests := []struct {
		tool      string
		seeded    int
		nameField string
		urlType   string
	}{
		{"crm_contacts", len(seedContacts), "email", "0-1"},
		{"crm_companies", len(seedCompanies), "domain", "0-2"},
		{"crm_deals", len(seedDeals), "dealname", "0-3"},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			t.Parallel()
			e := newTestEnv(t)
			seen := map[string]bool{}
			cursor := ""
			for pages := 0; ; pages++ {
				if pages > 10 {
					t.Fatal("paging does not end")
				}
				in := `{"rationale": "page through records", "action": "list", "limit": 4`
				if cursor != "" {
					in += fmt.Sprintf(`, "cursor": %q`, cursor)
				}
				p := mustRun[Page](e, tt.tool, in+"}")
				if len(p.Items) > 4 {
					t.Fatalf("page has %d items, limit 4", len(p.Items))
				}
				for _, it := range p.Items {
					if seen[it.ID] {
						t.Fatalf("record %s on two pages", it.ID)
					}
					seen[it.ID] = true
					if propValue(it, tt.nameField) == "" || it.CreatedAt == "" || !strings.Contains(it.URL, "/record/"+tt.urlType+"/"+it.ID) {
						t.Fatalf("record lacks %s, created_at or url: %+v", tt.nameField, it)
					}
				}
				if cursor = p.NextCursor; cursor == "" {
					break
				}
			}
			if len(seen) != tt.seeded {
				t.Fatalf("paged %d records, seeded %d", len(seen), tt.seeded)
			}
			var id string
			for k := range seen {
				id = k
				break
			}
			got := mustRun[Item](e, tt.tool, fmt.Sprintf(`{"rationale": "read one", "action": "get", "id": %q, "fields": ["hs_object_id", "%s"]}`, id, tt.nameField))
			if got.ID != id || propValue(got, "hs_object_id") != id || propValue(got, tt.nameField) == "" {
				t.Fatalf("get %s = %+v", id, got)
			}
		})
	}
}

func TestRecordToolsFilterAndSearch(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	tests := []struct {
		name  string
		tool  string
		input string
		want  int
		check func(Item) bool
	}{
		{"contacts EQ lifecycle", "crm_contacts", `"action": "list", "filter": {"property": "lifecyclestage", "operator": "EQ", "value": "customer"}`, 5,
			func(it Item) bool { return propValue(it, "lifecyclestage") == "customer" }},
		{"contacts email wildcard token", "crm_contacts", `"action": "list", "filter": {"property": "email", "operator": "CONTAINS_TOKEN", "value": "*@corvidsec.com"}`, 2,
			func(it Item) bool { return strings.HasSuffix(propValue(it, "email"), "@corvidsec.com") }},
		{"contacts IN lead status", "crm_contacts", `"action": "list", "filter": {"property": "hs_lead_status", "operator": "IN", "value": ["NEW", "UNQUALIFIED"]}`, 6, nil},
		{"companies numeric GT", "crm_companies", `"action": "list", "filter": {"property": "numberofemployees", "operator": "GT", "value": 2000}, "fields": ["name", "numberofemployees"]`, 3,
			func(it Item) bool { return propValue(it, "numberofemployees") > "2000" }},
		{"deals BETWEEN amount", "crm_deals", `"action": "list", "filter": {"property": "amount", "operator": "BETWEEN", "value": [50000, 150000]}`, 6, nil},
		{"deals closed stages", "crm_deals", `"action": "list", "filter": {"property": "dealstage", "operator": "NOT_IN", "value": ["closedwon", "closedlost"]}`, 12, nil},
		{"deals date LT", "crm_deals", `"action": "list", "filter": {"property": "closedate", "operator": "LT", "value": "2025-06-01T00:00:00Z"}`, 4, nil},
		{"search free text", "crm_contacts", `"action": "search", "query": "tanaka"`, 1,
			func(it Item) bool { return propValue(it, "lastname") == "Tanaka" }},
		{"search text plus filter", "crm_deals", `"action": "search", "query": "quarry", "filter": {"property": "amount", "operator": "GTE", "value": "20000"}`, 1, nil},
		{"search company by domain", "crm_companies", `"action": "search", "query": "nimbuspayroll.com"`, 1, nil},
		{"no property", "crm_contacts", `"action": "list", "filter": {"property": "notes_last_contacted", "operator": "NOT_HAS_PROPERTY"}`, len(seedContacts), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := mustRun[Page](e, tt.tool, `{"rationale": "find matching records", "limit": 100, `+tt.input+`}`)
			if len(p.Items) != tt.want {
				t.Fatalf("got %d items, want %d", len(p.Items), tt.want)
			}
			if p.Total == nil || *p.Total != tt.want {
				t.Fatalf("total = %v, want %d", p.Total, tt.want)
			}
			for _, it := range p.Items {
				if tt.check != nil && !tt.check(it) {
					t.Fatalf("item does not match: %+v", it.Properties)
				}
			}
		})
	}
}

func TestSearchPagingAndSort(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	in := `{"rationale": "biggest deals first", "action": "list", "limit": 5, "sort": {"property": "amount", "direction": "DESCENDING"}, "filter": {"property": "amount", "operator": "HAS_PROPERTY"}%s}`
	first := mustRun[Page](e, "crm_deals", fmt.Sprintf(in, ""))
	if len(first.Items) != 5 || first.NextCursor == "" || first.Total == nil || *first.Total != len(seedDeals) {
		t.Fatalf("first page: %d items, cursor %q, total %v", len(first.Items), first.NextCursor, first.Total)
	}
	if got := propValue(first.Items[0], "amount"); got != "310000" {
		t.Fatalf("largest amount = %s, want 310000", got)
	}
	second := mustRun[Page](e, "crm_deals", fmt.Sprintf(in, fmt.Sprintf(`, "cursor": %q`, first.NextCursor)))
	if len(second.Items) != 5 || second.Items[0].ID == first.Items[0].ID {
		t.Fatalf("second page repeats the first: %+v", second.Items)
	}
}

func TestRecordCreateUpdate(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	created := mustRun[Item](e, "crm_contacts", `{"rationale": "add the new champion", "action": "create",
		"properties": {"email": "dana.ito@quarryanalytics.com", "firstname": "Dana", "lastname": "Ito", "lifecyclestage": "lead"}}`)
	if created.ID == "" || propValue(created, "email") != "dana.ito@quarryanalytics.com" {
		t.Fatalf("created = %+v", created)
	}
	got := mustRun[Item](e, "crm_contacts", fmt.Sprintf(`{"rationale": "check it", "action": "get", "id": %q}`, created.ID))
	if propValue(got, "firstname") != "Dana" {
		t.Fatalf("get after create = %+v", got.Properties)
	}
	updated := mustRun[Item](e, "crm_contacts", fmt.Sprintf(`{"rationale": "qualified on call", "action": "update", "id": %q,
		"properties": {"lifecyclestage": "salesqualifiedlead", "jobtitle": "RevOps Lead", "firstname": null}}`, created.ID))
	if propValue(updated, "lifecyclestage") != "salesqualifiedlead" {
		t.Fatalf("update = %+v", updated.Properties)
	}
	got = mustRun[Item](e, "crm_contacts", fmt.Sprintf(`{"rationale": "check it", "action": "get", "id": %q, "fields": ["jobtitle", "firstname", "lifecyclestage"]}`, created.ID))
	if propValue(got, "jobtitle") != "RevOps Lead" || got.Properties["firstname"] != nil {
		t.Fatalf("get after update = %+v", got.Properties)
	}
	found := mustRun[Page](e, "crm_contacts", `{"rationale": "find by email", "action": "search", "query": "dana.ito"}`)
	if len(found.Items) != 1 || found.Items[0].ID != created.ID {
		t.Fatalf("search after create = %+v", found.Items)
	}
	deal := mustRun[Item](e, "crm_deals", `{"rationale": "open an opportunity", "action": "create",
		"properties": {"dealname": "Quarry – Enterprise tier", "amount": 64000, "dealstage": "qualifiedtobuy"}}`)
	if propValue(deal, "amount") != "64000" || propValue(deal, "pipeline") != "default" {
		t.Fatalf("deal = %+v", deal.Properties)
	}
}

func TestRecordValidation(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	tests := []struct {
		name, tool, input, mention string
	}{
		{"get without id", "crm_contacts", `{"rationale": "r", "action": "get"}`, "id is required"},
		{"update without id", "crm_deals", `{"rationale": "r", "action": "update", "properties": {"amount": "1"}}`, "id is required"},
		{"update without properties", "crm_deals", `{"rationale": "r", "action": "update", "id": "7201"}`, "properties is required"},
		{"create without properties", "crm_companies", `{"rationale": "r", "action": "create"}`, "properties is required"},
		{"create with empty properties", "crm_companies", `{"rationale": "r", "action": "create", "properties": {}}`, "properties"},
		{"search without query", "crm_contacts", `{"rationale": "r", "action": "search"}`, "query is required"},
		{"missing rationale", "crm_contacts", `{"action": "list"}`, "rationale"},
		{"unknown action", "crm_contacts", `{"rationale": "r", "action": "delete"}`, "action"},
		{"between needs pair", "crm_deals", `{"rationale": "r", "action": "list", "filter": {"property": "amount", "operator": "BETWEEN", "value": 5}}`, "[low, high]"},
		{"has property takes no value", "crm_deals", `{"rationale": "r", "action": "list", "filter": {"property": "amount", "operator": "HAS_PROPERTY", "value": 5}}`, "omitted"},
		{"object property value", "crm_contacts", `{"rationale": "r", "action": "create", "properties": {"email": {"a": 1}}}`, "properties"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := e.run(tt.tool, tt.input)
			ge := providertest.WantCode(t, err, gtmgate.EValidation)
			if !strings.Contains(ge.Message, tt.mention) {
				t.Fatalf("message %q does not mention %q", ge.Message, tt.mention)
			}
		})
	}
}

func TestRecordUpstreamRejections(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	tests := []struct {
		name, tool, input string
		status            int
		mention           string
	}{
		{"unknown id", "crm_contacts", `{"rationale": "r", "action": "get", "id": "999999"}`, 404, "Object not found"},
		{"update unknown id", "crm_deals", `{"rationale": "r", "action": "update", "id": "1", "properties": {"amount": "5"}}`, 404, "Object not found"},
		{"invalid stage", "crm_deals", `{"rationale": "r", "action": "update", "id": "7201", "properties": {"dealstage": "won-ish"}}`, 400, "allowed options"},
		{"unknown property", "crm_contacts", `{"rationale": "r", "action": "create", "properties": {"favourite_colour": "teal"}}`, 400, "does not exist"},
		{"read-only property", "crm_companies", `{"rationale": "r", "action": "update", "id": "8801", "properties": {"createdate": "2020-01-01T00:00:00Z"}}`, 400, "read only"},
		{"not a number", "crm_deals", `{"rationale": "r", "action": "update", "id": "7201", "properties": {"amount": "lots"}}`, 400, "not a valid number"},
		{"filter on unknown property", "crm_contacts", `{"rationale": "r", "action": "list", "filter": {"property": "shoe_size", "operator": "EQ", "value": 9}}`, 400, "shoe_size"},
		{"duplicate email", "crm_contacts", `{"rationale": "r", "action": "create", "properties": {"email": "anika.jansen@brightwavelogistics.com"}}`, 409, "already exists"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := e.run(tt.tool, tt.input)
			ge := providertest.WantCode(t, err, gtmgate.EUpstream)
			d := upstreamDetail(t, ge)
			if d.Status != tt.status || d.Provider != Provider {
				t.Fatalf("detail = %+v, want status %d", d, tt.status)
			}
			if !strings.Contains(ge.Message, tt.mention) {
				t.Fatalf("message %q does not carry the provider message %q", ge.Message, tt.mention)
			}
		})
	}
}
