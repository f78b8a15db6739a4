package gtmgate

import (
	"context"
	"encoding/json"
	"time"
)

// SourceAgent marks calls an agent run made (their ParentRequestID is the run's).
const SourceAgent = "agent"

// Agent run states. A run is queued, then running; a step held for approval
// parks it in waiting_approval until the gate is decided; it ends succeeded,
// failed (an error or a limit, see Reason), cancelled, or, for a scheduled
// tick that was missed for too long, skipped.
const (
	RunQueued          = "queued"
	RunRunning         = "running"
	RunWaitingApproval = "waiting_approval"
	RunSucceeded       = "succeeded"
	RunFailed          = "failed"
	RunCancelled       = "cancelled"
	RunSkipped         = "skipped"
)

// RunFinished reports whether a run status is final.
func RunFinished(status string) bool {
	switch status {
	case RunSucceeded, RunFailed, RunCancelled, RunSkipped:
		return true
	}
	return false
}

// Run triggers: how a run came to be.
const (
	TriggerCall     = "call"     // run_agent
	TriggerSchedule = "schedule" // a schedule's tick
	TriggerManual   = "manual"   // POST /admin/run-cron or /admin/agent-schedules/{job_id}/run
)

// AgentRun is one agent run: a tool-calling loop through the model gateway,
// or (Call set) one fixed tool call, as a schedule may ask for.
type AgentRun struct {
	ID       string `json:"run_id"`
	TenantID string `json:"tenant_id"`
	Status   string `json:"status"`
	// Reason says why a run failed, was cancelled or skipped.
	Reason string `json:"reason,omitempty"`
	Task   string `json:"task,omitempty"`
	// Call is the one tool call of a run that needs no model.
	Call  *ToolCallSpec `json:"call,omitempty"`
	Model string        `json:"model,omitempty"`
	Tools []string      `json:"tools,omitempty"`
	// ReadOnly runs (no tools named) may call read-only actions only.
	ReadOnly  bool  `json:"read_only,omitempty"`
	MaxSteps  int   `json:"max_steps"`
	MaxTokens int64 `json:"max_tokens"`
	// MaxSeconds bounds the run's working time (waiting for an approval
	// does not count; the gate's own expiry bounds that).
	MaxSeconds int    `json:"max_seconds"`
	Rationale  string `json:"rationale,omitempty"`
	// Scopes are the starting credential's OAuth scopes (nil for a tenant
	// token): the run's calls may do no more than its starter could.
	Scopes []string `json:"scopes,omitempty"`
	// Credential is what the run acts for: the credential that started it
	// or created its schedule. Once it is revoked the run is cancelled.
	Credential *Credential `json:"credential,omitempty"`
	// RequestID is the request that started the run; every call the run
	// makes carries it as its parent.
	RequestID string `json:"request_id"`
	Trigger   string `json:"trigger"`
	// ScheduleID and ScheduledFor name the schedule tick that started it.
	ScheduleID   string     `json:"job_id,omitempty"`
	ScheduledFor *time.Time `json:"scheduled_for,omitempty"`
	// LateBySeconds is, for a schedule tick's run, how late it was created
	// after the tick's time (StartedAt tells when its first step began).
	LateBySeconds float64   `json:"late_by_seconds,omitempty"`
	Steps         []RunStep `json:"steps"`
	Answer        string    `json:"answer,omitempty"`
	Cost          RunCost   `json:"cost"`
	// WaitingFor is the approval a waiting run is parked on.
	WaitingFor string `json:"waiting_for,omitempty"`
	// Held says why a queued or running run is waiting for one of its
	// tenant's limits (runs_in_flight, steps_per_minute) and since when;
	// it is cleared when the run moves on.
	Held string `json:"held,omitempty"`
	// Messages is the model conversation so far, kept so a run resumes
	// where it stopped; not shown in answers.
	Messages   json.RawMessage `json:"-"`
	CreatedAt  time.Time       `json:"created_at"`
	StartedAt  *time.Time      `json:"started_at,omitempty"`
	FinishedAt *time.Time      `json:"finished_at,omitempty"`
	// WorkedMS is the working time spent so far, for MaxDuration.
	WorkedMS int64 `json:"worked_ms"`
	// Version counts saves; SaveAgentRun refuses a stale one.
	Version int64 `json:"-"`
}

// ToolCallSpec is one tool call with its input.
type ToolCallSpec struct {
	Tool  string          `json:"tool"`
	Input json.RawMessage `json:"input"`
}

// Step states.
const (
	StepPlanned         = "planned"
	StepRunning         = "running"
	StepOK              = "ok"
	StepError           = "error"
	StepWaitingApproval = "waiting_approval"
	// StepUnknown: the process stopped while a mutating step was calling its
	// provider; it is not run again.
	StepUnknown = "outcome_unknown"
)

// RunStep is one tool call of a run.
type RunStep struct {
	N      int    `json:"n"`
	Tool   string `json:"tool"`
	Action string `json:"action,omitempty"`
	// CallID is the model's id for the call ("" for a fixed call).
	CallID    string          `json:"call_id,omitempty"`
	Input     json.RawMessage `json:"input"`
	Status    string          `json:"status"`
	RequestID string          `json:"request_id"`
	// Result is the call's result (cut to a bounded excerpt).
	Result     json.RawMessage `json:"result,omitempty"`
	ErrorCode  string          `json:"error_code,omitempty"`
	Error      string          `json:"error,omitempty"`
	ApprovalID string          `json:"approval_id,omitempty"`
	// Tokens the model spent planning this step (the turn's usage, on the
	// turn's first step).
	PromptTokens     int64      `json:"prompt_tokens,omitempty"`
	CompletionTokens int64      `json:"completion_tokens,omitempty"`
	StartedAt        time.Time  `json:"started_at"`
	FinishedAt       *time.Time `json:"finished_at,omitempty"`
}

// RunCost is what a run spent.
type RunCost struct {
	ModelTurns       int   `json:"model_turns"`
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	ToolCalls        int   `json:"tool_calls"`
}

// Tokens is the run's total token count.
func (u RunCost) Tokens() int64 { return u.PromptTokens + u.CompletionTokens }

// AgentRunFilter selects runs, newest first.
type AgentRunFilter struct {
	TenantID   string
	ScheduleID string
	Status     string
	// WaitingFor selects the run parked on one approval.
	WaitingFor string
	// ExceptTenantID leaves out one tenant's runs (is another tenant waiting?).
	ExceptTenantID string
	// CreatedBefore selects runs created before a time (queued ones left behind).
	CreatedBefore time.Time
	Limit         int
}

// Schedule is a recurring job of one tenant: a cron expression in a time
// zone, and what to run (an agent task, or one tool call).
type Schedule struct {
	JobID    string `json:"job_id"`
	TenantID string `json:"tenant_id"`
	Cron     string `json:"cron"`
	Timezone string `json:"timezone"`
	// Exactly one of Agent and Call is set.
	Agent       *AgentTask    `json:"agent,omitempty"`
	Call        *ToolCallSpec `json:"call,omitempty"`
	Enabled     bool          `json:"enabled"`
	EndsAt      *time.Time    `json:"ends_at,omitempty"`
	Description string        `json:"description,omitempty"`
	// NextRunAt is the next tick not yet handled (nil when disabled or ended).
	NextRunAt *time.Time `json:"next_run_at,omitempty"`
	CreatedAt time.Time  `json:"created_at"`
	UpdatedAt time.Time  `json:"updated_at"`
	UpdatedBy string     `json:"updated_by,omitempty"`
	// CreatedBy is the credential the schedule acts for: the admin key, or
	// the tenant token or OAuth grant that created (or last re-enabled) it.
	// Revoking it disables the schedule. Nil on schedules stored before
	// schedules carried it.
	CreatedBy *Credential `json:"created_by,omitempty"`
	// Scopes bound its runs: the creating OAuth grant's scopes (nil for the
	// admin key and tenant tokens, which carry every right of the tenant).
	Scopes []string `json:"scopes,omitempty"`
	// DisabledReason and DisabledAt say why and when gtmgate disabled the
	// schedule (its credential was revoked); putting it again clears them.
	DisabledReason string     `json:"disabled_reason,omitempty"`
	DisabledAt     *time.Time `json:"disabled_at,omitempty"`
}

// ScheduleDisable disables the enabled schedules of a tenant that act for
// a revoked credential.
type ScheduleDisable struct {
	TenantID   string
	Credential Credential
	Reason     string
	At         time.Time
}

// AgentTask is the run_agent input a schedule starts.
type AgentTask struct {
	Task       string   `json:"task"`
	Tools      []string `json:"tools,omitempty"`
	Model      string   `json:"model,omitempty"`
	MaxSteps   int      `json:"max_steps,omitempty"`
	MaxTokens  int64    `json:"max_tokens,omitempty"`
	MaxSeconds int      `json:"max_seconds,omitempty"`
}

// ScheduleFilter selects schedules ordered by job id, then tenant.
type ScheduleFilter struct {
	TenantID string
	// JobID selects the schedules of this name (one per tenant at most).
	JobID string
	// DueBy selects enabled schedules whose next run is at or before it.
	DueBy time.Time
	// Cron selects schedules with this expression.
	Cron string
}

// DailyBrief is one generated brief.
type DailyBrief struct {
	// Date is the day (YYYY-MM-DD, in the brief's time zone) the brief is for.
	Date        string          `json:"date"`
	GeneratedAt time.Time       `json:"generated_at"`
	From        time.Time       `json:"from"`
	To          time.Time       `json:"to"`
	Figures     json.RawMessage `json:"figures"`
	Markdown    string          `json:"markdown"`
	// WrittenBy is the model that wrote the markdown, or "template".
	WrittenBy string `json:"written_by"`
	// Note says why a model was configured but not used.
	Note    string `json:"note,omitempty"`
	Trigger string `json:"trigger"`
}

// AgentStore keeps agent runs, schedules and daily briefs.
type AgentStore interface {
	// CreateAgentRun stores a new run. A second run of one schedule tick
	// (same TenantID, ScheduleID and ScheduledFor, trigger schedule) is
	// ErrConflict.
	CreateAgentRun(ctx context.Context, r *AgentRun) error
	// CreateAgentRunWith stores a new run as CreateAgentRun does, calling
	// admit inside the same transaction to decide on it and enqueue its
	// job: the run and its job are stored together or not at all. admit's
	// error is returned unchanged.
	CreateAgentRunWith(ctx context.Context, r *AgentRun, admit RunAdmission) error
	// CountAgentRuns counts a tenant's queued and running runs.
	CountAgentRuns(ctx context.Context, tenantID string) (TenantRuns, error)
	// GetAgentRun returns ErrNotFound for an unknown id.
	GetAgentRun(ctx context.Context, id string) (*AgentRun, error)
	// SaveAgentRun replaces a run whose stored Version equals r.Version and
	// increments r.Version; a stale r is ErrConflict.
	SaveAgentRun(ctx context.Context, r *AgentRun) error
	ListAgentRuns(ctx context.Context, f AgentRunFilter) ([]*AgentRun, error)

	// Schedules are keyed by tenant and job id: each tenant names its own,
	// and one tenant's job ids neither collide with nor reveal another's.

	// PutSchedule creates or replaces the schedule (s.TenantID, s.JobID) in
	// one statement; created reports which.
	PutSchedule(ctx context.Context, s *Schedule) (created bool, err error)
	// CountEnabledSchedules counts a tenant's enabled schedules other than
	// exceptJobID.
	CountEnabledSchedules(ctx context.Context, tenantID, exceptJobID string) (int, error)
	// GetSchedule returns ErrNotFound when the tenant has no such job.
	GetSchedule(ctx context.Context, tenantID, jobID string) (*Schedule, error)
	ListSchedules(ctx context.Context, f ScheduleFilter) ([]*Schedule, error)
	// DeleteSchedule returns ErrNotFound when the tenant has no such job.
	DeleteSchedule(ctx context.Context, tenantID, jobID string) error
	// AdvanceSchedule moves a schedule's next run from from to next (nil =
	// none) only if it still stands at from; otherwise ErrConflict.
	AdvanceSchedule(ctx context.Context, tenantID, jobID string, from time.Time, next *time.Time) error
	// DisableSchedules disables, in one statement, every enabled schedule
	// of d.TenantID created by d.Credential (no next run, the reason and
	// time recorded), and reports how many. A schedule re-enabled with
	// another credential meanwhile is left alone.
	DisableSchedules(ctx context.Context, d ScheduleDisable) (int64, error)

	// PutDailyBrief stores a brief, replacing the one of the same date.
	PutDailyBrief(ctx context.Context, b *DailyBrief) error
	// GetDailyBrief returns the brief of a date, the latest when date is "",
	// or ErrNotFound.
	GetDailyBrief(ctx context.Context, date string) (*DailyBrief, error)
}
