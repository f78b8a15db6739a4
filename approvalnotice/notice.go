// Package approvalnotice announces approval gates on the alert webhook:
// approval.requested when a call is held, approval.decided once a decision
// is final (executed, failed or rejected), approval.expired when nobody
// decided in time. A notice is a durable job inserted before the state
// change it announces; its worker waits until the gate is in that state and
// then queues the signed message, so a process killed between the two
// loses neither, and a state change that never happened is never
// announced.
package approvalnotice

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
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

// Store is what the worker reads of the gates.
type Store interface {
	GetApproval(ctx context.Context, id string) (*gtmgate.Approval, error)
}

// Queue takes the webhook message a notice becomes.
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
	Now        func() time.Time
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
	switch ready(n.Event, a.Status) {
	case wait:
		return fmt.Errorf("%s of %s (status %s): %w", n.Event, a.ID, a.Status, errNotYet)
	case never:
		return river.JobCancel(fmt.Errorf("%s of %s: the gate ended %s", n.Event, a.ID, a.Status))
	}
	body, err := json.Marshal(webhook.Envelope{Type: n.Event, Timestamp: w.opts.Now().UTC(), Data: Summarize(a, w.opts.GatewayURL)})
	if err != nil {
		return err
	}
	_, err = w.opts.Queue.Insert(ctx, webhook.Args{WebhookID: n.Event + "_" + a.ID, Event: n.Event, TenantID: a.TenantID, Body: body}, nil)
	return err
}

type readiness int

const (
	now readiness = iota
	wait
	never
)

// ready says whether a gate in status can be announced as event.
func ready(event, status string) readiness {
	switch event {
	case Requested:
		return now // stored means held, whatever happened since
	case Decided:
		switch status {
		case gtmgate.ApprovalExecuted, gtmgate.ApprovalFailed, gtmgate.ApprovalRejected:
			return now
		case gtmgate.ApprovalPending, gtmgate.ApprovalApproved: // approved: executing
			return wait
		}
	case Expired:
		switch status {
		case gtmgate.ApprovalExpired:
			return now
		case gtmgate.ApprovalPending:
			return wait
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
		URL: gatewayURL + "/console/approvals#" + url.PathEscape(a.ID)}
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
