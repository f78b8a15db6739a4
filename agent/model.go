package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/modelgw"
	"github.com/gtmgate/gtmgate/toolset"
)

// systemPrompt tells the model how a gtmgate agent run works.
const systemPrompt = `You are an agent working through gtmgate, a gateway to a company's go-to-market tools, for tenant %s. Today is %s.
Do the user's task with the tools offered. Every tool call needs a "rationale": one sentence on why this call serves the task.
Calls that change data may be held for a human's approval; you will get their outcome when a person decides.
A tool error tells you what went wrong: correct the input and try again, or explain why the task cannot be done.
When the task is done, answer with a short summary of what you found and did, without calling a tool.`

// opening is the conversation a model run starts with.
func (a *Agents) opening(r *gtmgate.AgentRun) []modelgw.Message {
	task := r.Task
	if r.Rationale != "" {
		task += "\n\n(Why this run was started: " + r.Rationale + ")"
	}
	return []modelgw.Message{
		{Role: modelgw.RoleSystem, Content: fmt.Sprintf(systemPrompt, r.TenantID, a.opts.Now().UTC().Format("Monday 2 January 2006"))},
		{Role: modelgw.RoleUser, Content: task},
	}
}

func (a *Agents) messages(r *gtmgate.AgentRun) ([]modelgw.Message, error) {
	var msgs []modelgw.Message
	if len(r.Messages) == 0 {
		return nil, nil
	}
	if err := json.Unmarshal(r.Messages, &msgs); err != nil {
		return nil, fmt.Errorf("decode run %s's conversation: %w", r.ID, err)
	}
	return msgs, nil
}

func (a *Agents) setMessages(r *gtmgate.AgentRun, msgs []modelgw.Message) error {
	b, err := json.Marshal(msgs)
	if err != nil {
		return fmt.Errorf("encode run %s's conversation: %w", r.ID, err)
	}
	r.Messages = b
	return nil
}

// maxTurnTokens caps one completion's output.
const maxTurnTokens = 4096

// modelTurn asks the model for the next step: tool calls, which are
// planned, or an answer, which ends the run.
func (a *Agents) modelTurn(ctx context.Context, r *gtmgate.AgentRun) error {
	if a.opts.Model == nil {
		a.finish(r, gtmgate.RunFailed, "no model gateway is configured (MODEL_GATEWAY_URL)")
		return nil
	}
	msgs, err := a.messages(r)
	if err != nil {
		a.finish(r, gtmgate.RunFailed, err.Error())
		return nil
	}
	req := &modelgw.ChatRequest{Model: r.Model, Messages: msgs, Tools: a.toolDefs(ctx, r), User: r.TenantID,
		ToolChoice: &modelgw.ToolChoice{Mode: modelgw.ToolChoiceAuto}}
	if r.MaxTokens > 0 {
		req.MaxTokens = int(min(maxTurnTokens, max(1, r.MaxTokens-r.Cost.Tokens())))
	}
	tctx, cancel := context.WithTimeout(ctx, a.opts.StepTimeout)
	defer cancel()
	start := a.opts.Now()
	resp, err := a.opts.Model.Chat(tctx, req)
	a.recordTurn(ctx, r, start, resp, err)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err() // stopped: the turn is asked again
		}
		a.finish(r, gtmgate.RunFailed, "the model gateway failed: "+err.Error())
		return nil
	}
	r.Cost.ModelTurns++
	var prompt, completion int64
	if resp.Usage != nil {
		prompt, completion = resp.Usage.PromptTokens, resp.Usage.CompletionTokens
		r.Cost.PromptTokens += prompt
		r.Cost.CompletionTokens += completion
	}
	if len(resp.Choices) == 0 {
		a.finish(r, gtmgate.RunFailed, "the model answered with no choice")
		return nil
	}
	msg := resp.Choices[0].Message
	if len(msg.ToolCalls) == 0 {
		r.Answer = msg.Content
		a.finish(r, gtmgate.RunSucceeded, "")
		return a.setMessages(r, append(msgs, modelgw.Message{Role: modelgw.RoleAssistant, Content: msg.Content}))
	}
	room := r.MaxSteps - len(r.Steps)
	if room <= 0 {
		a.finish(r, gtmgate.RunFailed, fmt.Sprintf("step limit reached: the model asked for more tool calls after max_steps %d", r.MaxSteps))
		return nil
	}
	calls := msg.ToolCalls[:min(room, len(msg.ToolCalls))]
	msgs = append(msgs, modelgw.Message{Role: modelgw.RoleAssistant, Content: msg.Content, ToolCalls: calls})
	if err := a.setMessages(r, msgs); err != nil {
		return err
	}
	for i, c := range calls {
		input := json.RawMessage(c.Function.Arguments)
		if !json.Valid(input) {
			st := a.plan(r, c.ID, c.Function.Name, json.RawMessage(`{}`), 0, 0)
			a.settle(r, st, nil, gtmgate.Errorf(gtmgate.EValidation, "the tool call's arguments are not JSON: %.200s", c.Function.Arguments))
			continue
		}
		if i > 0 {
			prompt, completion = 0, 0 // the turn's tokens are counted on its first step
		}
		a.plan(r, c.ID, c.Function.Name, input, prompt, completion)
	}
	return nil
}

// toolDefs are the run's tools as function definitions, cut to the
// toolset of the credential the run acts for: the model is offered only
// what its calls may do (the runner refuses the rest anyway).
func (a *Agents) toolDefs(ctx context.Context, r *gtmgate.AgentRun) []modelgw.Tool {
	var ts *gtmgate.Toolset
	if r.Credential != nil && r.Credential.Toolset != "" {
		ts = &gtmgate.Toolset{} // a toolset that cannot be read offers nothing
		if t, err := a.opts.Store.GetTenant(ctx, r.TenantID); err == nil {
			if found, err := toolset.For(t, *r.Credential); err == nil {
				ts = found
			}
		}
	}
	var out []modelgw.Tool
	for _, name := range r.Tools {
		e, ok := a.runner.Tool(ctx, r.TenantID, name)
		if !ok {
			continue
		}
		actions := toolset.Actions(ts, e)
		if len(actions) == 0 {
			continue
		}
		e = e.Narrowed(actions)
		desc := e.Description
		if r.ReadOnly {
			desc += " (This run may only use actions that read.)"
		}
		out = append(out, modelgw.FunctionTool(e.Name, desc, e.Schema))
	}
	return out
}

// recordTurn audits a model turn and meters its tokens like a chat call,
// with the run's request as parent.
func (a *Agents) recordTurn(ctx context.Context, r *gtmgate.AgentRun, start time.Time, resp *modelgw.ChatResponse, err error) {
	ms := float64(a.opts.Now().Sub(start).Microseconds()) / 1000
	code := gtmgate.ErrorCode(err)
	if err != nil && code == gtmgate.EInternal {
		code = gtmgate.EUpstream
	}
	entry := gtmgate.AuditEntry{Time: start, TenantID: r.TenantID, Action: actionModelTurn, Source: source(r), Key: runKey(r.ID),
		Outcome: gtmgate.OutcomeOK, Status: 200, DurationMS: ms, RequestID: r.ID + "-m" + strconv.Itoa(r.Cost.ModelTurns+1),
		Detail: r.Model, ParentRequestID: r.RequestID}
	if err != nil {
		entry.Outcome, entry.ErrorCode, entry.Status = gtmgate.OutcomeError, code, 502
	}
	usage := &gtmgate.UsageEvent{Time: start, TenantID: r.TenantID, Key: entry.Key, Source: source(r), Tool: gtmgate.ChatUsageTool, Action: r.Model,
		OK: err == nil, DurationMS: ms, UpstreamMS: ms}
	if resp != nil && resp.Usage != nil {
		usage.PromptTokens, usage.CompletionTokens = resp.Usage.PromptTokens, resp.Usage.CompletionTokens
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := a.opts.Recorder.Record(rctx, entry, usage); err != nil {
		a.opts.Logger.Error("agent: recording a model turn failed", "run_id", r.ID, "err", err)
	}
}

// actionModelTurn is the audit action of a run's model turn; its usage is
// metered as chat tokens of the run's model.
const actionModelTurn = "agent.model_turn"
