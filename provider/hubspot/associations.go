package hubspot

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
)

// Association is one record associated with the "from" record.
type Association struct {
	// ID is the associated record's id.
	ID string `json:"id"`
	// Type is the associated record's object type ("companies").
	Type string `json:"type"`
	// Labels are the association's labels; empty for unlabeled associations.
	Labels []string `json:"labels"`
	// TypeIDs are HubSpot's association type ids (279 = contact to company…).
	TypeIDs []int `json:"type_ids"`
}

// AssociationPage is a page of associations.
type AssociationPage struct {
	Items      []Association `json:"items"`
	NextCursor string        `json:"next_cursor"`
}

// AssociationResult reports an association written.
type AssociationResult struct {
	Status string `json:"status"`
	From   string `json:"from_id"`
	To     string `json:"to_id"`
	// TypeIDs are the association type ids HubSpot created, both directions.
	TypeIDs []int `json:"type_ids"`
}

// associationInput is the decoded input of crm_associations.
type associationInput struct {
	FromType string `json:"from_type"`
	FromID   string `json:"from_id"`
	ToType   string `json:"to_type"`
	ToID     string `json:"to_id"`
}

func associationsTool(a *api) gtmgate.Tool {
	types := make([]any, len(associableTypes))
	for i, t := range associableTypes {
		types[i] = t
	}
	typeSchema := func() *jsonschema.Schema {
		return &jsonschema.Schema{Type: "string", Enum: types}
	}
	return gtmgate.Tool{
		Name: "crm_associations", Domain: domain, Provider: Provider, Title: "HubSpot associations",
		Description: "List or create links between HubSpot records (a contact's companies, a deal's contacts, a record's notes and tasks); " +
			"list returns ids.",
		Actions: []gtmgate.Action{
			{Name: "list", Category: gtmgate.CategoryCRMRead, List: true, Required: []string{"from_type", "from_id", "to_type"},
				Description: "ids of the to_type records associated with the from record"},
			{Name: "create", Category: gtmgate.CategoryCRMWrite, Mutating: true, Additive: true, Required: []string{"from_type", "from_id", "to_type", "to_id"},
				Description: "associate the from record with the to record (default, unlabeled association)"},
		},
		Properties: map[string]*jsonschema.Schema{
			"from_type": typeSchema(),
			"from_id":   idSchema(),
			"to_type":   typeSchema(),
			"to_id":     idSchema(),
		},
		Run: func(ctx context.Context, call *gtmgate.Call) (any, error) {
			var in associationInput
			if err := call.Bind(&in); err != nil {
				return nil, err
			}
			if _, ok := defaultAssocTypes[[2]string{in.FromType, in.ToType}]; !ok {
				return nil, gtmgate.Errorf(gtmgate.EValidation, "%s cannot be associated with %s", in.FromType, in.ToType).
					WithHint("supported: contacts, companies and deals with each other, and notes or tasks with contacts, companies or deals")
			}
			switch call.Action.Name {
			case "list":
				if call.Filter != nil {
					return nil, gtmgate.Errorf(gtmgate.EValidation, "filter is not supported when listing associations").
						WithHint("list the associated ids, then read or search the records themselves")
				}
				return a.listAssociations(ctx, call, in)
			case "create":
				return a.createAssociation(ctx, call, in)
			}
			return nil, gtmgate.Errorf(gtmgate.EValidation, "unknown action %q", call.Action.Name)
		},
	}
}

// listAssociations calls GET …/objects/{fromType}/{fromId}/associations/{toType}.
func (a *api) listAssociations(ctx context.Context, call *gtmgate.Call, in associationInput) (AssociationPage, error) {
	path := fmt.Sprintf("%s/%s/%s/associations/%s", a.crm("objects", true), in.FromType, url.PathEscape(in.FromID), in.ToType)
	req := request(call, http.MethodGet, path, nil)
	req.Query = url.Values{"limit": {strconv.Itoa(pageLimit(call, maxListLimit))}}
	if call.Cursor != "" {
		req.Query.Set("after", call.Cursor)
	}
	var p hsAssocPage
	if err := a.c.Do(ctx, req, &p); err != nil {
		return AssociationPage{}, fmt.Errorf("hubspot: list %s associations of %s %s: %w", in.ToType, in.FromType, in.FromID, err)
	}
	out := AssociationPage{Items: make([]Association, 0, len(p.Results)), NextCursor: p.Paging.nextAfter()}
	for _, r := range p.Results {
		as := Association{ID: string(r.ToObjectID), Type: in.ToType, Labels: []string{}, TypeIDs: []int{}}
		for _, t := range r.AssociationTypes {
			as.TypeIDs = append(as.TypeIDs, t.TypeID)
			if t.Label != nil && *t.Label != "" {
				as.Labels = append(as.Labels, *t.Label)
			}
		}
		out.Items = append(out.Items, as)
	}
	return out, nil
}

// createAssociation calls PUT …/objects/{fromType}/{fromId}/associations/default/{toType}/{toId}.
func (a *api) createAssociation(ctx context.Context, call *gtmgate.Call, in associationInput) (AssociationResult, error) {
	path := fmt.Sprintf("%s/%s/%s/associations/default/%s/%s", a.crm("objects", true), in.FromType, url.PathEscape(in.FromID), in.ToType, url.PathEscape(in.ToID))
	var r hsBatchResponse
	if err := a.c.Do(ctx, request(call, http.MethodPut, path, nil), &r); err != nil {
		return AssociationResult{}, fmt.Errorf("hubspot: associate %s %s with %s %s: %w", in.FromType, in.FromID, in.ToType, in.ToID, err)
	}
	out := AssociationResult{Status: r.Status, From: in.FromID, To: in.ToID, TypeIDs: []int{}}
	for _, res := range r.Results {
		out.TypeIDs = append(out.TypeIDs, res.AssociationSpec.TypeID)
	}
	return out, nil
}
