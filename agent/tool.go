package agent

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/registry"
)

// View is a run as run_agent and the admin API show it.
type View struct {
	*gtmgate.AgentRun
	// Next tells an agent what to do about the run's state.
	Next string `json:"next"`
}

func view(r *gtmgate.AgentRun) View {
	next := map[string]string{
		gtmgate.RunQueued:          "the run is queued; check again with action get and this run_id",
		gtmgate.RunRunning:         "the run is working; check again with action get and this run_id",
		gtmgate.RunWaitingApproval: "a step is held for a human's approval (waiting_for); the run continues once it is decided",
		gtmgate.RunSucceeded:       "done: the answer is in answer, each call in steps",
		gtmgate.RunFailed:          "the run ended without finishing the task; reason says why",
		gtmgate.RunCancelled:       "the run was cancelled",
		gtmgate.RunSkipped:         "the schedule's tick was skipped; reason says why",
	}[r.Status]
	return View{AgentRun: r, Next: next}
}

// reserved tools an agent run is never given: no runs within runs, and no
// schedule changes from inside one.
var reserved = []string{"run_agent", "agent_schedules", "submit_feedback"}

// Prepare checks an agent task for a tenant and returns the run it starts
// (not stored). Errors are VALIDATION_ERRORs naming the field.
func (a *Agents) Prepare(ctx context.Context, tenantID string, t gtmgate.AgentTask) (*gtmgate.AgentRun, error) {
	if strings.TrimSpace(t.Task) == "" {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "task is required: the instruction the agent works on")
	}
	tenant, err := a.opts.Store.GetTenant(ctx, tenantID)
	if errors.Is(err, gtmgate.ErrNotFound) {
		return nil, gtmgate.Errorf(gtmgate.ETenantNotFound, "tenant %q is not provisioned", tenantID)
	} else if err != nil {
		return nil, err
	}
	r := &gtmgate.AgentRun{TenantID: tenantID, Task: t.Task}
	if r.Tools, r.ReadOnly, err = a.resolveTools(ctx, tenant, t.Tools); err != nil {
		return nil, err
	}
	if r.Model, err = a.resolveModel(tenant, t.Model); err != nil {
		return nil, err
	}
	l := a.opts.Limits
	if r.MaxSteps, err = bounded("max_steps", t.MaxSteps, 1, l.MaxSteps, l.DefaultSteps); err != nil {
		return nil, err
	}
	tokens, err := bounded("max_tokens", int(t.MaxTokens), 1000, int(l.MaxTokens), int(l.DefaultTokens))
	if err != nil {
		return nil, err
	}
	r.MaxTokens = int64(tokens)
	if r.MaxSeconds, err = bounded("max_seconds", t.MaxSeconds, 10, l.MaxSeconds, l.DefaultSeconds); err != nil {
		return nil, err
	}
	return r, nil
}

func bounded(field string, v, lo, hi, def int) (int, error) {
	if v == 0 {
		return def, nil
	}
	if v < lo || v > hi {
		return 0, gtmgate.Errorf(gtmgate.EValidation, "%s must be between %d and %d (default %d)", field, lo, hi, def)
	}
	return v, nil
}

// resolveTools returns the run's tools: the named ones, each a tool the
// tenant can use; with none named, every usable tool, read-only.
func (a *Agents) resolveTools(ctx context.Context, t *gtmgate.Tenant, names []string) ([]string, bool, error) {
	usable := func(e *registry.Entry) bool {
		if slices.Contains(reserved, e.Name) {
			return false
		}
		if e.Provider == "" {
			return true
		}
		p, ok := t.Providers[e.Provider]
		return ok && len(p.Accounts) > 0
	}
	if len(names) == 0 {
		var out []string
		for _, e := range a.runner.Tools(ctx, t.ID) {
			if usable(e) {
				if readOnly, _, _ := e.Annotations(); readOnly || hasReadAction(e) {
					out = append(out, e.Name)
				}
			}
		}
		return out, true, nil
	}
	var out []string
	for _, n := range names {
		e, ok := a.runner.Tool(ctx, t.ID, n)
		switch {
		case !ok:
			return nil, false, gtmgate.Errorf(gtmgate.EValidation, "tools: no tool named %q", n).WithHint("list the tools with tools/list")
		case slices.Contains(reserved, n):
			return nil, false, gtmgate.Errorf(gtmgate.EValidation, "tools: an agent run cannot use %s", n)
		case !usable(e):
			return nil, false, gtmgate.Errorf(gtmgate.EValidation, "tools: tenant %q has no %s account for %s", t.ID, e.Provider, n)
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out, false, nil
}

func hasReadAction(e *registry.Entry) bool {
	for _, act := range e.Actions {
		if !act.Mutating {
			return true
		}
	}
	return false
}

// resolveModel checks the model against the tenant's allowed models.
func (a *Agents) resolveModel(t *gtmgate.Tenant, model string) (string, error) {
	if model == "" {
		model = a.opts.DefaultModel
		if model == "" && len(t.AllowedModels) > 0 {
			model = t.AllowedModels[0]
		}
		if model != "" && len(t.AllowedModels) > 0 && !slices.Contains(t.AllowedModels, model) {
			model = t.AllowedModels[0]
		}
	}
	switch {
	case a.opts.Model == nil:
		return "", gtmgate.Errorf(gtmgate.EUnavailable, "agent runs need a model gateway, and none is configured").
			WithHint("the operator sets MODEL_GATEWAY_URL (or runs with --demo)")
	case model == "":
		return "", gtmgate.Errorf(gtmgate.EValidation, "model is required: no default model is configured (AGENT_MODEL) and the tenant lists no allowed_models")
	case len(t.AllowedModels) > 0 && !slices.Contains(t.AllowedModels, model):
		return "", gtmgate.Errorf(gtmgate.EValidation, "model %q is not among tenant %q's allowed models: %s", model, t.ID, strings.Join(t.AllowedModels, ", "))
	}
	return model, nil
}

// maxWait bounds how long run_agent waits inline for a run to finish.
const maxWait = 30

// Tool returns the run_agent tool.
func (a *Agents) Tool() gtmgate.Tool {
	return gtmgate.Tool{
		Name: "run_agent", Domain: "agents", Title: "Run an agent task",
		Description: "Hand a task to an agent that makes the tool calls itself, gated for approval like yours; start, get, list or cancel runs.",
		Actions: []gtmgate.Action{
			{Name: "start", Description: "start a run (task required)", Category: gtmgate.CategoryAgentOrchestration, Required: []string{"task"}},
			{Name: "get", Description: "a run's status, steps, answer and cost", Category: gtmgate.CategoryAgentOrchestration, Required: []string{"run_id"}},
			{Name: "list", Description: "this tenant's recent runs, newest first", Category: gtmgate.CategoryAgentOrchestration},
			// Cancelling changes a run (and withdraws its gates): a credential
			// that may only read cannot do it.
			{Name: "cancel", Description: "stop a run; its current step completes", Category: gtmgate.CategoryAgentOrchestration,
				Mutating: true, Required: []string{"run_id"}},
		},
		Properties: map[string]*jsonschema.Schema{
			"task": {Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(8000)},
			"tools": {Type: "array", MaxItems: jsonschema.Ptr(64), Items: &jsonschema.Schema{Type: "string", MaxLength: jsonschema.Ptr(64)},
				Description: "Each with every action; default: all tools, read-only actions."},
			"model":       {Type: "string", MaxLength: jsonschema.Ptr(200), Description: "One of the tenant's allowed models."},
			"max_steps":   {Type: "integer", Minimum: jsonschema.Ptr(1.0), Maximum: jsonschema.Ptr(float64(DefaultLimits.MaxSteps))},
			"max_tokens":  {Type: "integer", Minimum: jsonschema.Ptr(1000.0), Maximum: jsonschema.Ptr(float64(DefaultLimits.MaxTokens))},
			"max_seconds": {Type: "integer", Minimum: jsonschema.Ptr(10.0), Maximum: jsonschema.Ptr(float64(DefaultLimits.MaxSeconds))},
			"wait":        {Type: "integer", Minimum: jsonschema.Ptr(0.0), Maximum: jsonschema.Ptr(float64(maxWait)), Description: "Seconds start waits for the run to end."},
			"run_id":      {Type: "string", MaxLength: jsonschema.Ptr(64)},
			"status":      {Type: "string", Enum: []any{gtmgate.RunQueued, gtmgate.RunRunning, gtmgate.RunWaitingApproval, gtmgate.RunSucceeded, gtmgate.RunFailed, gtmgate.RunCancelled, gtmgate.RunSkipped}},
		},
		Run: a.runTool,
	}
}

type toolInput struct {
	gtmgate.AgentTask
	Rationale string `json:"rationale"`
	Wait      int    `json:"wait"`
	RunID     string `json:"run_id"`
	Status    string `json:"status"`
}

func (a *Agents) runTool(ctx context.Context, call *gtmgate.Call) (any, error) {
	var in toolInput
	if err := call.Bind(&in); err != nil {
		return nil, err
	}
	switch call.Action.Name {
	case "get":
		r, err := a.Get(ctx, call.TenantID, in.RunID)
		if err != nil {
			return nil, err
		}
		return view(r), nil
	case "list":
		runs, err := a.opts.Store.ListAgentRuns(ctx, gtmgate.AgentRunFilter{TenantID: call.TenantID, Status: in.Status, Limit: 20})
		if err != nil {
			return nil, err
		}
		out := make([]View, len(runs))
		for i, r := range runs {
			out[i] = view(r)
		}
		return map[string]any{"runs": out}, nil
	case "cancel":
		r, err := a.Cancel(ctx, call.TenantID, in.RunID, "the tenant's agent")
		if err != nil {
			return nil, err
		}
		return view(r), nil
	}
	r, err := a.Prepare(ctx, call.TenantID, in.AgentTask)
	if err != nil {
		return nil, err
	}
	r.Rationale, r.RequestID, r.Trigger = in.Rationale, call.RequestID, gtmgate.TriggerCall
	// The run acts for the credential that started it (the principal the
	// runner authorized), with its scopes; revoking it cancels the run.
	p := gtmgate.PrincipalFromContext(ctx)
	c := p.Credential()
	r.Credential = &c
	if p != nil && p.Kind == gtmgate.PrincipalOAuth {
		r.Scopes = append([]string{}, p.Scopes...)
	}
	if err := a.Create(ctx, r); err != nil {
		return nil, err
	}
	return a.wait(ctx, r, time.Duration(in.Wait)*time.Second)
}

// wait polls a run until it finishes or parks, or d passes.
func (a *Agents) wait(ctx context.Context, r *gtmgate.AgentRun, d time.Duration) (View, error) {
	if d <= 0 {
		return view(r), nil
	}
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return view(r), nil
		case <-deadline.C:
			return view(r), nil
		case <-tick.C:
		}
		cur, err := a.opts.Store.GetAgentRun(ctx, r.ID)
		if err != nil {
			return view(r), nil
		}
		r = cur
		if gtmgate.RunFinished(r.Status) || r.Status == gtmgate.RunWaitingApproval {
			return view(r), nil
		}
	}
}
