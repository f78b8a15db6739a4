package hubspot

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
)

var tasks = objectKind{path: "tasks", singular: "task",
	defaultFields: []string{"hs_task_subject", "hs_task_body", "hs_task_status", "hs_task_priority", "hs_task_type", "hs_timestamp", "hubspot_owner_id", "hs_lastmodifieddate"}}

// taskInput is the decoded input of crm_tasks.
type taskInput struct {
	engagementLinks
	ID       string     `json:"id"`
	Subject  string     `json:"subject"`
	Body     *string    `json:"body"`
	Status   string     `json:"status"`
	Priority string     `json:"priority"`
	Type     string     `json:"task_type"`
	Due      string     `json:"due"`
	OwnerID  string     `json:"owner_id"`
	Fields   []string   `json:"fields"`
	Sort     *sortInput `json:"sort"`
}

func tasksTool(a *api) gtmgate.Tool {
	return gtmgate.Tool{
		Name: "crm_tasks", Domain: domain, Provider: Provider, Title: "HubSpot tasks",
		Description: "Read, create and update HubSpot tasks, soonest due first; contact_id, company_id or deal_id picks the record; " +
			"status COMPLETED closes one.",
		Actions: []gtmgate.Action{
			{Name: "list", Category: gtmgate.CategoryCRMRead, List: true,
				Description: "page through tasks by due date, optionally only those on a contact, company or deal"},
			{Name: "create", Category: gtmgate.CategoryCRMWrite, Mutating: true, Required: []string{"subject"},
				Description: "create a task, attached to the contact, company and/or deal given"},
			{Name: "update", Category: gtmgate.CategoryCRMWrite, Mutating: true, Required: []string{"id"},
				Description: "change the subject, body, status, priority, type, due date or owner of the task with id"},
		},
		Properties: map[string]*jsonschema.Schema{
			"id":         idSchema(),
			"subject":    {Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(500)},
			"body":       {Type: "string", MaxLength: jsonschema.Ptr(65536)},
			"status":     {Type: "string", Enum: []any{"NOT_STARTED", "IN_PROGRESS", "WAITING", "COMPLETED", "DEFERRED"}},
			"priority":   {Type: "string", Enum: []any{"LOW", "MEDIUM", "HIGH"}},
			"task_type":  {Type: "string", Enum: []any{"CALL", "EMAIL", "TODO"}},
			"due":        {Type: "string", Format: "date-time"},
			"owner_id":   {Type: "string"},
			"contact_id": linkSchema(),
			"company_id": linkSchema(),
			"deal_id":    linkSchema(),
			"fields":     fieldsSchema(),
			"sort":       sortSchema(),
		},
		Run: func(ctx context.Context, call *gtmgate.Call) (any, error) {
			var in taskInput
			if err := call.Bind(&in); err != nil {
				return nil, err
			}
			switch call.Action.Name {
			case "list":
				return listEngagements(ctx, a, tasks, call, in.engagementLinks, in.Fields, sorts(in.Sort, hsSort{PropertyName: "hs_timestamp", Direction: "ASCENDING"}))
			case "create":
				props, err := in.properties(true)
				if err != nil {
					return nil, err
				}
				return a.createObject(ctx, call, tasks, hsObjectInput{Properties: props, Associations: in.associations(tasks.path)})
			case "update":
				if !in.engagementLinks.empty() {
					return nil, gtmgate.Errorf(gtmgate.EValidation, "contact_id, company_id and deal_id apply to create and list only").
						WithHint("use crm_associations create to attach an existing task to another record")
				}
				props, err := in.properties(false)
				if err != nil {
					return nil, err
				}
				if len(props) == 0 {
					return nil, gtmgate.Errorf(gtmgate.EValidation, "update needs at least one of subject, body, status, priority, task_type, due, owner_id")
				}
				return a.updateObject(ctx, call, tasks, in.ID, props)
			}
			return nil, gtmgate.Errorf(gtmgate.EValidation, "unknown action %q", call.Action.Name)
		},
	}
}

// properties maps the input onto hs_task_* properties; create fills in
// HubSpot's required hs_timestamp and sensible defaults.
func (in taskInput) properties(create bool) (map[string]string, error) {
	props := map[string]string{}
	set := func(name, v string) {
		if v != "" {
			props[name] = v
		}
	}
	set("hs_task_subject", in.Subject)
	if in.Body != nil {
		props["hs_task_body"] = *in.Body
	}
	set("hs_task_status", in.Status)
	set("hs_task_priority", in.Priority)
	set("hs_task_type", in.Type)
	set("hubspot_owner_id", in.OwnerID)
	if in.Due != "" || create {
		due, err := timestampOrNow(in.Due, "due")
		if err != nil {
			return nil, err
		}
		props["hs_timestamp"] = due
	}
	if create {
		if props["hs_task_status"] == "" {
			props["hs_task_status"] = "NOT_STARTED"
		}
		if props["hs_task_type"] == "" {
			props["hs_task_type"] = "TODO"
		}
	}
	return props, nil
}
