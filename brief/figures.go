// Package brief writes the daily brief: the operator's figures of the last
// 24 hours (calls and errors by tenant and tool, incidents, quality by tool
// path, approvals waiting, feedback, accounts needing re-authorisation,
// agent runs, tokens), rendered as markdown by a model through the model
// gateway when one is configured, else by a fixed template.
package brief

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/apiversion"
)

// Figures are the numbers a brief is written from.
type Figures struct {
	From      time.Time       `json:"from"`
	To        time.Time       `json:"to"`
	Calls     int             `json:"calls"`
	Errors    int             `json:"errors"`
	Tenants   []TenantFigures `json:"tenants"`
	Incidents Incidents       `json:"incidents"`
	Quality   []PathQuality   `json:"quality"`
	Approvals Approvals       `json:"approvals"`
	Feedback  Feedback        `json:"feedback"`
	Reauth    []Account       `json:"reauth"`
	Agents    AgentRuns       `json:"agent_runs"`
	Cost      Cost            `json:"cost"`
	// APIVersions are the provider API versions within 90 days of their sunset or past it.
	APIVersions []apiversion.Status `json:"api_versions"`
}

// TenantFigures are one tenant's calls.
type TenantFigures struct {
	TenantID string        `json:"tenant_id"`
	Calls    int           `json:"calls"`
	Errors   int           `json:"errors"`
	Tools    []ToolFigures `json:"tools"`
}

// ToolFigures are one tool's calls.
type ToolFigures struct {
	Tool   string  `json:"tool"`
	Calls  int     `json:"calls"`
	Errors int     `json:"errors"`
	P95MS  float64 `json:"p95_ms"`
}

// Incidents opened in the window, and how many are open now.
type Incidents struct {
	Opened  []Incident `json:"opened"`
	OpenNow int        `json:"open_now"`
}

// Incident is one incident line.
type Incident struct {
	ID       string    `json:"id"`
	TenantID string    `json:"tenant_id"`
	Path     string    `json:"path"`
	Time     time.Time `json:"time"`
	Status   string    `json:"status"`
}

// PathQuality is the panel verdicts of one tenant's tool path.
type PathQuality struct {
	TenantID    string  `json:"tenant_id"`
	Path        string  `json:"path"`
	Verdicts    int     `json:"verdicts"`
	MeanQuality float64 `json:"mean_quality"`
	Bad         int     `json:"bad"`
}

// Approvals waiting for a decision.
type Approvals struct {
	Waiting int        `json:"waiting"`
	Oldest  []Approval `json:"oldest"`
}

// Approval is one waiting gate.
type Approval struct {
	ID        string    `json:"id"`
	TenantID  string    `json:"tenant_id"`
	Path      string    `json:"path"`
	CreatedAt time.Time `json:"created_at"`
}

// Feedback received from agents.
type Feedback struct {
	Received   int            `json:"received"`
	BySeverity map[string]int `json:"by_severity"`
}

// Account is a provider account needing re-authorisation.
type Account struct {
	TenantID  string `json:"tenant_id"`
	Provider  string `json:"provider"`
	AccountID string `json:"account_id"`
	LastError string `json:"last_error,omitempty"`
	// Kind and Reason say why (package reauth: refused, expiring,
	// expired); empty when only the refresh records were read.
	Kind   string `json:"kind,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// AgentRuns counts runs created in the window by state.
type AgentRuns struct {
	Started  int            `json:"started"`
	ByStatus map[string]int `json:"by_status"`
}

// Cost is what the window used. Prices per call and token are billing's.
type Cost struct {
	ToolCalls        int           `json:"tool_calls"`
	PromptTokens     int64         `json:"prompt_tokens"`
	CompletionTokens int64         `json:"completion_tokens"`
	ByModel          []ModelTokens `json:"by_model"`
}

// ModelTokens are one model's tokens (chat pass-through and agent turns).
type ModelTokens struct {
	Model            string `json:"model"`
	PromptTokens     int64  `json:"prompt_tokens"`
	CompletionTokens int64  `json:"completion_tokens"`
}

// listLimit bounds each list a brief reads.
const listLimit = 1000

// Gather reads the figures of [from, to).
func Gather(ctx context.Context, st gtmgate.Store, from, to time.Time) (*Figures, error) {
	f := &Figures{From: from, To: to, Tenants: []TenantFigures{}, Quality: []PathQuality{}, Reauth: []Account{},
		Incidents: Incidents{Opened: []Incident{}}, Approvals: Approvals{Oldest: []Approval{}},
		Feedback: Feedback{BySeverity: map[string]int{}}, Agents: AgentRuns{ByStatus: map[string]int{}}, Cost: Cost{ByModel: []ModelTokens{}},
		APIVersions: []apiversion.Status{}}
	tenants, err := st.ListTenants(ctx)
	if err != nil {
		return nil, fmt.Errorf("brief: tenants: %w", err)
	}
	models := map[string]*ModelTokens{}
	for _, t := range tenants {
		events, err := st.ListUsage(ctx, gtmgate.UsageQuery{TenantID: t.ID, From: from, To: to})
		if err != nil {
			return nil, fmt.Errorf("brief: usage of %s: %w", t.ID, err)
		}
		if tf, ok := tenantFigures(t.ID, events, models, &f.Cost); ok {
			f.Tenants = append(f.Tenants, tf)
			f.Calls += tf.Calls
			f.Errors += tf.Errors
		}
	}
	for _, m := range models {
		f.Cost.ByModel = append(f.Cost.ByModel, *m)
	}
	sort.Slice(f.Cost.ByModel, func(i, j int) bool { return f.Cost.ByModel[i].Model < f.Cost.ByModel[j].Model })
	if err := f.incidents(ctx, st, from); err != nil {
		return nil, err
	}
	if err := f.quality(ctx, st, from, to); err != nil {
		return nil, err
	}
	if err := f.waiting(ctx, st, to); err != nil {
		return nil, err
	}
	fb, err := st.ListFeedback(ctx, gtmgate.FeedbackFilter{Since: from, Limit: listLimit})
	if err != nil {
		return nil, fmt.Errorf("brief: feedback: %w", err)
	}
	for _, x := range fb {
		if x.Time.Before(to) {
			f.Feedback.Received++
			f.Feedback.BySeverity[x.Severity]++
		}
	}
	oauth, err := st.ListProviderOAuth(ctx, "")
	if err != nil {
		return nil, fmt.Errorf("brief: provider accounts: %w", err)
	}
	for _, o := range oauth {
		if o.NeedsReauth {
			f.Reauth = append(f.Reauth, Account{TenantID: o.TenantID, Provider: o.Provider, AccountID: o.AccountID, LastError: o.LastError})
		}
	}
	runs, err := st.ListAgentRuns(ctx, gtmgate.AgentRunFilter{CreatedBefore: to, Limit: listLimit})
	if err != nil {
		return nil, fmt.Errorf("brief: agent runs: %w", err)
	}
	for _, r := range runs {
		if !r.CreatedAt.Before(from) {
			f.Agents.Started++
			f.Agents.ByStatus[r.Status]++
		}
	}
	return f, nil
}

// tenantFigures folds a tenant's usage events; chat events count as tokens.
func tenantFigures(tenantID string, events []gtmgate.UsageEvent, models map[string]*ModelTokens, cost *Cost) (TenantFigures, bool) {
	tf := TenantFigures{TenantID: tenantID, Tools: []ToolFigures{}}
	byTool := map[string]*ToolFigures{}
	latencies := map[string][]float64{}
	for _, e := range events {
		if e.Tool == gtmgate.ChatUsageTool {
			m := models[e.Action]
			if m == nil {
				m = &ModelTokens{Model: e.Action}
				models[e.Action] = m
			}
			m.PromptTokens += e.PromptTokens
			m.CompletionTokens += e.CompletionTokens
			cost.PromptTokens += e.PromptTokens
			cost.CompletionTokens += e.CompletionTokens
			continue
		}
		t := byTool[e.Tool]
		if t == nil {
			t = &ToolFigures{Tool: e.Tool}
			byTool[e.Tool] = t
		}
		t.Calls++
		tf.Calls++
		cost.ToolCalls++
		if !e.OK {
			t.Errors++
			tf.Errors++
		}
		latencies[e.Tool] = append(latencies[e.Tool], e.DurationMS)
	}
	for name, t := range byTool {
		t.P95MS = p95(latencies[name])
		tf.Tools = append(tf.Tools, *t)
	}
	sort.Slice(tf.Tools, func(i, j int) bool {
		if tf.Tools[i].Calls != tf.Tools[j].Calls {
			return tf.Tools[i].Calls > tf.Tools[j].Calls
		}
		return tf.Tools[i].Tool < tf.Tools[j].Tool
	})
	return tf, tf.Calls > 0
}

func p95(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	slices.Sort(v)
	i := int(math.Ceil(0.95*float64(len(v)))) - 1
	return math.Round(v[max(i, 0)]*10) / 10
}

func (f *Figures) incidents(ctx context.Context, st gtmgate.Store, from time.Time) error {
	opened, err := st.ListLedger(ctx, gtmgate.LedgerFilter{Kind: gtmgate.LedgerIncident, Since: from, Limit: listLimit})
	if err != nil {
		return fmt.Errorf("brief: incidents: %w", err)
	}
	for _, e := range opened {
		if e.Time.Before(f.To) {
			f.Incidents.Opened = append(f.Incidents.Opened, Incident{ID: e.ID, TenantID: e.TenantID, Path: e.Tool + "." + e.Action, Time: e.Time, Status: e.Status})
		}
	}
	open, err := st.ListLedger(ctx, gtmgate.LedgerFilter{Kind: gtmgate.LedgerIncident, Status: gtmgate.IncidentOpen, Limit: listLimit})
	if err != nil {
		return fmt.Errorf("brief: open incidents: %w", err)
	}
	f.Incidents.OpenNow = len(open)
	return nil
}

func (f *Figures) quality(ctx context.Context, st gtmgate.Store, from, to time.Time) error {
	vs, err := st.ListVerdicts(ctx, gtmgate.VerdictFilter{Since: from, Limit: listLimit})
	if err != nil {
		return fmt.Errorf("brief: verdicts: %w", err)
	}
	paths := map[string]*PathQuality{}
	for _, v := range vs {
		if v.Panel == nil || v.Status != gtmgate.VerdictGraded || !v.Time.Before(to) {
			continue
		}
		key := v.TenantID + "\x00" + v.Tool + "." + v.Action
		p := paths[key]
		if p == nil {
			p = &PathQuality{TenantID: v.TenantID, Path: v.Tool + "." + v.Action}
			paths[key] = p
		}
		p.MeanQuality += float64(v.Panel.Quality)
		p.Verdicts++
		if v.Panel.Quality <= 2 {
			p.Bad++
		}
	}
	for _, p := range paths {
		p.MeanQuality = math.Round(p.MeanQuality/float64(p.Verdicts)*100) / 100
		f.Quality = append(f.Quality, *p)
	}
	sort.Slice(f.Quality, func(i, j int) bool {
		a, b := f.Quality[i], f.Quality[j]
		if a.MeanQuality != b.MeanQuality {
			return a.MeanQuality < b.MeanQuality
		}
		return a.TenantID+a.Path < b.TenantID+b.Path
	})
	return nil
}

func (f *Figures) waiting(ctx context.Context, st gtmgate.Store, now time.Time) error {
	pending, err := st.ListApprovals(ctx, gtmgate.ApprovalFilter{Status: gtmgate.ApprovalPending, Limit: listLimit, AsOf: now})
	if err != nil {
		return fmt.Errorf("brief: approvals: %w", err)
	}
	for _, a := range pending {
		if now.After(a.ExpiresAt) {
			continue
		}
		f.Approvals.Waiting++
		f.Approvals.Oldest = append(f.Approvals.Oldest, Approval{ID: a.ID, TenantID: a.TenantID, Path: a.Tool + "." + a.Action, CreatedAt: a.CreatedAt})
	}
	sort.Slice(f.Approvals.Oldest, func(i, j int) bool { return f.Approvals.Oldest[i].CreatedAt.Before(f.Approvals.Oldest[j].CreatedAt) })
	f.Approvals.Oldest = f.Approvals.Oldest[:min(5, len(f.Approvals.Oldest))]
	return nil
}
