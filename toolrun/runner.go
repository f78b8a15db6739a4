// Package toolrun is the one execution path every tool call takes, whether it
// arrives over REST, MCP, an approval or a replay: resolve the tenant, check
// the caller may act for it, validate the input, pick the provider account,
// gate risky actions for approval, call the adapter with a time-out, and
// record audit, usage and (on failure) the error ledger.
package toolrun

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
	"github.com/gtmgate/gtmgate/provider/upstream"
	"github.com/gtmgate/gtmgate/registry"
	"github.com/gtmgate/gtmgate/telemetry"
	"github.com/gtmgate/gtmgate/toolset"
)

// Store is what the runner needs from the store.
type Store interface {
	gtmgate.TenantStore
	gtmgate.LedgerStore
	gtmgate.ApprovalStore
	// OpenIncident finds an open quality incident on a tenant's tool: its
	// mutating actions are held for approval while one is open.
	OpenIncident(ctx context.Context, tenantID, tool string) (*gtmgate.LedgerEntry, error)
}

// Options configures a Runner. Registry, Store, Recorder and Tokens are required.
type Options struct {
	Registry *registry.Registry
	Store    Store
	Recorder gtmgate.Recorder
	Tokens   TokenProvider
	// CallTimeout bounds a whole tool call, retries included (default 60s).
	CallTimeout time.Duration
	// ApprovalTTL is how long a gate stays pending (default 24h).
	ApprovalTTL time.Duration
	// Quota, when set, refuses calls past a hard quota of the tenant's
	// billing plan and warns past a soft one.
	Quota gtmgate.QuotaChecker
	// Observer, when set, sees every finished call (the quality harness).
	Observer gtmgate.CallObserver
	// Decided, when set, is told of every gate an operator decided, once
	// its outcome is stored (agent runs parked on a gate resume from it).
	Decided func(ctx context.Context, a *gtmgate.Approval)
	// Federated, when set, finds the tools a tenant brought from its own
	// upstream MCP servers ("server__tool"); they run through the same path.
	Federated Federated
	// Notify, when set, queues a durable notice of a gate's event
	// (gtmgate.EventApproval…) before the change it announces: a held
	// call's before its gate is stored, a decision's before it is made.
	// An error is logged; the call goes on.
	Notify func(ctx context.Context, event, approvalID string) error
	// GateKey keys the digest that binds a gate to the call it holds
	// (gtmgate.CallDigest), so a stored call rewritten by anyone without
	// the key is refused; nil makes it a plain SHA-256.
	GateKey []byte
	Now     func() time.Time
	Logger  *slog.Logger
}

// Federated finds a tenant's tools from its upstream MCP servers.
type Federated interface {
	// Tool returns the tenant's federated tool called name, ErrNotFound
	// when it has none by that name.
	Tool(ctx context.Context, tenantID, name string) (*registry.Entry, error)
	// Tools returns the tenant's federated tools and a revision that
	// changes whenever they may have.
	Tools(ctx context.Context, tenantID string) ([]*registry.Entry, string, error)
}

// Runner executes tool calls.
type Runner struct {
	opts    Options
	replays keyedMutex
}

// New returns a Runner.
func New(opts Options) *Runner {
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = 60 * time.Second
	}
	if opts.ApprovalTTL <= 0 {
		opts.ApprovalTTL = 24 * time.Hour
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Runner{opts: opts}
}

// Registry returns the tool registry.
func (r *Runner) Registry() *registry.Registry { return r.opts.Registry }

// Request is one tool call.
type Request struct {
	Principal *gtmgate.Principal
	// TenantID is the tenant the call acts for (the REST path segment; for MCP
	// the principal's tenant).
	TenantID string
	// Domain, when set, must contain the tool (REST path segment).
	Domain    string
	Tool      string
	Input     json.RawMessage
	Source    string
	RequestID string
	// ParentRequestID links a call an agent run makes to the run's request.
	ParentRequestID string

	// approved is set when executing an approved gate: it is not gated again.
	approved bool
	// bound is, for an approved gate's call, the action and account it was
	// held on: the call runs only on those.
	bound *binding
	// replay is set when re-running a ledger entry.
	replay bool
}

// binding is what an approved gate's call must resolve to.
type binding struct{ action, account, digest string }

// ledgerTimeout bounds writing a failed call to the error ledger.
const ledgerTimeout = 10 * time.Second

// Outcome is a successful call's result.
type Outcome struct {
	Tool       string  `json:"tool"`
	Action     string  `json:"action"`
	Result     any     `json:"result"`
	DurationMS float64 `json:"duration_ms"`
	// QuotaWarning is set when the call went ahead past a soft quota.
	QuotaWarning string `json:"quota_warning,omitempty"`
}

// Answer is a successful call's body, the same on the REST proxy and the
// admin API's tool call.
type Answer struct {
	OK         bool    `json:"ok"`
	Tool       string  `json:"tool"`
	Action     string  `json:"action"`
	Result     any     `json:"result"`
	RequestID  string  `json:"request_id"`
	DurationMS float64 `json:"duration_ms"`
	// QuotaWarning: the call went ahead past a soft quota (also in the
	// Gtmgate-Quota-Warning header).
	QuotaWarning string `json:"quota_warning,omitempty"`
}

// Answer is o as a surface answers it.
func (o *Outcome) Answer(requestID string) Answer {
	return Answer{OK: true, Tool: o.Tool, Action: o.Action, Result: o.Result, RequestID: requestID,
		DurationMS: o.DurationMS, QuotaWarning: o.QuotaWarning}
}

// call carries what is known about a call as it moves through the path.
type call struct {
	req      *Request
	start    time.Time
	tenant   *gtmgate.Tenant
	entry    *registry.Entry
	action   gtmgate.Action
	input    map[string]any
	account  gtmgate.Account
	upstream *upstream.Timing
	warning  string
	// quota is the call's place in its tenant's quotas: counting its usage
	// event settles it, and Call releases it otherwise.
	quota gtmgate.QuotaReservation
}

// Call runs req through the whole path. Errors are *gtmgate.Error values;
// APPROVAL_REQUIRED carries the new gate's id.
func (r *Runner) Call(ctx context.Context, req *Request) (*Outcome, error) {
	ctx, span := telemetry.Start(ctx, "execute_tool", req.Tool, telemetry.GenAIOperationName.String("execute_tool"),
		telemetry.GenAIToolName.String(req.Tool), telemetry.CallSource.String(req.Source))
	defer span.End()
	c := &call{req: req, start: r.opts.Now()}
	defer c.releaseQuota()
	result, err := r.execute(ctx, c)
	outcome, recordErr := r.finish(ctx, c, result, err)
	if recordErr != nil && err == nil {
		// The call ran but its record is not durable: it is not acknowledged.
		err = recordErr
	}
	if span.IsRecording() {
		span.SetAttributes(telemetry.TenantID.String(c.recordTenant()), telemetry.ToolAction.String(c.action.Name))
		telemetry.Fail(span, gtmgate.ErrorCode(err))
	}
	if err != nil {
		return nil, err
	}
	return &Outcome{Tool: c.entry.Name, Action: c.action.Name, Result: result, DurationMS: outcome, QuotaWarning: c.warning}, nil
}

func (r *Runner) execute(ctx context.Context, c *call) (any, error) {
	if err := r.resolve(ctx, c); err != nil {
		return nil, err
	}
	// Nothing runs, and no gate is stored, whose record could not be kept.
	if err := r.opts.Recorder.Check(); err != nil {
		return nil, err
	}
	if r.opts.Quota != nil {
		res, err := r.opts.Quota.ReserveQuota(ctx, gtmgate.QuotaUse{TenantID: c.tenant.ID, Use: gtmgate.UseTool,
			Tool: c.entry.Name, Action: c.action.Name})
		if err != nil {
			return nil, err
		}
		c.quota, c.warning = res, res.Warning()
	}
	if !c.req.approved {
		if gated(c.tenant, c.entry.Tool, c.action) {
			gctx, span := telemetry.Start(ctx, "toolrun.approval_gate", "")
			defer span.End()
			return nil, r.gate(gctx, c, nil)
		}
		if inc, err := r.qualityGate(ctx, c); err != nil || inc != nil {
			if err != nil {
				return nil, err
			}
			gctx, span := telemetry.Start(ctx, "toolrun.approval_gate", "")
			defer span.End()
			return nil, r.gate(gctx, c, inc)
		}
	}
	ctx, span := telemetry.Start(ctx, "toolrun.adapter", "", telemetry.Provider.String(c.entry.Provider))
	defer span.End()
	var tokens gtmgate.TokenSource
	if c.entry.Provider != "" {
		ts, err := r.opts.Tokens.TokenSource(ctx, c.tenant.ID, c.entry.Provider, c.account.ID)
		if err != nil {
			return nil, err
		}
		tokens = ts
	}
	limit, cursor, filter := registry.ListParams(c.input)
	tc := &gtmgate.Call{
		RequestID: c.req.RequestID, TenantID: c.tenant.ID, Tool: c.entry.Tool, Action: c.action,
		Input: c.req.Input, Args: c.input, Account: c.account, Token: tokens, Limit: limit, Cursor: cursor, Filter: filter,
	}
	reqCtx := ctx
	ctx, cancel := context.WithTimeout(ctx, r.opts.CallTimeout)
	defer cancel()
	ctx, c.upstream = upstream.WithTiming(ctx)
	res, err := c.entry.Run(ctx, tc)
	if err != nil && errors.Is(context.Cause(reqCtx), gtmgate.ErrShuttingDown) {
		err = &gtmgate.Error{Code: gtmgate.EUnavailable, Message: "the gateway is shutting down: the call was cancelled and the provider may have acted",
			Hint: "check the provider before retrying a call that changes something", Err: err}
	} else if err != nil && errors.Is(reqCtx.Err(), context.Canceled) {
		// The caller hung up: the provider did not fail, and may or may not
		// have acted.
		err = &gtmgate.Error{Code: gtmgate.EClientClosed, Message: "the client closed the connection before the call finished; the provider may have acted",
			Err: err}
	}
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && gtmgate.ErrorCode(err) == gtmgate.EInternal {
			err = &gtmgate.Error{Code: gtmgate.EUpstreamTimeout, Message: "the tool did not finish within " + r.opts.CallTimeout.String(), Err: err}
		}
		telemetry.Fail(span, gtmgate.ErrorCode(err))
		return nil, err
	}
	return res, nil
}

// resolve checks caller, tenant, tool, input, scope and account, in that order.
func (r *Runner) resolve(ctx context.Context, c *call) error {
	req := c.req
	actx, span := telemetry.Start(ctx, "toolrun.authorize", "")
	err := r.authorize(actx, c)
	telemetry.Fail(span, gtmgate.ErrorCode(err))
	span.End()
	if err != nil {
		return err
	}
	_, span = telemetry.Start(ctx, "toolrun.validate", "")
	defer span.End()
	entry, err := r.tool(ctx, c)
	if err != nil {
		return err
	}
	c.entry = entry
	c.input, c.action, err = entry.Validate(req.Input)
	if err != nil {
		telemetry.Fail(span, gtmgate.ErrorCode(err))
		return err
	}
	if b := req.bound; b != nil && b.digest != "" && c.action.Name != b.action {
		return gtmgate.Errorf(gtmgate.EConflict, "the approved call would run %s, but %s was held (digest %s): nothing was executed", c.action.Name, b.action, b.digest)
	}
	// The scope decision reads the action the adapter will run, from the same
	// parse, never a second reading of the raw request.
	if !req.Principal.MayCall(c.action.Mutating) {
		return &gtmgate.Error{Code: gtmgate.EForbidden, Message: "the access token lacks the scope this call needs",
			Hint: "reauthorize the client with scope " + gtmgate.ScopeToolsWrite, Err: gtmgate.ErrInsufficientScope}
	}
	// So is the agent's toolset: runs and schedules carry the credential
	// that started them, so its toolset too.
	cred := req.Principal.Credential()
	ts, err := toolset.For(c.tenant, cred)
	if err != nil && !slices.Contains(toolset.Always, entry.Name) {
		return err
	}
	if err := toolset.Check(ts, c.tenant.ID, cred.Toolset, entry, c.action); err != nil {
		return err
	}
	if entry.Provider == "" {
		return nil
	}
	t := c.tenant
	accounts, ok := t.Providers[entry.Provider]
	if !ok || len(accounts.Accounts) == 0 {
		err := gtmgate.Errorf(gtmgate.EValidation, "tenant %q has no %s account configured", t.ID, entry.Provider).
			WithHint("add one under providers." + entry.Provider + " with PUT /admin/tenants/" + t.ID)
		if cred.Person != "" && !cred.ReachesEveryAccount() {
			// The person the agent acts for can connect one of their own.
			err.Detail = gtmgate.UnconnectedAccount{Provider: entry.Provider, Person: cred.Person}
			err.Hint += ", or the person this agent acts for connects their own"
		}
		return err
	}
	id, _ := c.input["account_id"].(string)
	if _, known := accounts.Account(id); id != "" && !known {
		return gtmgate.Errorf(gtmgate.EValidation, "account_id %q is not a %s account of tenant %q; known: %s",
			id, entry.Provider, t.ID, strings.Join(accountIDs(accounts), ", "))
	}
	acct, err := toolset.Account(ts, cred, entry.Provider, accounts, id)
	if err != nil {
		return err
	}
	c.account = acct
	if b := req.bound; b != nil && b.digest != "" && c.account.ID != b.account {
		return gtmgate.Errorf(gtmgate.EConflict, "the approved call would run on account %q, but account %q was held (digest %s): nothing was executed",
			c.account.ID, b.account, b.digest)
	}
	return nil
}

// key names the agent whose call this is, as its audit entry does.
func (c *call) key() string {
	if c.req.Principal == nil {
		return ""
	}
	return c.req.Principal.KeyID
}

// storedInput is the call's input as a held gate or a ledger entry keeps
// it: naming the account it resolved to when the caller named none, so an
// approval or a replay (an operator's credential, which would pick the
// tenant's default) acts on the same account, the person's own included.
func (c *call) storedInput() json.RawMessage {
	if c.account.ID == "" {
		return c.req.Input
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(c.req.Input, &fields) != nil || fields == nil || fields["account_id"] != nil {
		return c.req.Input
	}
	fields["account_id"], _ = json.Marshal(c.account.ID)
	b, err := json.Marshal(fields)
	if err != nil {
		return c.req.Input
	}
	return b
}

// authorize checks the credential against the tenant of the call, then that
// the tenant exists and is active. The credential is checked before the
// tenant is looked up, so a caller cannot tell another tenant from one that
// does not exist.
func (r *Runner) authorize(ctx context.Context, c *call) error {
	req := c.req
	// Another tenant's id in the path and an id no tenant has answer alike.
	if err := req.Principal.ActsFor(req.TenantID); err != nil {
		return err
	}
	t, err := r.opts.Store.GetTenant(ctx, req.TenantID)
	if errors.Is(err, gtmgate.ErrNotFound) {
		return gtmgate.TenantNotFound(req.TenantID)
	} else if err != nil {
		return err
	}
	c.tenant = t
	if t.Status != gtmgate.TenantActive {
		return gtmgate.Errorf(gtmgate.EForbidden, "tenant %q is %s", t.ID, t.Status)
	}
	return nil
}

// tool finds the called tool: a built-in one, or one of the tenant's
// upstream MCP servers' (looked up for the tenant already authorized, never
// the one a request names).
func (r *Runner) tool(ctx context.Context, c *call) (*registry.Entry, error) {
	req := c.req
	entry, err := r.lookup(ctx, c.tenant.ID, req.Tool)
	if errors.Is(err, gtmgate.ErrNotFound) || (err == nil && req.Domain != "" && entry.Domain != req.Domain) {
		return nil, r.toolNotFound(req)
	}
	return entry, err
}

// lookup finds a built-in tool, else one of tenantID's federated tools;
// ErrNotFound when neither has the name.
func (r *Runner) lookup(ctx context.Context, tenantID, name string) (*registry.Entry, error) {
	if e, ok := r.opts.Registry.Tool(name); ok {
		return e, nil
	}
	if r.opts.Federated == nil || !gtmgate.IsFederatedName(name) {
		return nil, gtmgate.ErrNotFound
	}
	return r.opts.Federated.Tool(ctx, tenantID, name)
}

func (r *Runner) toolNotFound(req *Request) error {
	if req.Domain == "" {
		return gtmgate.Errorf(gtmgate.EToolNotFound, "no tool named %q", req.Tool).WithHint("list the tools with tools/list")
	}
	if server, ok := strings.CutPrefix(req.Domain, gtmgate.FederatedDomainPrefix); ok {
		return gtmgate.Errorf(gtmgate.EToolNotFound, "no tool %q on MCP server %q", req.Tool, server).
			WithHint("list the tenant's tools with tools/list over MCP; an operator sees why a tool is not served with GET /admin/tenants/{id}/mcp-servers/" + server)
	}
	var names []string
	for _, e := range r.opts.Registry.Domain(req.Domain) {
		names = append(names, e.Name)
	}
	if len(names) == 0 {
		return gtmgate.Errorf(gtmgate.EToolNotFound, "no domain %q; domains: %s", req.Domain, strings.Join(registry.Domains, ", "))
	}
	return gtmgate.Errorf(gtmgate.EToolNotFound, "no tool %q in domain %q; its tools: %s", req.Tool, req.Domain, strings.Join(names, ", "))
}

func accountIDs(p gtmgate.ProviderAccounts) []string {
	out := make([]string, len(p.Accounts))
	for i, a := range p.Accounts {
		out[i] = a.ID
	}
	return out
}

// finish records audit, usage and the ledger; it returns the call's duration
// in ms and, when the audit record could not be made durable, why.
func (r *Runner) finish(ctx context.Context, c *call, result any, err error) (float64, error) {
	now := r.opts.Now()
	ms := float64(now.Sub(c.start).Microseconds()) / 1000
	req := c.req
	action := req.Tool
	if c.entry != nil && c.action.Name != "" {
		action = c.entry.Name + "." + c.action.Name
	} else if name := rawAction(req.Input); c.entry != nil && name != "" {
		if a, ok := c.entry.Action(name); ok {
			action = c.entry.Name + "." + a.Name
		}
	}
	code := gtmgate.ErrorCode(err)
	entry := gtmgate.AuditEntry{
		Time: c.start, TenantID: c.recordTenant(), Action: action, Source: req.Source, Outcome: outcomeOf(code),
		Status: 200, ErrorCode: code, DurationMS: ms, RequestID: req.RequestID, TraceID: telemetry.TraceID(ctx),
		ParentRequestID: req.ParentRequestID, CorrelationID: gtmgate.CorrelationIDFromContext(ctx),
	}
	if req.Principal != nil {
		entry.Key, entry.Via = req.Principal.KeyID, req.Principal.AuditVia()
	}
	if entry.TenantID != req.TenantID {
		entry.Detail = "requested tenant " + strconv.Quote(req.TenantID)
	}
	if err != nil {
		entry.Status = jsonapi.Status(code)
	}
	var usage *gtmgate.UsageEvent
	if c.entry != nil && c.action.Name != "" && metered(code) {
		usage = &gtmgate.UsageEvent{Time: c.start, TenantID: c.recordTenant(), Key: entry.Key, Source: req.Source, Tool: c.entry.Name,
			Action: c.action.Name, OK: err == nil, DurationMS: ms, Reservation: c.quota}
		if c.upstream != nil {
			usage.UpstreamMS = float64(c.upstream.Total().Microseconds()) / 1000
		}
	}
	if err != nil && code != gtmgate.EApprovalRequired && !req.replay {
		// The failure rides with the audit record (journaled, so a store
		// outage does not lose it). A replay's failure is recorded on the
		// entry it replays, not as a new one.
		entry.Failure = failure(ctx, c, err)
	}
	rerr := r.opts.Recorder.Record(ctx, entry, usage)
	if rerr != nil {
		jsonapi.LoggerFrom(ctx).Error("audit record failed; the call is not acknowledged", "action", action,
			"request_id", req.RequestID, "call_error", code, "err", rerr)
		rerr = asUnavailable(rerr)
		if entry.Failure != nil {
			r.storeFailure(ctx, entry.Failure)
		}
	}
	if rerr == nil {
		r.observe(c, now, ms, result, err)
	}
	return ms, rerr
}

// observe hands an acknowledged call that reached its tool's action to the
// observer, when sampled. Calls that never ran (gated, refused) are not
// traced.
func (r *Runner) observe(c *call, now time.Time, ms float64, result any, err error) {
	o := r.opts.Observer
	if o == nil || c.tenant == nil || c.entry == nil || c.action.Name == "" {
		return
	}
	switch gtmgate.ErrorCode(err) {
	case gtmgate.EApprovalRequired, gtmgate.EUnauthorized, gtmgate.EForbidden, gtmgate.EClientClosed, gtmgate.EUnavailable:
		return
	}
	smp, ok := o.Sample(c.tenant.ID, c.tenant.Production, c.entry.Name, c.action)
	if !ok {
		return
	}
	fc := &gtmgate.FinishedCall{Time: c.start, TenantID: c.tenant.ID, Tool: c.entry.Name, Action: c.action, Input: c.input,
		Result: result, Err: err, DurationMS: ms, Source: c.req.Source, RequestID: c.req.RequestID,
		ParentRequestID: c.req.ParentRequestID, Key: c.key(), Sample: smp}
	if c.entry.Federated() != nil {
		fc.ToolDescription = c.entry.Description
	}
	o.Observe(fc)
}

// asUnavailable makes a recorder failure an UNAVAILABLE error.
func asUnavailable(err error) error {
	var e *gtmgate.Error
	if errors.As(err, &e) {
		return e
	}
	return &gtmgate.Error{Code: gtmgate.EUnavailable, Message: "the call's audit record could not be made durable",
		Hint: "retry shortly; the operator should check the audit journal's disk and the store", Err: err}
}

// releaseQuota gives back the call's quota place unless its usage was
// counted: a call gated, refused after admission, failed unbilled, not
// recorded or panicking holds no place once Call returns.
func (c *call) releaseQuota() {
	if c.quota != nil {
		c.quota.Release()
	}
}

// recordTenant is the tenant a call's records belong to: the credential's own,
// so that a token cannot write audit or ledger entries under another tenant's
// id (or a made-up one) by naming it in the path.
func (c *call) recordTenant() string {
	if c.req.Principal != nil && c.req.Principal.TenantID != "" {
		return c.req.Principal.TenantID
	}
	return c.req.TenantID
}

// metered reports whether a call that ended with code is a usage event:
// calls held, refused as invalid, refused by a limit or denied (the
// credential, its scope or its agent's toolset) never ran.
func metered(code string) bool {
	switch code {
	case gtmgate.EApprovalRequired, gtmgate.EValidation, gtmgate.EQuotaExceeded, gtmgate.ERateLimited,
		gtmgate.EForbidden, gtmgate.EUnauthorized, gtmgate.ETenantNotFound:
		return false
	}
	return true
}

func outcomeOf(code string) string {
	switch code {
	case "":
		return gtmgate.OutcomeOK
	case gtmgate.EApprovalRequired:
		return gtmgate.OutcomePending
	case gtmgate.EUnauthorized, gtmgate.EForbidden, gtmgate.ETenantNotFound:
		return gtmgate.OutcomeDenied
	}
	return gtmgate.OutcomeError
}

// rawAction reads the action of input that failed validation, for the audit log.
func rawAction(input json.RawMessage) string {
	var v struct {
		Action string `json:"action"`
	}
	json.Unmarshal(input, &v)
	return v.Action
}

// Tool returns the named tool as tenantID sees it: a built-in one or one of
// its upstream MCP servers'.
func (r *Runner) Tool(ctx context.Context, tenantID, name string) (*registry.Entry, bool) {
	e, err := r.lookup(ctx, tenantID, name)
	return e, err == nil
}

// Tools returns every tool tenantID can call: the built-in ones, then its
// upstream MCP servers' (none when they cannot be read now).
func (r *Runner) Tools(ctx context.Context, tenantID string) []*registry.Entry {
	out := r.opts.Registry.Tools()
	if r.opts.Federated == nil {
		return out
	}
	fed, _, err := r.opts.Federated.Tools(ctx, tenantID)
	if err != nil {
		r.opts.Logger.Warn("federated tools unavailable", "tenant", tenantID, "err", err)
		return out
	}
	return append(slices.Clip(out), fed...)
}

// Federated returns the finder of tenants' federated tools, nil when there is none.
func (r *Runner) Federated() Federated { return r.opts.Federated }

// Toolset returns the tenant toolset p is limited to and its name (nil and
// "" when none), for listing the tools p may call. A toolset the tenant no
// longer has is FORBIDDEN, as its calls are.
func (r *Runner) Toolset(ctx context.Context, p *gtmgate.Principal) (*gtmgate.Toolset, string, error) {
	cred := p.Credential()
	if cred.Toolset == "" {
		return nil, "", nil
	}
	t, err := r.opts.Store.GetTenant(ctx, p.TenantID)
	if err != nil {
		return nil, cred.Toolset, err
	}
	ts, err := toolset.For(t, cred)
	return ts, cred.Toolset, err
}
