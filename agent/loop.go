package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/riverqueue/river"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/modelgw"
	"github.com/gtmgate/gtmgate/toolrun"
)

type runWorker struct {
	river.WorkerDefaults[runArgs]
	a *Agents
}

// Timeout bounds one job: a slice of units started within its first
// slice(), plus the unit under way (at most StepTimeout), plus 10 s to save
// it. River rescues a run left running by a stopped process only after it
// (or GTMGATE_JOB_RESCUE_AFTER, the longer), so it is kept short: see
// RescueBound.
func (w *runWorker) Timeout(*river.Job[runArgs]) time.Duration {
	return w.a.JobTimeout()
}

// JobTimeout is how long one run job may work: StepTimeout plus the slice
// plus 10 s.
func (a *Agents) JobTimeout() time.Duration {
	return a.opts.StepTimeout + a.slice() + 10*time.Second
}

// slice is how long a run job starts new units: a step time-out, at most
// 10 s. Most units take well under a second; a run that goes on longer
// continues in the same job, snoozed, so no job outlives its Timeout.
func (a *Agents) slice() time.Duration { return min(a.opts.StepTimeout, 10*time.Second) }

// Work advances a run one unit at a time, saving after each, starting new
// units for up to slice(); a longer run continues in the same job, snoozed.
func (w *runWorker) Work(ctx context.Context, job *river.Job[runArgs]) error {
	a := w.a
	start := a.opts.Now()
	r, err := a.opts.Store.GetAgentRun(ctx, job.Args.RunID)
	if errors.Is(err, gtmgate.ErrNotFound) {
		return nil
	} else if err != nil {
		return err
	}
	if gtmgate.RunFinished(r.Status) {
		return nil
	}
	release, ok, err := a.takeShare(ctx, job.Queue, r.TenantID)
	if err != nil {
		return err
	} else if !ok {
		return river.JobSnooze(shareWait)
	}
	defer release()
	if r.Status == gtmgate.RunQueued {
		if err := a.holdIfInFlight(ctx, r); err != nil {
			return err
		}
	}
	for !gtmgate.RunFinished(r.Status) {
		parked, err := a.advance(ctx, r)
		if errors.Is(err, gtmgate.ErrConflict) {
			// Cancelled (or changed by an operator) since it was read. A
			// step under way meanwhile may have left a gate the cancel did
			// not see: withdraw it too.
			a.opts.Logger.Info("agent: run changed while working; stopping this job", "run_id", r.ID)
			return a.withdrawIfEnded(ctx, r.ID)
		}
		if err != nil {
			return err
		}
		if parked {
			return nil
		}
		if a.opts.Now().Sub(start) > a.slice() {
			return river.JobSnooze(0)
		}
	}
	return nil
}

// advance does one unit of work on a run and saves it. parked is true when
// the run waits for a gate.
func (a *Agents) advance(ctx context.Context, r *gtmgate.AgentRun) (parked bool, err error) {
	unit := a.opts.Now()
	if reason, err := a.credentialRevoked(ctx, r); err != nil {
		return false, err
	} else if reason != "" {
		return false, a.stopRevoked(ctx, r, reason, unit)
	}
	switch r.Status {
	case gtmgate.RunQueued:
		r.Status, r.StartedAt, r.Held = gtmgate.RunRunning, &unit, ""
		if r.Call == nil && len(r.Messages) == 0 {
			if err := a.setMessages(r, a.opening(r)); err != nil {
				return false, err
			}
		}
		return false, a.save(ctx, r, unit)
	case gtmgate.RunWaitingApproval:
		resumed, err := a.resumeGate(ctx, r)
		if err != nil || !resumed {
			return true, err
		}
		return false, a.save(ctx, r, unit)
	}
	if reason := a.overLimit(r); reason != "" {
		a.finish(r, gtmgate.RunFailed, reason)
		return false, a.save(ctx, r, unit)
	}
	for i := range r.Steps {
		switch r.Steps[i].Status {
		case gtmgate.StepRunning:
			if err := a.settleInterrupted(ctx, r, i); err != nil {
				return false, err
			}
			return false, a.save(ctx, r, unit)
		case gtmgate.StepPlanned:
			if err := a.throttle(ctx, r); err != nil {
				return false, err
			}
			return a.execute(ctx, r, i, unit)
		}
	}
	if r.Call != nil {
		if len(r.Steps) == 0 {
			a.plan(r, "", r.Call.Tool, r.Call.Input, 0, 0)
		} else {
			last := r.Steps[len(r.Steps)-1]
			if last.Status == gtmgate.StepOK {
				r.Answer = "The call " + last.Tool + "." + last.Action + " succeeded."
				a.finish(r, gtmgate.RunSucceeded, "")
			} else {
				a.finish(r, gtmgate.RunFailed, "the call "+last.Tool+" did not succeed: "+last.ErrorCode+" "+last.Error)
			}
		}
		return false, a.save(ctx, r, unit)
	}
	if err := a.modelTurn(ctx, r); err != nil {
		return false, err
	}
	return false, a.save(ctx, r, unit)
}

// save stores the run, counting the unit's working time.
func (a *Agents) save(ctx context.Context, r *gtmgate.AgentRun, unit time.Time) error {
	r.WorkedMS += a.opts.Now().Sub(unit).Milliseconds()
	return a.opts.Store.SaveAgentRun(ctx, r)
}

// overLimit says which limit a running run has reached ("" = none).
func (a *Agents) overLimit(r *gtmgate.AgentRun) string {
	if used := r.Cost.Tokens(); r.MaxTokens > 0 && used >= r.MaxTokens {
		return fmt.Sprintf("token budget reached: %d of max_tokens %d used before the task was done", used, r.MaxTokens)
	}
	if r.MaxSeconds > 0 && r.WorkedMS >= int64(r.MaxSeconds)*1000 {
		return fmt.Sprintf("time limit reached: %.0f s of max_seconds %d worked before the task was done", float64(r.WorkedMS)/1000, r.MaxSeconds)
	}
	return ""
}

// plan appends a step to call tool with input.
func (a *Agents) plan(r *gtmgate.AgentRun, callID, tool string, input json.RawMessage, prompt, completion int64) *gtmgate.RunStep {
	n := len(r.Steps) + 1
	r.Steps = append(r.Steps, gtmgate.RunStep{N: n, Tool: tool, CallID: callID, Input: input, Status: gtmgate.StepPlanned,
		RequestID: r.ID + "-s" + strconv.Itoa(n), PromptTokens: prompt, CompletionTokens: completion, StartedAt: a.opts.Now()})
	return &r.Steps[n-1]
}

// principal is who a run's calls act as: the tenant, with no more rights
// than the credential that started it, on whose behalf it acts.
func principal(r *gtmgate.AgentRun) *gtmgate.Principal {
	p := &gtmgate.Principal{TenantID: r.TenantID, KeyID: runKey(r.ID), Kind: "agent", RunID: r.ID, OnBehalfOf: r.Credential}
	if r.Scopes != nil {
		p.Kind, p.Scopes = gtmgate.PrincipalOAuth, r.Scopes
	}
	return p
}

func runKey(id string) string { return "agent:" + id }

// source is the audit source of a run's calls: cron for scheduled runs.
func source(r *gtmgate.AgentRun) string {
	if r.Trigger == gtmgate.TriggerSchedule || r.Trigger == gtmgate.TriggerManual {
		return gtmgate.SourceCron
	}
	return gtmgate.SourceAgent
}

// execute runs planned step i through the runner. The step is saved as
// running first, so a process that stops mid-call never runs it again
// blindly (see settleInterrupted).
func (a *Agents) execute(ctx context.Context, r *gtmgate.AgentRun, i int, unit time.Time) (bool, error) {
	st := &r.Steps[i]
	if e, ok := a.runner.Tool(ctx, r.TenantID, st.Tool); ok {
		if _, action, err := e.Validate(st.Input); err == nil {
			st.Action = action.Name
		}
	}
	if err := a.allowed(ctx, r, st); err != nil {
		a.settle(r, st, nil, err)
		return false, a.save(ctx, r, unit)
	}
	st.Status, st.StartedAt, r.Held = gtmgate.StepRunning, a.opts.Now(), ""
	if err := a.save(ctx, r, unit); err != nil {
		return false, err
	}
	unit = a.opts.Now()
	st = &r.Steps[i]
	out, err := a.runner.Call(ctx, &toolrun.Request{Principal: principal(r), TenantID: r.TenantID, Tool: st.Tool, Input: st.Input,
		Source: source(r), RequestID: st.RequestID, ParentRequestID: r.RequestID})
	if err != nil && ctx.Err() != nil && gtmgate.ErrorCode(err) == gtmgate.EClientClosed {
		// The job was stopped (shutdown or time-out): leave the step running
		// for settleInterrupted, which reads what the audit log recorded.
		return false, ctx.Err()
	}
	r.Cost.ToolCalls++
	a.settle(r, st, out, err)
	return r.Status == gtmgate.RunWaitingApproval, a.save(ctx, r, unit)
}

// allowed checks a planned step against the run's tools before it is called.
func (a *Agents) allowed(ctx context.Context, r *gtmgate.AgentRun, st *gtmgate.RunStep) error {
	if r.Call != nil {
		return nil
	}
	if !containsTool(r.Tools, st.Tool) {
		return gtmgate.Errorf(gtmgate.EToolNotFound, "%s is not among this run's tools: %s", st.Tool, strings.Join(r.Tools, ", "))
	}
	if !r.ReadOnly {
		return nil
	}
	e, ok := a.runner.Tool(ctx, r.TenantID, st.Tool)
	if !ok {
		return gtmgate.Errorf(gtmgate.EToolNotFound, "no tool named %q", st.Tool)
	}
	_, action, err := e.Validate(st.Input)
	if err != nil {
		return nil // the runner reports the validation error with the call
	}
	if action.Mutating {
		return gtmgate.Errorf(gtmgate.EForbidden, "%s.%s changes data, and this run may only read", st.Tool, action.Name).
			WithHint("start the run with tools naming " + st.Tool + " to let it act")
	}
	return nil
}

func containsTool(tools []string, name string) bool {
	for _, t := range tools {
		if t == name {
			return true
		}
	}
	return false
}

// maxResultBytes bounds a step's stored result and what the model reads of it.
const maxResultBytes = 16 << 10

// settle records a step's outcome and, unless it waits for a gate, the
// tool message the model reads next.
func (a *Agents) settle(r *gtmgate.AgentRun, st *gtmgate.RunStep, out *toolrun.Outcome, err error) {
	now := a.opts.Now()
	st.FinishedAt = &now
	if out != nil {
		st.Action = out.Action
	}
	var msg any
	switch code := gtmgate.ErrorCode(err); {
	case err == nil:
		st.Status = gtmgate.StepOK
		st.Result = excerpt(out.Result)
		msg = map[string]json.RawMessage{"result": st.Result}
	case code == gtmgate.EApprovalRequired:
		e := gtmgate.AsError(err)
		st.Status, st.ApprovalID, st.ErrorCode, st.Error = gtmgate.StepWaitingApproval, e.ApprovalID, code, e.Message
		st.FinishedAt = nil
		r.Status, r.WaitingFor = gtmgate.RunWaitingApproval, e.ApprovalID
		return
	default:
		e := gtmgate.AsError(err)
		st.Status, st.ErrorCode, st.Error = gtmgate.StepError, code, e.Message
		msg = map[string]any{"error": map[string]string{"code": code, "message": e.Message, "hint": e.Hint}}
	}
	a.answerCall(r, st, msg)
}

// answerCall appends the tool message answering a step's model call.
func (a *Agents) answerCall(r *gtmgate.AgentRun, st *gtmgate.RunStep, content any) {
	if r.Call != nil {
		return
	}
	b, _ := json.Marshal(content)
	msgs, err := a.messages(r)
	if err != nil {
		a.opts.Logger.Error("agent: run conversation unreadable", "run_id", r.ID, "err", err)
		return
	}
	msgs = append(msgs, modelgw.Message{Role: modelgw.RoleTool, ToolCallID: st.CallID, Content: string(b)})
	a.setMessages(r, msgs)
}

// excerpt encodes a result, cut to maxResultBytes.
func excerpt(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(map[string]string{"unencodable_result": err.Error()})
	}
	if len(b) <= maxResultBytes {
		return b
	}
	cut, _ := json.Marshal(map[string]any{"truncated": true, "excerpt": string(b[:maxResultBytes])})
	return cut
}

// resumeGate applies the decision of the gate a run waits for; resumed is
// false while it is still pending (or being executed).
func (a *Agents) resumeGate(ctx context.Context, r *gtmgate.AgentRun) (bool, error) {
	var st *gtmgate.RunStep
	for i := range r.Steps {
		if r.Steps[i].ApprovalID == r.WaitingFor && r.Steps[i].Status == gtmgate.StepWaitingApproval {
			st = &r.Steps[i]
		}
	}
	if st == nil {
		r.Status, r.WaitingFor = gtmgate.RunRunning, ""
		return true, nil
	}
	ap, err := a.opts.Store.GetApproval(ctx, r.WaitingFor)
	if err != nil {
		return false, fmt.Errorf("read gate %s of run %s: %w", r.WaitingFor, r.ID, err)
	}
	now := a.opts.Now()
	status := ap.AsOf(now).Status
	var msg any
	switch status {
	case gtmgate.ApprovalPending, gtmgate.ApprovalApproved:
		return false, nil
	case gtmgate.ApprovalExecuted:
		var out toolrun.Outcome
		json.Unmarshal(ap.Result, &out)
		st.Status, st.ErrorCode, st.Error, st.Result = gtmgate.StepOK, "", "", excerpt(out.Result)
		msg = map[string]any{"result": st.Result, "note": "an operator approved this call and it ran"}
	default:
		code, text := "APPROVAL_"+strings.ToUpper(status), "the approval gate ended "+status
		switch status {
		case gtmgate.ApprovalRejected:
			text = "an operator rejected this call: " + ap.Reason
		case gtmgate.ApprovalExpired:
			text = "nobody approved this call before the gate expired; it was not executed"
		case gtmgate.ApprovalWithdrawn:
			text = "the gate was withdrawn and the call not executed: " + ap.Reason
		case gtmgate.ApprovalFailed:
			var body struct {
				Error struct{ Code, Message string } `json:"error"`
			}
			json.Unmarshal(ap.Result, &body)
			code, text = body.Error.Code, "approved, then failed: "+body.Error.Message
		}
		st.Status, st.ErrorCode, st.Error = gtmgate.StepError, code, text
		msg = map[string]any{"error": map[string]string{"code": code, "message": text}}
	}
	st.FinishedAt = &now
	r.Status, r.WaitingFor = gtmgate.RunRunning, ""
	a.answerCall(r, st, msg)
	return true, nil
}

// settleInterrupted decides a step left running by a process that stopped:
// the audit log says whether its call finished. A call it has no record of
// runs again when it only reads; a mutating one is never repeated and is
// reported as outcome unknown.
func (a *Agents) settleInterrupted(ctx context.Context, r *gtmgate.AgentRun, i int) error {
	st := &r.Steps[i]
	if err := a.opts.Recorder.Flush(ctx); err != nil {
		return fmt.Errorf("flush audit before reading run %s: %w", r.ID, err)
	}
	entries, _, err := a.opts.Store.QueryAudit(ctx, gtmgate.AuditFilter{TenantID: r.TenantID, Key: runKey(r.ID), Parent: r.RequestID, Limit: 1000})
	if err != nil {
		return fmt.Errorf("read run %s's audit: %w", r.ID, err)
	}
	now := a.opts.Now()
	for _, e := range entries {
		if e.RequestID != st.RequestID || e.ErrorCode == gtmgate.EClientClosed {
			// A call cut off by the stop is as good as unrecorded.
			continue
		}
		switch e.Outcome {
		case gtmgate.OutcomeOK:
			st.Status, st.FinishedAt = gtmgate.StepOK, &now
			st.Result = json.RawMessage(`{"note":"the call ran; its result was lost when the gateway stopped before saving it"}`)
			a.answerCall(r, st, map[string]json.RawMessage{"result": st.Result})
		case gtmgate.OutcomePending:
			return a.findGate(ctx, r, st)
		default:
			st.Status, st.ErrorCode, st.Error, st.FinishedAt = gtmgate.StepError, e.ErrorCode, "the call failed ("+e.ErrorCode+")", &now
			a.answerCall(r, st, map[string]any{"error": map[string]string{"code": e.ErrorCode, "message": st.Error}})
		}
		return nil
	}
	mutating := true
	if e, ok := a.runner.Tool(ctx, r.TenantID, st.Tool); ok {
		if _, action, err := e.Validate(st.Input); err == nil {
			mutating = action.Mutating
		}
	}
	if !mutating {
		st.Status = gtmgate.StepPlanned
		return nil
	}
	st.Status, st.ErrorCode, st.FinishedAt = gtmgate.StepUnknown, "OUTCOME_UNKNOWN", &now
	st.Error = "outcome unknown: the gateway stopped while this call was in flight and it changes data, so it is not repeated; check the provider"
	a.answerCall(r, st, map[string]any{"error": map[string]string{"code": st.ErrorCode, "message": st.Error}})
	return nil
}

// findGate parks a run on the gate an interrupted step created.
func (a *Agents) findGate(ctx context.Context, r *gtmgate.AgentRun, st *gtmgate.RunStep) error {
	gates, err := a.opts.Store.ListApprovals(ctx, gtmgate.ApprovalFilter{TenantID: r.TenantID, Limit: 1000})
	if err != nil {
		return fmt.Errorf("find the gate of run %s: %w", r.ID, err)
	}
	for _, g := range gates {
		if g.RequestID == st.RequestID {
			st.Status, st.ApprovalID, st.ErrorCode = gtmgate.StepWaitingApproval, g.ID, gtmgate.EApprovalRequired
			r.Status, r.WaitingFor = gtmgate.RunWaitingApproval, g.ID
			return nil
		}
	}
	now := a.opts.Now()
	st.Status, st.ErrorCode, st.FinishedAt = gtmgate.StepUnknown, "OUTCOME_UNKNOWN", &now
	st.Error = "the call was held for approval but its gate cannot be found"
	a.answerCall(r, st, map[string]any{"error": map[string]string{"code": st.ErrorCode, "message": st.Error}})
	return nil
}
