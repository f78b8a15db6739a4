package hubspot

import (
	"context"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
)

var notes = objectKind{path: "notes", singular: "note",
	defaultFields: []string{"hs_note_body", "hs_timestamp", "hubspot_owner_id", "hs_lastmodifieddate"}}

// noteInput is the decoded input of crm_notes.
type noteInput struct {
	engagementLinks
	Body      string     `json:"body"`
	Timestamp string     `json:"timestamp"`
	OwnerID   string     `json:"owner_id"`
	Fields    []string   `json:"fields"`
	Sort      *sortInput `json:"sort"`
}

func notesTool(a *api) gtmgate.Tool {
	return gtmgate.Tool{
		Name: "crm_notes", Domain: domain, Provider: Provider, Title: "HubSpot notes",
		Description: "Read and add notes on HubSpot contacts, companies and deals, newest first; contact_id, company_id or deal_id picks the record.",
		Actions: []gtmgate.Action{
			{Name: "list", Category: gtmgate.CategoryCRMRead, List: true,
				Description: "page through notes, newest first, optionally only those on a contact, company or deal"},
			{Name: "create", Category: gtmgate.CategoryCRMWrite, Mutating: true, Additive: true, Required: []string{"body"},
				Description: "add a note, attached to the contact, company and/or deal given"},
		},
		Properties: map[string]*jsonschema.Schema{
			"body":       {Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(65536)},
			"timestamp":  {Type: "string", Format: "date-time"},
			"owner_id":   {Type: "string"},
			"contact_id": linkSchema(),
			"company_id": linkSchema(),
			"deal_id":    linkSchema(),
			"fields":     fieldsSchema(),
			"sort":       sortSchema(),
		},
		Run: func(ctx context.Context, call *gtmgate.Call) (any, error) {
			var in noteInput
			if err := call.Bind(&in); err != nil {
				return nil, err
			}
			switch call.Action.Name {
			case "list":
				return listEngagements(ctx, a, notes, call, in.engagementLinks, in.Fields, sorts(in.Sort, hsSort{PropertyName: "hs_timestamp", Direction: "DESCENDING"}))
			case "create":
				ts, err := timestampOrNow(in.Timestamp, "timestamp")
				if err != nil {
					return nil, err
				}
				props := map[string]string{"hs_note_body": in.Body, "hs_timestamp": ts}
				if in.OwnerID != "" {
					props["hubspot_owner_id"] = in.OwnerID
				}
				return a.createObject(ctx, call, notes, hsObjectInput{Properties: props, Associations: in.associations(notes.path)})
			}
			return nil, gtmgate.Errorf(gtmgate.EValidation, "unknown action %q", call.Action.Name)
		},
	}
}

// listEngagements lists notes or tasks through search, so they can be
// ordered by hs_timestamp and narrowed to one record's timeline.
func listEngagements(ctx context.Context, a *api, k objectKind, call *gtmgate.Call, links engagementLinks, fields []string, order []hsSort) (Page, error) {
	groups, err := filterGroups(call.Filter, links.filters()...)
	if err != nil {
		return Page{}, err
	}
	return a.searchObjects(ctx, call, k, hsSearchRequest{FilterGroups: groups, Sorts: order, Properties: fields})
}

// timestampOrNow checks an RFC 3339 time, or returns now; HubSpot requires
// hs_timestamp on every engagement.
func timestampOrNow(v, field string) (string, error) {
	if v == "" {
		return time.Now().UTC().Format("2006-01-02T15:04:05.000Z"), nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return "", gtmgate.Errorf(gtmgate.EValidation, "%s %q is not an RFC 3339 date-time", field, v).
			WithHint("for example 2025-03-14T15:00:00Z")
	}
	return t.UTC().Format("2006-01-02T15:04:05.000Z"), nil
}
