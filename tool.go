package gtmgate

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/google/jsonschema-go/jsonschema"
)

// Category is the judge domain category an action is expected to fall in.
type Category string

// The twelve domain categories of the quality rubric.
const (
	CategoryCRMRead            Category = "crm_read"
	CategoryCRMWrite           Category = "crm_write"
	CategoryAdsRead            Category = "ads_read"
	CategoryAdsMutate          Category = "ads_mutate"
	CategoryAnalyticsReport    Category = "analytics_report"
	CategoryContentGenerate    Category = "content_generate"
	CategoryEmailSend          Category = "email_send"
	CategoryCalendarOp         Category = "calendar_op"
	CategorySearchQuery        Category = "search_query"
	CategoryDataQuery          Category = "data_query"
	CategoryAgentOrchestration Category = "agent_orchestration"
	CategoryErrorRecovery      Category = "error_recovery"
)

// Categories lists every category in rubric order.
var Categories = []Category{
	CategoryCRMRead, CategoryCRMWrite, CategoryAdsRead, CategoryAdsMutate,
	CategoryAnalyticsReport, CategoryContentGenerate, CategoryEmailSend, CategoryCalendarOp,
	CategorySearchQuery, CategoryDataQuery, CategoryAgentOrchestration, CategoryErrorRecovery,
}

// Action is one operation of a tool.
type Action struct {
	Name        string
	Description string
	Category    Category
	// Mutating actions change provider state; they are never retried automatically.
	Mutating bool
	// Destructive actions delete or irreversibly change data; only mutating
	// actions can be.
	Destructive bool
	// Additive marks a mutating action that only adds (creates a record,
	// appends rows, sends a message) and never changes or removes existing
	// data: MCP's destructiveHint is false for a tool whose mutating actions
	// are all additive. Unset is the safe default: a mutating action is taken
	// to be able to overwrite.
	Additive bool
	// List actions accept limit, filter and cursor.
	List bool
	// Required lists the tool properties this action needs (checked by the runtime).
	Required []string
	// Before, when set, reads the state a held call of this mutating
	// action would change, so its approver sees old → new: the campaign's
	// current budget and currency, a record's current status or stage. It
	// is given the held call (its input, account and token) and reads
	// through the adapter's own read path. It is the gateway's read, not a
	// tool call: no audit entry, no usage (see toolrun's readBefore).
	Before BeforeRead `json:"-"`
}

// BeforeRead reads the current state a call would change, as a small map
// of plain values ({"daily_budget": 50, "currency": "EUR"}, {"status":
// "ACTIVE"}, {"stage": "qualifiedtobuy"}); a nil map when this call
// changes nothing it reads (a deal update that leaves the stage alone).
type BeforeRead func(ctx context.Context, call *Call) (map[string]any, error)

// Tool is one callable tool: its schema, actions and implementation.
type Tool struct {
	Name        string
	Domain      string
	Title       string
	Description string
	// Provider is the key of the provider whose account and token the tool uses
	// ("hubspot", "google_ads"…); empty for tools that need no provider account.
	Provider string
	// OpenWorld says the tool reaches beyond the gateway without a provider
	// account (web_fetch reads the public web): MCP's openWorldHint. Tools
	// with a Provider, and delegating tools, are open-world whatever it says.
	OpenWorld bool
	// Delegates marks a tool that makes other tools' calls on the caller's
	// behalf (run_agent, agent_schedules), so it may do whatever they do:
	// its MCP hints are those of the worst tool it could reach.
	Delegates bool
	// Actions has at least one entry. A tool with one action does not require
	// "action" in its input.
	Actions []Action
	// Properties are the tool's own input properties. The registry adds the
	// common ones: rationale, action, account_id, and limit/filter/cursor when
	// an action lists.
	Properties map[string]*jsonschema.Schema
	// Run performs the call. It returns a JSON-serialisable result or an error;
	// *Error values keep their code, anything else is an internal error.
	Run func(ctx context.Context, call *Call) (any, error)
}

// Action returns the named action, or the only action when name is empty.
func (t *Tool) Action(name string) (Action, bool) {
	if name == "" && len(t.Actions) == 1 {
		return t.Actions[0], true
	}
	for _, a := range t.Actions {
		if a.Name == name {
			return a, true
		}
	}
	return Action{}, false
}

// Filter narrows a list action: property operator value (operator as HubSpot
// spells it: EQ, NEQ, LT, LTE, GT, GTE, CONTAINS_TOKEN, HAS_PROPERTY…).
type Filter struct {
	Property string `json:"property"`
	Operator string `json:"operator"`
	Value    any    `json:"value,omitempty"`
}

// Call is one validated tool invocation as an adapter sees it.
type Call struct {
	RequestID string
	TenantID  string
	Tool      *Tool
	Action    Action
	// Input is the validated input, common fields included.
	Input json.RawMessage
	// Args is Input as validation parsed it (read-only), when the caller
	// has it: an adapter that wants the input as a map reads this one parse,
	// the one every decision on the call was made on, instead of parsing
	// Input again.
	Args map[string]any
	// Account is the provider account chosen (account_id or the tenant default).
	Account Account
	// Token gives the provider access token for Account; nil when the tool has no provider.
	Token TokenSource
	// Limit, Filter and Cursor are the parsed list parameters (zero when absent).
	Limit  int
	Filter *Filter
	Cursor string
}

// Bind decodes the call's input into v (unknown fields are ignored here: the
// schema has already rejected them).
func (c *Call) Bind(v any) error {
	if err := json.Unmarshal(c.Input, v); err != nil {
		return &Error{Code: EValidation, Message: "input does not match the tool's schema: " + err.Error(), Err: err}
	}
	return nil
}

// TokenSource yields the provider access token of one tenant account.
type TokenSource interface {
	// Token returns a current access token.
	Token(ctx context.Context) (string, error)
	// Refresh is called after the provider rejected stale with 401; it returns a
	// fresh token, or an error (REAUTH_REQUIRED) when the token cannot be renewed.
	Refresh(ctx context.Context, stale string) (string, error)
}

// StaticToken is a TokenSource that cannot refresh.
type StaticToken string

// Token returns the token itself.
func (s StaticToken) Token(context.Context) (string, error) { return string(s), nil }

// Refresh fails: a static token cannot be renewed.
func (s StaticToken) Refresh(context.Context, string) (string, error) {
	return "", Errorf(EReauthRequired, "the provider rejected the stored token and no OAuth refresh is configured")
}

// ProviderSandbox is an in-process fake of a provider's HTTP API, used by
// --demo and tests behind the same adapter code as the real API.
type ProviderSandbox struct {
	Provider string
	Handler  http.Handler
	// Token is the access token the sandbox accepts.
	Token string
	// Accounts the sandbox holds data for; the first is the demo default.
	Accounts []Account
	// Spec, when set, checks the sandbox's requests and answers against the
	// provider's own published spec (an *apispec.Enforcer).
	Spec SpecChecks
}

// SpecChecks reports how a sandbox's traffic held up against its provider's
// own published spec.
type SpecChecks interface {
	// TakeViolations returns, and forgets, what the spec did not allow.
	TakeViolations() []string
	// Checked counts the requests that passed, by the spec's operation id.
	Checked() map[string]int
}
