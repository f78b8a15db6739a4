package schedule

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/gtmgate/gtmgate"
)

// Tool returns the agent_schedules tool: a tenant's agent manages that
// tenant's own schedules.
func (s *Scheduler) Tool() gtmgate.Tool {
	str := func(desc string, max int) *jsonschema.Schema {
		return &jsonschema.Schema{Type: "string", MaxLength: jsonschema.Ptr(max), Description: desc}
	}
	integer := func(lo, hi float64) *jsonschema.Schema {
		return &jsonschema.Schema{Type: "integer", Minimum: jsonschema.Ptr(lo), Maximum: jsonschema.Ptr(hi)}
	}
	return gtmgate.Tool{
		Name: "agent_schedules", Domain: "agents", Title: "Schedule recurring agent work",
		Description: "Schedule recurring work: on a cron schedule, run an agent task or one tool call, with the scopes of the credential that put it.",
		Actions: []gtmgate.Action{
			{Name: "list", Description: "this tenant's schedules with next run and last runs", Category: gtmgate.CategoryAgentOrchestration},
			{Name: "get", Description: "one schedule", Category: gtmgate.CategoryAgentOrchestration, Required: []string{"job_id"}},
			{Name: "upsert", Description: "create or replace a schedule", Category: gtmgate.CategoryAgentOrchestration, Mutating: true,
				Required: []string{"job_id", "cron"}},
			{Name: "delete", Description: "delete a schedule (its runs stay recorded)", Category: gtmgate.CategoryAgentOrchestration,
				Mutating: true, Destructive: true, Required: []string{"job_id"}},
			{Name: "runs", Description: "a schedule's recent runs", Category: gtmgate.CategoryAgentOrchestration, Required: []string{"job_id"}},
		},
		Properties: map[string]*jsonschema.Schema{
			"job_id":   {Type: "string", Pattern: jobIDPattern.String()},
			"cron":     str("Five fields (0 8 * * MON) or @daily, @weekly…", 200),
			"timezone": str("", 64),
			"agent": {Type: "object", Required: []string{"task"}, AdditionalProperties: falseSchema,
				Properties: map[string]*jsonschema.Schema{
					"task":        str("", 8000),
					"tools":       {Type: "array", Items: &jsonschema.Schema{Type: "string", MaxLength: jsonschema.Ptr(64)}, MaxItems: jsonschema.Ptr(64)},
					"model":       str("", 200),
					"max_steps":   integer(1, 32),
					"max_tokens":  integer(1000, 2_000_000),
					"max_seconds": integer(10, 3600),
				}},
			"call": {Type: "object", Required: []string{"tool", "input"}, AdditionalProperties: falseSchema,
				Properties: map[string]*jsonschema.Schema{
					"tool":  str("", 64),
					"input": {Type: "object", Description: "The tool's input, rationale included."},
				}},
			"enabled":     {Type: "boolean"},
			"ends_at":     {Type: "string", Format: "date-time"},
			"description": str("", 500),
		},
		Run: s.runTool,
	}
}

// falseSchema forbids properties not declared.
var falseSchema = &jsonschema.Schema{Not: &jsonschema.Schema{}}

type toolInput struct {
	JobID string `json:"job_id"`
	Input
}

func (s *Scheduler) runTool(ctx context.Context, call *gtmgate.Call) (any, error) {
	var in toolInput
	if err := call.Bind(&in); err != nil {
		return nil, err
	}
	switch call.Action.Name {
	case "list":
		views, err := s.list(ctx, call.TenantID)
		if err != nil {
			return nil, err
		}
		return map[string]any{"schedules": views}, nil
	case "get", "runs":
		sc, err := s.get(ctx, call.TenantID, in.JobID)
		if err != nil {
			return nil, err
		}
		n := lastRuns
		if call.Action.Name == "runs" {
			n = 50
		}
		return s.view(ctx, sc, n)
	case "delete":
		if err := s.delete(ctx, call.TenantID, in.JobID); err != nil {
			return nil, err
		}
		return map[string]string{"deleted": in.JobID}, nil
	}
	// The store keys schedules by tenant and job id: this writes the
	// tenant's own job, whatever names other tenants use. It acts for the
	// credential that called (the principal the runner authorized), with
	// its scopes: revoking that credential disables it.
	in.TenantID = call.TenantID
	p := gtmgate.PrincipalFromContext(ctx)
	c := Creator{By: "agent:" + call.RequestID, Credential: p.Credential()}
	if p != nil && p.Kind == gtmgate.PrincipalOAuth {
		c.Scopes = p.Scopes
	}
	sc, created, err := s.Put(ctx, in.JobID, in.Input, c)
	if err != nil {
		return nil, err
	}
	v, err := s.view(ctx, sc, lastRuns)
	if err != nil {
		return nil, err
	}
	return map[string]any{"schedule": v, "created": created}, nil
}
