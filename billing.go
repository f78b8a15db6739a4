package gtmgate

import (
	"context"
	"time"
)

// Limit modes of a billing plan: what happens when a quota is used up.
const (
	// LimitSoft lets calls proceed past a quota, with a warning header and
	// an operator event.
	LimitSoft = "soft"
	// LimitHard refuses calls past a quota with QUOTA_EXCEEDED until the
	// period resets.
	LimitHard = "hard"
)

// Quota names, as QUOTA_EXCEEDED and warnings name them.
const (
	QuotaCalls  = "included_calls"
	QuotaTokens = "included_tokens"
	QuotaBudget = "monthly_budget"
)

// BillingPlan is what a tenant pays and may use per billing period. Money
// is in the plan's currency; prices are per tool call and per 1,000 chat
// tokens. A zero quota or budget means none.
type BillingPlan struct {
	TenantID string `json:"tenant_id"`
	Plan     string `json:"plan"`
	Currency string `json:"currency"`
	// ToolCallPrice prices one tool call by its tool's category.
	ToolCallPrice CallPrices `json:"tool_call_price"`
	// ChatTokenPrice prices 1,000 chat tokens by model.
	ChatTokenPrice TokenPrices `json:"chat_token_price"`
	IncludedCalls  int64       `json:"included_calls"`
	IncludedTokens int64       `json:"included_tokens"`
	MonthlyBudget  float64     `json:"monthly_budget"`
	// Limit is LimitSoft or LimitHard.
	Limit string `json:"limit"`
	// BillingDay is the day of the month a period starts (1–28), at
	// midnight in Timezone.
	BillingDay int    `json:"billing_day"`
	Timezone   string `json:"timezone"`
	// Production is the tenant's production flag (Tenant.Production), which
	// the quality harness reads; setting it here sets it on the tenant.
	Production bool      `json:"production"`
	UpdatedAt  time.Time `json:"updated_at"`
}

// BillingCategoryFederated is the billing category of every call to a tool
// of a tenant's upstream MCP server, whatever its quality category: a plan
// prices federated calls apart (tool_call_price.by_category.federated).
const BillingCategoryFederated = "federated"

// CallPrices is a price per tool call, by category, with a default.
type CallPrices struct {
	Default    float64            `json:"default"`
	ByCategory map[string]float64 `json:"by_category,omitempty"`
}

// TokenPrices is a price per 1,000 chat tokens, by model, with a default.
type TokenPrices struct {
	Default TokenPrice            `json:"default"`
	ByModel map[string]TokenPrice `json:"by_model,omitempty"`
}

// TokenPrice prices input (prompt) and output (completion) tokens apart.
type TokenPrice struct {
	Input  float64 `json:"input"`
	Output float64 `json:"output"`
}

// UsageRollup sums one tenant's usage of one tool action (or chat model)
// over one UTC hour. Rollups are kept as calls are written, so dropping raw
// usage events later loses no total.
type UsageRollup struct {
	Hour             time.Time
	TenantID         string
	Tool             string
	Action           string
	Calls            int64
	Errors           int64
	PromptTokens     int64
	CompletionTokens int64
	DurationMS       float64
	UpstreamMS       float64
}

// QuotaCounter is one replica's count of a tenant's usage in one billing
// period, which quota checks on other replicas add to their own.
type QuotaCounter struct {
	TenantID    string
	PeriodStart time.Time
	Replica     string
	Calls       int64
	Tokens      int64
	CostMicros  int64
	UpdatedAt   time.Time
}

// BillingStore keeps billing plans, usage rollups and quota counters.
type BillingStore interface {
	// GetBillingPlan returns ErrNotFound when the tenant has no plan.
	GetBillingPlan(ctx context.Context, tenantID string) (*BillingPlan, error)
	// PutBillingPlan creates or replaces a plan; created reports which.
	PutBillingPlan(ctx context.Context, p *BillingPlan) (created bool, err error)
	ListBillingPlans(ctx context.Context) ([]*BillingPlan, error)
	// ListUsageRollups returns a tenant's rollups with From <= hour < To.
	ListUsageRollups(ctx context.Context, q UsageQuery) ([]UsageRollup, error)
	// PutQuotaCounter stores a replica's counter (absolute values).
	PutQuotaCounter(ctx context.Context, c QuotaCounter) error
	// SumQuotaCounters adds up every replica's counter of a tenant's period
	// except exceptReplica's.
	SumQuotaCounters(ctx context.Context, tenantID string, periodStart time.Time, exceptReplica string) (QuotaCounter, error)
}

// What a call uses, for a quota check: tool calls count against the calls
// quota, chat against the tokens quota, both against the budget.
const (
	UseTool = "tool"
	UseChat = "chat"
)

// QuotaWarningHeader carries a soft limit's warning on a call that went
// ahead past a quota.
const QuotaWarningHeader = "Gtmgate-Quota-Warning"

// QuotaUse is one call a QuotaChecker is asked to admit.
type QuotaUse struct {
	TenantID string
	// Use is UseTool or UseChat.
	Use string
	// Tool and Action name a tool call's action, whose category prices it.
	Tool, Action string
	// Model and MaxTokens describe a chat completion: its model and the
	// most tokens it may generate (0 when the request sets no cap).
	Model     string
	MaxTokens int64
}

// QuotaReservation is an admitted call's place in its tenant's quotas, held
// from admission until the call is settled, so that calls in flight count
// against a quota before their usage is known. It is settled exactly once:
// by counting the call's usage event, which carries it
// (UsageEvent.Reservation), or by Release when no usage is counted (the call
// was refused later in the path, gated, failed unbilled, panicked or its
// record could not be kept).
type QuotaReservation interface {
	// Warning is set when the call goes ahead past a soft limit.
	Warning() string
	// Release gives the place back. It does nothing once the reservation is
	// settled, so callers defer it right after admission.
	Release()
}

// QuotaChecker admits calls within the tenants' billing plans.
type QuotaChecker interface {
	// ReserveQuota admits one call and holds its place in the tenant's
	// quotas until the reservation is settled. A hard limit that the call
	// would pass is QUOTA_EXCEEDED; usage that could not be read,
	// UNAVAILABLE. Past a soft limit the call is admitted with a warning.
	ReserveQuota(ctx context.Context, u QuotaUse) (QuotaReservation, error)
}
