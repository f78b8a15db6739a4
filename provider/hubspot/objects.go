package hubspot

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
)

// recordTool describes one of the three record tools (contacts, companies, deals).
type recordTool struct {
	objectKind
	name, title, description string
	// searchHint says which properties free-text search matches.
	searchHint string
}

var (
	contacts = recordTool{
		objectKind: objectKind{path: "contacts", singular: "contact", typeID: "0-1",
			defaultFields: []string{"firstname", "lastname", "email", "phone", "company", "jobtitle", "lifecyclestage", "hs_lead_status", "hubspot_owner_id", "createdate", "lastmodifieddate"}},
		name:  "crm_contacts",
		title: "HubSpot contacts",
		description: "Find, read, create and update HubSpot contacts. search is free text on name, email, phone and company; " +
			"list takes exact filters.",
		searchHint: "name, email, phone and company name",
	}
	companies = recordTool{
		objectKind: objectKind{path: "companies", singular: "company", typeID: "0-2",
			defaultFields: []string{"name", "domain", "industry", "city", "country", "numberofemployees", "annualrevenue", "lifecyclestage", "hubspot_owner_id", "createdate", "hs_lastmodifieddate"}},
		name:  "crm_companies",
		title: "HubSpot companies",
		description: "Find, read, create and update HubSpot companies. search is free text on name, domain, website and phone; " +
			"list takes exact filters.",
		searchHint: "name, domain, website and phone",
	}
	deals = recordTool{
		objectKind: objectKind{path: "deals", singular: "deal", typeID: "0-3",
			defaultFields: []string{"dealname", "amount", "dealstage", "pipeline", "closedate", "hubspot_owner_id", "hs_priority", "createdate", "hs_lastmodifieddate"}},
		name:        "crm_deals",
		title:       "HubSpot deals",
		description: "Find, read, create and update HubSpot deals. dealstage and pipeline hold ids: read them from crm_pipelines first.",
		searchHint:  "deal name",
	}
)

// recordInput is the decoded input of a record tool.
type recordInput struct {
	ID         string         `json:"id"`
	Query      string         `json:"query"`
	Properties map[string]any `json:"properties"`
	Fields     []string       `json:"fields"`
	Sort       *sortInput     `json:"sort"`
}

// objectTool builds crm_contacts, crm_companies or crm_deals.
func objectTool(a *api, rt recordTool) gtmgate.Tool {
	s := rt.singular
	return gtmgate.Tool{
		Name: rt.name, Domain: domain, Provider: Provider, Title: rt.title, Description: rt.description,
		Actions: []gtmgate.Action{
			{Name: "list", Category: gtmgate.CategoryCRMRead, List: true,
				Description: fmt.Sprintf("page through %s records, optionally narrowed by filter and ordered by sort", s)},
			{Name: "search", Category: gtmgate.CategoryCRMRead, List: true, Required: []string{"query"},
				Description: fmt.Sprintf("free-text search of %ss by %s, optionally with a filter; reports the total matches", s, rt.searchHint)},
			{Name: "get", Category: gtmgate.CategoryCRMRead, Required: []string{"id"},
				Description: fmt.Sprintf("read one %s by id", s)},
			{Name: "create", Category: gtmgate.CategoryCRMWrite, Mutating: true, Required: []string{"properties"},
				Description: fmt.Sprintf("create a %s from properties", s)},
			{Name: "update", Category: gtmgate.CategoryCRMWrite, Mutating: true, Required: []string{"id", "properties"},
				Description: fmt.Sprintf("change properties of the %s with id; properties not named are left as they are", s),
				Before:      rt.stageBefore(a)},
		},
		Properties: map[string]*jsonschema.Schema{
			"id":         idSchema(),
			"query":      {Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(3000)},
			"properties": propertyValuesSchema(),
			"fields":     fieldsSchema(),
			"sort":       sortSchema(),
		},
		Run: func(ctx context.Context, call *gtmgate.Call) (any, error) {
			var in recordInput
			if err := call.Bind(&in); err != nil {
				return nil, err
			}
			return runRecord(ctx, a, rt.objectKind, call, in)
		},
	}
}

func runRecord(ctx context.Context, a *api, k objectKind, call *gtmgate.Call, in recordInput) (any, error) {
	switch call.Action.Name {
	case "list", "search":
		if call.Action.Name == "list" && call.Filter == nil && in.Sort == nil && in.Query == "" {
			return a.listObjects(ctx, call, k, in.Fields)
		}
		groups, err := filterGroups(call.Filter)
		if err != nil {
			return nil, err
		}
		return a.searchObjects(ctx, call, k, hsSearchRequest{Query: in.Query, FilterGroups: groups, Sorts: sorts(in.Sort), Properties: in.Fields})
	case "get":
		return a.getObject(ctx, call, k, in.ID, in.Fields)
	case "create":
		props, err := stringProps(in.Properties)
		if err != nil {
			return nil, err
		}
		return a.createObject(ctx, call, k, hsObjectInput{Properties: props})
	case "update":
		props, err := stringProps(in.Properties)
		if err != nil {
			return nil, err
		}
		return a.updateObject(ctx, call, k, in.ID, props)
	}
	return nil, gtmgate.Errorf(gtmgate.EValidation, "unknown action %q", call.Action.Name)
}

// stageBefore reads, for a held update of a deal that moves its stage, the
// stage it is in now; nil for contacts and companies, which have none.
func (rt recordTool) stageBefore(a *api) gtmgate.BeforeRead {
	if rt.name != deals.name {
		return nil
	}
	return func(ctx context.Context, call *gtmgate.Call) (map[string]any, error) {
		var in recordInput
		if err := call.Bind(&in); err != nil {
			return nil, err
		}
		if _, moves := in.Properties["dealstage"]; !moves {
			return nil, nil // an update that leaves the stage alone
		}
		item, err := a.getObject(ctx, call, rt.objectKind, in.ID, []string{"dealstage"})
		if err != nil {
			return nil, err
		}
		stage := ""
		if p := item.Properties["dealstage"]; p != nil {
			stage = *p
		}
		return map[string]any{"stage": stage}, nil
	}
}
