// Package approvalnotice announces approval gates: approval.requested when
// a call is held, approval.reminder when a fifth of a pending gate's life
// remains, approval.decided once a decision is final (executed, failed or
// rejected), approval.expired when nobody decided in time. A notice goes to
// the webhooks of the first of the tenant's approval routes that matches
// the gate (as a Standard Webhooks message or a Slack one), else to the
// alert webhook, and names the people who should decide.
//
// A notice is a durable job inserted before the state change it announces;
// its worker waits until the gate is in that state and then queues the
// signed messages, so a process killed between the two loses neither, and
// a state change that never happened is never announced. The reminder is
// queued, scheduled, by the requested notice, and sent only if the gate is
// still pending then.
package approvalnotice

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jobs"
	"github.com/gtmgate/gtmgate/webhook"
)

// Events announced.
const (
	Requested = gtmgate.EventApprovalRequested
	Decided   = gtmgate.EventApprovalDecided
	Expired   = gtmgate.EventApprovalExpired
	Reminder  = gtmgate.EventApprovalReminder
)

// Args is one notice to give: Event about the gate ApprovalID. The same
// notice inserted twice is one job.
type Args struct {
	ApprovalID string `json:"approval_id" river:"unique"`
	Event      string `json:"event" river:"unique"`
}

// Kind implements river.JobArgs.
func (Args) Kind() string { return "approval_notice" }

// maxAttempts bounds how long a notice waits for its state: with the
// backoff below, about half an hour, longer than a call can execute.
const maxAttempts = 12

// InsertOpts implements river.JobArgsWithInsertOpts.
func (Args) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: jobs.QueueWebhooks, MaxAttempts: maxAttempts, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// Store is what the worker reads of the gates, their tenants' routes and
// the people who may decide them.
type Store interface {
	GetApproval(ctx context.Context, id string) (*gtmgate.Approval, error)
	GetTenant(ctx context.Context, id string) (*gtmgate.Tenant, error)
	GetPerson(ctx context.Context, id string) (*gtmgate.Person, error)
	ListPeople(ctx context.Context) ([]*gtmgate.Person, error)
	ListRoleGrants(ctx context.Context, idp string) ([]*gtmgate.RoleGrant, error)
}

// Queue takes the webhook messages a notice becomes, and the reminder the
// requested notice schedules.
type Queue interface {
	Insert(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
}

// Options configures the worker. Store, Queue and GatewayURL are required.
type Options struct {
	Store Store
	Queue Queue
	// GatewayURL is where the console is served: messages link to the
	// gate there.
	GatewayURL string
	// AlertWebhook says whether the alert webhook is configured: a gate no
	// route sends elsewhere is announced there, or not at all.
	AlertWebhook bool
	Now          func() time.Time
}

// Worker turns notices into webhook messages.
type Worker struct {
	river.WorkerDefaults[Args]
	opts Options
}

// New returns the worker.
func New(opts Options) *Worker {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Worker{opts: opts}
}

// NextRetry waits 2, 4, 8… seconds, at most five minutes: a gate is
// usually in its state within seconds.
func (w *Worker) NextRetry(job *river.Job[Args]) time.Time {
	wait := time.Duration(1<<min(job.Attempt, 9)) * time.Second
	return w.opts.Now().Add(min(wait, 5*time.Minute))
}

// errNotYet is a notice whose gate is not yet in its state: tried again.
var errNotYet = errors.New("the gate is not in the announced state yet")

// Work announces the gate once it is in the notice's state.
func (w *Worker) Work(ctx context.Context, job *river.Job[Args]) error {
	n := job.Args
	a, err := w.opts.Store.GetApproval(ctx, n.ApprovalID)
	if errors.Is(err, gtmgate.ErrNotFound) {
		// The gate was never stored (its call failed after the notice was
		// queued), or not yet: wait, then give up without a message.
		return fmt.Errorf("approval %s: %w", n.ApprovalID, errNotYet)
	} else if err != nil {
		return err
	}
	now := w.opts.Now()
	switch ready(n.Event, a, now) {
	case wait:
		return fmt.Errorf("%s of %s (status %s): %w", n.Event, a.ID, a.Status, errNotYet)
	case never:
		return river.JobCancel(fmt.Errorf("%s of %s: the gate is %s, expiring %s", n.Event, a.ID, a.Status, a.ExpiresAt.Format(time.RFC3339)))
	}
	policy, err := w.policy(ctx, a.TenantID)
	if err != nil {
		return err
	}
	route, routed := policy.Route(a.Category, a.Tool)
	s := Summarize(a, w.opts.GatewayURL)
	if s.Approvers, err = w.approvers(ctx, a, route, routed); err != nil {
		return fmt.Errorf("%s of %s: the approvers: %w", n.Event, a.ID, err)
	}
	for _, to := range targets(route, routed, w.opts.AlertWebhook) {
		body, err := Body(to.format, n.Event, s, now)
		if err != nil {
			return err
		}
		msg := webhook.Args{WebhookID: n.Event + "_" + a.ID, Event: n.Event, TenantID: a.TenantID, Body: body, Endpoint: to.endpoint}
		if _, err := w.opts.Queue.Insert(ctx, msg, nil); err != nil {
			return err
		}
	}
	if n.Event == Requested && a.Status == gtmgate.ApprovalPending {
		if at, ok := RemindAt(a.CreatedAt, a.ExpiresAt); ok {
			// Unique by its arguments: a retry of this notice queues it once.
			if _, err := w.opts.Queue.Insert(ctx, Args{ApprovalID: a.ID, Event: Reminder}, &river.InsertOpts{ScheduledAt: at}); err != nil {
				return fmt.Errorf("scheduling the reminder of %s: %w", a.ID, err)
			}
		}
	}
	return nil
}

// policy is the approval policy of tenantID, nil when it has none (or the
// tenant is gone): then no route matches.
func (w *Worker) policy(ctx context.Context, tenantID string) (*gtmgate.ApprovalPolicy, error) {
	t, err := w.opts.Store.GetTenant(ctx, tenantID)
	if errors.Is(err, gtmgate.ErrNotFound) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("tenant %s: %w", tenantID, err)
	}
	return t.Approval, nil
}

type readiness int

const (
	send readiness = iota
	wait
	never
)

// ready says whether gate a can be announced as event at now.
func ready(event string, a *gtmgate.Approval, now time.Time) readiness {
	status := a.Status
	switch event {
	case Requested:
		return send // stored means held, whatever happened since
	case Decided:
		switch status {
		case gtmgate.ApprovalExecuted, gtmgate.ApprovalFailed, gtmgate.ApprovalRejected:
			return send
		case gtmgate.ApprovalPending, gtmgate.ApprovalApproved: // approved: executing
			return wait
		}
	case Expired:
		switch status {
		case gtmgate.ApprovalExpired:
			return send
		case gtmgate.ApprovalPending:
			return wait
		}
	case Reminder:
		// Only a gate still waiting for a decision is worth reminding of.
		if status == gtmgate.ApprovalPending && now.Before(a.ExpiresAt) {
			return send
		}
	}
	return never
}

// Summary is what a message says of a gate: enough to decide whether to
// open it, never a credential (inputs hold none).
type Summary struct {
	ID       string `json:"id"`
	TenantID string `json:"tenant_id"`
	Status   string `json:"status"`
	// Gate is policy or quality.
	Gate      string `json:"gate"`
	Tool      string `json:"tool"`
	Action    string `json:"action"`
	Category  string `json:"category"`
	AccountID string `json:"account_id,omitempty"`
	Agent     string `json:"agent,omitempty"`
	Person    string `json:"person,omitempty"`
	Rationale string `json:"rationale,omitempty"`
	// Fields are the input's top-level values other than the rationale,
	// nested ones as JSON text, text cut to 200 characters: what the call
	// would do.
	Fields        map[string]any `json:"fields,omitempty"`
	Digest        string         `json:"digest,omitempty"`
	PolicyVersion string         `json:"policy_version,omitempty"`
	ExpiresAt     time.Time      `json:"expires_at"`
	DecidedBy     string         `json:"decided_by,omitempty"`
	Reason        string         `json:"reason,omitempty"`
	// Approvers are who should decide: the route's approvers, else the
	// tenant's people whose grants let them decide this gate.
	Approvers []Approver `json:"approvers"`
	// URL is the gate on the console's approvals page; the link carries no
	// authority of its own: whoever opens it signs in.
	URL string `json:"url"`
}

// fieldChars bounds a text field in a summary.
const fieldChars = 200

// Summarize describes a for a message, linking to it on the console.
func Summarize(a *gtmgate.Approval, gatewayURL string) Summary {
	s := Summary{ID: a.ID, TenantID: a.TenantID, Status: a.Status, Gate: a.Gate, Tool: a.Tool, Action: a.Action, Category: a.Category,
		AccountID: a.AccountID, Agent: a.Agent, Person: a.Person, Digest: a.Digest, PolicyVersion: a.PolicyVersion,
		ExpiresAt: a.ExpiresAt, DecidedBy: a.DecidedBy, Reason: a.Reason,
		URL: gatewayURL + gtmgate.ApprovalPagePath(a.ID), Approvers: []Approver{}}
	var input map[string]any
	if json.Unmarshal(a.Input, &input) == nil {
		for _, k := range slices.Sorted(maps.Keys(input)) {
			v := input[k]
			switch x := v.(type) {
			case string:
				v = cut(x)
			case map[string]any, []any: // nested values, as JSON text
				b, _ := json.Marshal(x)
				v = cut(string(b))
			}
			if k == "rationale" {
				s.Rationale, _ = v.(string)
				continue
			}
			if s.Fields == nil {
				s.Fields = map[string]any{}
			}
			s.Fields[k] = v
		}
	}
	return s
}

func cut(s string) string {
	if utf8.RuneCountInString(s) <= fieldChars {
		return s
	}
	return string([]rune(s)[:fieldChars]) + "…"
}
