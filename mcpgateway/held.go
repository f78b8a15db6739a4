package mcpgateway

import (
	"context"
	"crypto/hmac"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/toolrun"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Held calls inside the protocol. Under MCP 2026-07-28 (multi round-trip
// requests, SEP-2322) a tools/call may answer resultType "input_required"
// with input requests for the client to fulfil, and the client retries the
// same call with the responses and the result's requestState. A call held
// for approval answers so, with a URL-mode elicitation to the gate's page
// on the console, to a client that negotiated 2026-07-28 and handles URL
// elicitation. Its retry reads the gate: still input_required while it is
// pending, the executed call's result once approved, the reason once
// rejected, expired or withdrawn. A retry never runs anything: the
// approver's decision executes the stored call, once. Every other client
// keeps APPROVAL_REQUIRED and approval_status.
//
// A call refused because its agent acts for a person who has connected no
// account of the provider it needs (gtmgate.UnconnectedAccount) answers
// such a client likewise, with a URL-mode elicitation to the console's
// page where that person connects their own. That is no gate: its retry
// runs the call again, which then runs (or is held for approval), or asks
// again while nothing is connected. A person who declines gets the refusal.

// HeldOptions configures held calls inside the protocol.
type HeldOptions struct {
	// Key signs the requestState a held call hands its client.
	Key []byte
	// PageURL is the gate's page on the console, where the approver
	// decides. It carries no authority: whoever opens it signs in.
	PageURL func(approvalID string) string
	// ConnectURL is the console's page where a signed-in person of the
	// tenant connects their own account of provider; nil: a call refused
	// for want of one keeps its FORBIDDEN. It carries no authority either:
	// the account connected is the signed-in person's.
	ConnectURL func(tenantID, provider string) string
	// Poll is how often a retry looks again at an approved gate whose
	// call is still running (default 250 ms).
	Poll time.Duration
}

// The ids of the one input request a held call makes: the approval's, or
// the connection's of a call that waits for an account.
const (
	approvalInput = "approval"
	connectInput  = "connect"
)

// What a requestState says the call waits on: an approver's decision on a
// gate (the subject is the gate's id), or the person connecting an account
// (the subject is the provider key).
const (
	waitApproval = "approval"
	waitConnect  = "connect"
)

// waitingOn is what a requestState names, as sealed: a gate's id alone
// (as before a call could wait for anything else), or "connect:" and the
// provider key. A gate's id ("apr_…") never starts so.
func waitingOn(kind, subject string) string {
	if kind == waitConnect {
		return waitConnect + ":" + subject
	}
	return subject
}

// protocolMRTR is the first protocol revision with input_required results.
const protocolMRTR = "2026-07-28"

type heldCalls struct {
	opts   HeldOptions
	runner *toolrun.Runner
}

func newHeldCalls(opts Options) *heldCalls {
	if opts.Held == nil || len(opts.Held.Key) == 0 || opts.Held.PageURL == nil {
		return nil
	}
	h := &heldCalls{opts: *opts.Held, runner: opts.Runner}
	if h.opts.Poll <= 0 {
		h.opts.Poll = 250 * time.Millisecond
	}
	return h
}

// asks reports whether req's client takes a held call inside the protocol:
// it speaks 2026-07-28 and declared URL-mode elicitation.
func asks(req *mcp.CallToolRequest) bool {
	if req.ProtocolVersion() < protocolMRTR {
		return false
	}
	caps := req.ClientCapabilities()
	return caps != nil && caps.Elicitation != nil && caps.Elicitation.URL != nil
}

// call is one tools/call as the held-call answers see it.
type heldCall struct {
	principal *gtmgate.Principal
	tool      string
	input     json.RawMessage
	requestID string
}

// ask answers a call that err says was just held, or refused for want of
// an account the agent's person can connect: input_required with the
// gate's page or the connect page. It is nil when err is neither, when
// the client cannot be asked, and when the person declined to connect.
func (h *heldCalls) ask(req *mcp.CallToolRequest, c heldCall, err error) *mcp.CallToolResult {
	if h == nil || !asks(req) {
		return nil
	}
	var e *gtmgate.Error
	if !errors.As(err, &e) {
		return nil
	}
	if e.Code == gtmgate.EApprovalRequired && e.ApprovalID != "" {
		state, sErr := h.seal(c, waitApproval, e.ApprovalID)
		if sErr != nil {
			return nil
		}
		return h.inputRequired(c, e.ApprovalID, e.Message, state)
	}
	u, ok := gtmgate.UnconnectedAccountOf(err)
	if !ok || h.opts.ConnectURL == nil || declined(req) {
		return nil
	}
	state, sErr := h.seal(c, waitConnect, u.Provider)
	if sErr != nil {
		return nil
	}
	return urlInput(connectInput, &mcp.ElicitParams{
		Message: e.Message + ". The person this agent acts for connects their own " + u.Provider +
			" account on the page linked here; retry this call once it is connected.",
		URL:           h.opts.ConnectURL(c.principal.TenantID, u.Provider),
		ElicitationID: waitConnect + ":" + u.Provider,
	}, state, mcp.Meta{"gtmgate/request_id": c.requestID})
}

// declined reports whether the retry of req answers the connect
// elicitation with anything but accept: the person will not connect now,
// so the call gets its refusal rather than the same question again.
func declined(req *mcp.CallToolRequest) bool {
	r, ok := req.Params.InputResponses[connectInput].(*mcp.ElicitResult)
	return ok && r.Action != "accept"
}

func (h *heldCalls) inputRequired(c heldCall, approvalID, why, state string) *mcp.CallToolResult {
	return urlInput(approvalInput, &mcp.ElicitParams{
		Message:       why + ". An approver decides on the page linked here; retry this call to get its outcome.",
		URL:           h.opts.PageURL(approvalID),
		ElicitationID: approvalID,
	}, state, mcp.Meta{"gtmgate/approval_id": approvalID, "gtmgate/request_id": c.requestID})
}

// urlInput is an input_required result asking, under key, for the URL-mode
// elicitation ask, with the requestState its retry must echo.
func urlInput(key string, ask *mcp.ElicitParams, state string, meta mcp.Meta) *mcp.CallToolResult {
	ask.Mode = "url"
	return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{key: ask}, RequestState: state, Meta: meta}
}

// resume answers the retry of a held call: the gate's outcome, or
// input_required again while nobody has decided. It is nil for the retry
// of a call that waited for an account: the caller runs the call again.
func (h *heldCalls) resume(ctx context.Context, c heldCall, state string) *mcp.CallToolResult {
	kind, id, err := h.open(c, state)
	if err != nil {
		return errorResult(err, c.requestID)
	}
	if kind == waitConnect {
		return nil
	}
	a, err := h.runner.Held(ctx, c.principal, id)
	for err == nil && a.Status == gtmgate.ApprovalApproved {
		// Approved: the call is running; its outcome comes within the
		// provider time-out (a stuck one is resolved by the sweeper).
		select {
		case <-ctx.Done():
			return errorResult(gtmgate.Errorf(gtmgate.EUnavailable, "the approved call %s is still running; retry to get its outcome", id), c.requestID)
		case <-time.After(h.opts.Poll):
		}
		a, err = h.runner.Held(ctx, c.principal, id)
	}
	if err != nil {
		return errorResult(err, c.requestID)
	}
	switch a.Status {
	case gtmgate.ApprovalPending:
		return h.inputRequired(c, id, a.Tool+"."+a.Action+" is waiting for an approver", state)
	case gtmgate.ApprovalExecuted:
		_, builtIn := h.runner.Registry().Tool(a.Tool)
		return executedResult(a, c.requestID, builtIn)
	case gtmgate.ApprovalFailed:
		var body struct {
			Error struct{ Code, Message string } `json:"error"`
		}
		_ = json.Unmarshal(a.Result, &body)
		return errorResult(&gtmgate.Error{Code: body.Error.Code, Message: "the approved call failed: " + body.Error.Message, ApprovalID: id}, c.requestID)
	}
	return errorResult(closedGate(a), c.requestID)
}

// closedGate says why a gate that ended without running will not run.
func closedGate(a *gtmgate.Approval) *gtmgate.Error {
	e := &gtmgate.Error{Code: gtmgate.EConflict, ApprovalID: a.ID}
	switch a.Status {
	case gtmgate.ApprovalRejected:
		e.Code, e.Message, e.Hint = gtmgate.EForbidden, a.Tool+"."+a.Action+" was rejected: "+a.Reason, "do not retry without addressing the reason"
	case gtmgate.ApprovalExpired:
		e.Message, e.Hint = "nobody decided on "+a.Tool+"."+a.Action+" before the approval expired; it was not executed", "make the call again, without requestState, to ask for a new approval"
	default:
		e.Message = a.Tool + "." + a.Action + " was " + a.Status + " and not executed"
		if a.Reason != "" {
			e.Message += ": " + a.Reason
		}
	}
	return e
}

// executedResult is an executed gate's outcome as the call would have
// answered had it not been held.
// builtIn is false for an upstream MCP server's tool.
func executedResult(a *gtmgate.Approval, requestID string, builtIn bool) *mcp.CallToolResult {
	var out struct {
		Tool       string          `json:"tool"`
		Action     string          `json:"action"`
		Result     json.RawMessage `json:"result"`
		DurationMS float64         `json:"duration_ms"`
	}
	if err := json.Unmarshal(a.Result, &out); err != nil {
		return errorResult(gtmgate.Errorf(gtmgate.EInternal, "read the approved call's result: %v", err), requestID)
	}
	meta := mcp.Meta{"gtmgate/approval_id": a.ID, "gtmgate/request_id": requestID}
	if !builtIn {
		// An upstream MCP server's tool answered with its own result: as
		// a direct call, the upstream's content and structuredContent.
		var upstream mcp.CallToolResult
		if err := json.Unmarshal(out.Result, &upstream); err != nil {
			return errorResult(gtmgate.Errorf(gtmgate.EInternal, "read the approved call's upstream result: %v", err), requestID)
		}
		upstream.Meta = meta
		return &upstream
	}
	text, err := json.Marshal(map[string]any{"ok": true, "tool": out.Tool, "action": out.Action, "result": out.Result,
		"request_id": requestID, "duration_ms": out.DurationMS, "approval_id": a.ID})
	if err != nil {
		return errorResult(err, requestID)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}, StructuredContent: json.RawMessage(text), Meta: meta}
}

// seal is the requestState of the call c waiting on kind's subject (a
// gate's id, a provider key): what it waits on (waitingOn), "." and a MAC
// over it, the caller and the call, so a retry resumes only the same
// agent's same call, waiting on the same thing.
func (h *heldCalls) seal(c heldCall, kind, subject string) (string, error) {
	waiting := waitingOn(kind, subject)
	mac, err := h.mac(c, waiting)
	if err != nil {
		return "", err
	}
	return waiting + "." + mac, nil
}

// open returns what a requestState says the call waits on, once it is one
// seal gave for this very call.
func (h *heldCalls) open(c heldCall, state string) (kind, subject string, err error) {
	refused := gtmgate.Errorf(gtmgate.EValidation, "requestState is not one this gateway gave for this call").
		WithHint("retry a held call with the same arguments and the requestState it answered; make a new call without requestState")
	// The MAC is hex: the last dot ends what the call waits on.
	dot := strings.LastIndexByte(state, '.')
	if dot < 0 {
		return "", "", refused
	}
	waiting, got := state[:dot], state[dot+1:]
	kind, subject = waitApproval, waiting
	if provider, ok := strings.CutPrefix(waiting, waitConnect+":"); ok {
		kind, subject = waitConnect, provider
	}
	if subject == "" {
		return "", "", refused
	}
	want, mErr := h.mac(c, waiting)
	if mErr != nil || !hmac.Equal([]byte(got), []byte(want)) {
		return "", "", refused
	}
	return kind, subject, nil
}

func (h *heldCalls) mac(c heldCall, waiting string) (string, error) {
	// The call digest's HMAC, with what the call waits on in the action's
	// place and the agent in the account's; 128 bits of it are plenty.
	digest, err := gtmgate.CallDigest(h.opts.Key, c.principal.TenantID, c.tool, waiting, c.principal.KeyID, c.input)
	if err != nil {
		return "", err
	}
	return strings.TrimPrefix(digest, gtmgate.DigestPrefix)[:32], nil
}
