package hubspot

import (
	"strings"
)

// sandboxType is one object type the sandbox serves.
type sandboxType struct {
	name  string
	props []hsProperty
	// byName indexes props.
	byName map[string]*hsProperty
	// defaults are returned when a request names no properties.
	defaults []string
	// searchable are matched by a search's free-text query.
	searchable []string
	// created and modified are the timestamp properties HubSpot maintains.
	created, modified string
	// required must be set on create.
	required []string
	idBase   int64
}

// kind returns how the named property's values compare in search.
func (t *sandboxType) kind(name string) valueKind {
	p := t.byName[name]
	switch {
	case p == nil:
		return kindString
	case p.Type == "number":
		return kindNumber
	case p.Type == "datetime" || p.Type == "date":
		return kindDate
	}
	return kindString
}

// prop builds a property definition; options are "value=Label" pairs.
func prop(name, label, typ, group string, options ...string) hsProperty {
	field := map[string]string{"string": "text", "number": "number", "datetime": "date", "date": "date", "enumeration": "select", "bool": "booleancheckbox"}[typ]
	p := hsProperty{Name: name, Label: label, Type: typ, FieldType: field, GroupName: group, HubspotDefined: true, FormField: typ != "datetime",
		ModificationMetadata: hsModification{Archivable: false, ReadOnlyDefinition: true}}
	for i, o := range options {
		value, lbl, _ := strings.Cut(o, "=")
		p.Options = append(p.Options, hsOption{Label: lbl, Value: value, DisplayOrder: i})
	}
	if p.Options == nil {
		p.Options = []hsOption{}
	}
	return p
}

// readOnly marks a property HubSpot maintains.
func readOnly(p hsProperty) hsProperty {
	p.ModificationMetadata.ReadOnlyValue = true
	p.Calculated = p.Name != "hs_object_id"
	p.FormField = false
	return p
}

var (
	ownerOptions     = []string{"71001=Maya Chen", "71002=Luis Ortega", "71003=Priya Nair", "71004=Tom Becker"}
	lifecycleOptions = []string{"subscriber=Subscriber", "lead=Lead", "marketingqualifiedlead=Marketing Qualified Lead",
		"salesqualifiedlead=Sales Qualified Lead", "opportunity=Opportunity", "customer=Customer", "evangelist=Evangelist", "other=Other"}
	industryOptions = []string{"COMPUTER_SOFTWARE=Computer Software", "FINANCIAL_SERVICES=Financial Services", "HOSPITAL_HEALTH_CARE=Hospital & Health Care",
		"LOGISTICS_AND_SUPPLY_CHAIN=Logistics and Supply Chain", "RETAIL=Retail", "MARKETING_AND_ADVERTISING=Marketing and Advertising",
		"INFORMATION_TECHNOLOGY_AND_SERVICES=Information Technology and Services", "E_LEARNING=E-Learning", "INSURANCE=Insurance", "MANUFACTURING=Manufacturing"}
)

func sandboxTypes() map[string]*sandboxType {
	owner := prop("hubspot_owner_id", "Contact owner", "enumeration", "sales_properties", ownerOptions...)
	types := []*sandboxType{
		{name: "contacts", idBase: 1500, created: "createdate", modified: "lastmodifieddate",
			defaults:   []string{"firstname", "lastname", "email"},
			searchable: []string{"firstname", "lastname", "email", "phone", "company"},
			props: []hsProperty{
				prop("firstname", "First Name", "string", "contactinformation"),
				prop("lastname", "Last Name", "string", "contactinformation"),
				prop("email", "Email", "string", "contactinformation"),
				prop("phone", "Phone Number", "string", "contactinformation"),
				prop("company", "Company Name", "string", "contactinformation"),
				prop("jobtitle", "Job Title", "string", "contactinformation"),
				prop("city", "City", "string", "contactinformation"),
				prop("country", "Country/Region", "string", "contactinformation"),
				prop("lifecyclestage", "Lifecycle Stage", "enumeration", "contactinformation", lifecycleOptions...),
				prop("hs_lead_status", "Lead Status", "enumeration", "sales_properties", "NEW=New", "OPEN=Open", "IN_PROGRESS=In Progress",
					"OPEN_DEAL=Open Deal", "UNQUALIFIED=Unqualified", "ATTEMPTED_TO_CONTACT=Attempted to Contact", "CONNECTED=Connected", "BAD_TIMING=Bad Timing"),
				owner,
				prop("notes_last_contacted", "Last Contacted", "datetime", "sales_properties"),
				readOnly(prop("createdate", "Create Date", "datetime", "contactinformation")),
				readOnly(prop("lastmodifieddate", "Last Modified Date", "datetime", "contactinformation")),
				readOnly(prop("hs_object_id", "Record ID", "number", "contactinformation")),
			}},
		{name: "companies", idBase: 8800, created: "createdate", modified: "hs_lastmodifieddate",
			defaults:   []string{"name", "domain"},
			searchable: []string{"name", "domain", "website", "phone"},
			props: []hsProperty{
				prop("name", "Company name", "string", "companyinformation"),
				prop("domain", "Company Domain Name", "string", "companyinformation"),
				prop("website", "Website URL", "string", "companyinformation"),
				prop("phone", "Phone Number", "string", "companyinformation"),
				prop("industry", "Industry", "enumeration", "companyinformation", industryOptions...),
				prop("city", "City", "string", "companyinformation"),
				prop("country", "Country/Region", "string", "companyinformation"),
				prop("numberofemployees", "Number of Employees", "number", "companyinformation"),
				prop("annualrevenue", "Annual Revenue", "number", "companyinformation"),
				prop("description", "Description", "string", "companyinformation"),
				prop("lifecyclestage", "Lifecycle Stage", "enumeration", "companyinformation", lifecycleOptions...),
				owner,
				readOnly(prop("createdate", "Create Date", "datetime", "companyinformation")),
				readOnly(prop("hs_lastmodifieddate", "Last Modified Date", "datetime", "companyinformation")),
				readOnly(prop("hs_object_id", "Record ID", "number", "companyinformation")),
			}},
		{name: "deals", idBase: 7200, created: "createdate", modified: "hs_lastmodifieddate",
			defaults:   []string{"dealname", "amount", "dealstage", "pipeline", "closedate"},
			searchable: []string{"dealname"},
			props: []hsProperty{
				prop("dealname", "Deal Name", "string", "dealinformation"),
				prop("amount", "Amount", "number", "dealinformation"),
				prop("pipeline", "Pipeline", "enumeration", "dealinformation", pipelineOptions()...),
				prop("dealstage", "Deal Stage", "enumeration", "dealinformation", stageOptions()...),
				prop("closedate", "Close Date", "datetime", "dealinformation"),
				prop("dealtype", "Deal Type", "enumeration", "dealinformation", "newbusiness=New Business", "existingbusiness=Existing Business"),
				prop("hs_priority", "Priority", "enumeration", "dealinformation", "low=Low", "medium=Medium", "high=High"),
				prop("description", "Deal Description", "string", "dealinformation"),
				owner,
				readOnly(prop("createdate", "Create Date", "datetime", "dealinformation")),
				readOnly(prop("hs_lastmodifieddate", "Last Modified Date", "datetime", "dealinformation")),
				readOnly(prop("hs_object_id", "Record ID", "number", "dealinformation")),
			}},
		{name: "notes", idBase: 5600, created: "hs_createdate", modified: "hs_lastmodifieddate", required: []string{"hs_timestamp"},
			searchable: []string{"hs_note_body"},
			props: []hsProperty{
				prop("hs_note_body", "Note body", "string", "engagement"),
				prop("hs_timestamp", "Activity date", "datetime", "engagement"),
				owner,
				readOnly(prop("hs_createdate", "Create date", "datetime", "engagement")),
				readOnly(prop("hs_lastmodifieddate", "Last modified date", "datetime", "engagement")),
				readOnly(prop("hs_object_id", "Record ID", "number", "engagement")),
			}},
		{name: "tasks", idBase: 6400, created: "hs_createdate", modified: "hs_lastmodifieddate", required: []string{"hs_timestamp"},
			searchable: []string{"hs_task_subject", "hs_task_body"},
			props: []hsProperty{
				prop("hs_task_subject", "Task Title", "string", "task"),
				prop("hs_task_body", "Notes", "string", "task"),
				prop("hs_task_status", "Task Status", "enumeration", "task", "NOT_STARTED=Not Started", "IN_PROGRESS=In Progress", "WAITING=Waiting", "COMPLETED=Completed", "DEFERRED=Deferred"),
				prop("hs_task_priority", "Priority", "enumeration", "task", "LOW=Low", "MEDIUM=Medium", "HIGH=High"),
				prop("hs_task_type", "Task Type", "enumeration", "task", "CALL=Call", "EMAIL=Email", "TODO=To-do"),
				prop("hs_timestamp", "Due date", "datetime", "task"),
				owner,
				readOnly(prop("hs_createdate", "Create date", "datetime", "task")),
				readOnly(prop("hs_lastmodifieddate", "Last modified date", "datetime", "task")),
				readOnly(prop("hs_object_id", "Record ID", "number", "task")),
			}},
	}
	out := map[string]*sandboxType{}
	for _, t := range types {
		t.byName = map[string]*hsProperty{}
		for i := range t.props {
			t.props[i].DisplayOrder = i
			t.byName[t.props[i].Name] = &t.props[i]
		}
		t.defaults = append(t.defaults, t.created, t.modified, "hs_object_id")
		out[t.name] = t
	}
	return out
}

// typeAliases lets paths name object types the ways HubSpot accepts.
var typeAliases = map[string]string{
	"contact": "contacts", "company": "companies", "deal": "deals", "note": "notes", "task": "tasks",
	"0-1": "contacts", "0-2": "companies", "0-3": "deals", "0-46": "notes", "0-27": "tasks",
}

// objectType resolves a path's object type.
func (s *Sandbox) objectType(name string) (*sandboxType, *apiError) {
	n := strings.ToLower(name)
	if a, ok := typeAliases[n]; ok {
		n = a
	}
	if t, ok := s.types[n]; ok {
		return t, nil
	}
	return nil, unknownType(name)
}
