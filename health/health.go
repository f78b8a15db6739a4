// Package health takes the system health snapshot: every part of the
// installation an operator needs to see at a glance (store, migrations, job
// queues, audit journal, providers, accounts, webhooks, judges, incidents,
// approvals, disk, process, replicas), with an overall status and the
// reasons for it. A periodic job takes one a minute; /health reads the
// latest to report degraded without exposing tenant data.
package health

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/diskspace"
	"github.com/gtmgate/gtmgate/jobs"
	"github.com/gtmgate/gtmgate/provider/apiversion"
	"github.com/gtmgate/gtmgate/reauth"
)

// Statuses, worst last.
const (
	StatusOK       = "ok"
	StatusDegraded = "degraded"
	StatusDown     = "down"
)

// Thresholds past which a part degrades the status.
const (
	slowStore          = time.Second
	journalBacklog     = 10_000
	providerErrorRate  = 0.25
	providerMinCalls   = 10
	judgeFailureRate   = 0.2
	judgeMinVerdicts   = 5
	webhookBacklog     = 100
	lowDiskFraction    = 0.1
	expiringWithin     = 24 * time.Hour
	providerWindow     = 15 * time.Minute
	judgeWindow        = time.Hour
	recentUsageLimit   = 50_000
	listLimit          = 1000
	heartbeatLiveAfter = 15 * time.Second
)

// Report is one snapshot.
type Report struct {
	ID      string           `json:"id"`
	TakenAt time.Time        `json:"taken_at"`
	Status  string           `json:"status"`
	Reasons []string         `json:"reasons"`
	Store   Store            `json:"store"`
	Jobs    []jobs.QueueStat `json:"jobs"`
	// Queues sums Jobs per queue, with each queue's wait threshold.
	Queues []jobs.QueueWait `json:"queues"`
	// Schedules is the lateness of the latest ticks this replica fired.
	Schedules Schedules `json:"schedules"`
	// Grading is the grading backlog and the samples shed (grading on only).
	Grading   *Grading          `json:"grading,omitempty"`
	Audit     Audit             `json:"audit"`
	Providers []Provider        `json:"providers"`
	Accounts  Accounts          `json:"accounts"`
	Webhooks  Webhooks          `json:"webhooks"`
	Judges    Judges            `json:"judges"`
	Incidents Count             `json:"incidents"`
	Approvals Count             `json:"approvals"`
	Disk      Disk              `json:"disk"`
	Process   Process           `json:"process"`
	Replicas  []gtmgate.Replica `json:"replicas"`
	// APIVersions is the standing of each provider API version in use.
	APIVersions []apiversion.Status `json:"api_versions"`
	// MCPServers are the tenants' upstream MCP servers as discovery last
	// found them; an unreachable one degrades the status.
	MCPServers []MCPServer `json:"mcp_servers"`
	// Errors are the parts that could not be read, with why.
	Errors map[string]string `json:"errors,omitempty"`
}

// Store is the store's reachability.
type Store struct {
	Backend          string  `json:"backend"`
	Reachable        bool    `json:"reachable"`
	LatencyMS        float64 `json:"latency_ms"`
	MigrationVersion int     `json:"migration_version"`
	Error            string  `json:"error,omitempty"`
}

// Audit is the journal's backlog: calls acknowledged but not yet in the store.
type Audit struct {
	Backlog uint64 `json:"backlog"`
	Durable bool   `json:"durable"`
	Error   string `json:"error,omitempty"`
}

// Provider is one provider's calls over the last 15 minutes.
type Provider struct {
	Provider  string  `json:"provider"`
	Calls     int     `json:"calls"`
	Errors    int     `json:"errors"`
	ErrorRate float64 `json:"error_rate"`
	P95MS     float64 `json:"upstream_p95_ms"`
}

// Accounts lists provider accounts needing attention.
type Accounts struct {
	NeedsReauth []Account `json:"needs_reauth"`
	Expiring    []Account `json:"expiring_within_24h"`
	// Reconnect are the accounts whose owner must connect them again
	// (package reauth): refused refreshes, and tokens that cannot be
	// refreshed expiring within GTMGATE_REAUTH_WARN_BEFORE or expired.
	// An expired one degrades the status (a refused one already does,
	// through NeedsReauth); one still working until its expiry does not.
	Reconnect      []reauth.Account `json:"reconnect"`
	ReconnectCount int              `json:"reconnect_count"`
}

// Account is one provider account.
type Account struct {
	TenantID  string     `json:"tenant_id"`
	Provider  string     `json:"provider"`
	AccountID string     `json:"account_id"`
	ExpiresAt *time.Time `json:"expires_at,omitempty"`
	LastError string     `json:"last_error,omitempty"`
}

// Schedules is how late the latest schedule ticks this replica fired ran.
type Schedules struct {
	RecentTicks    []ScheduleTick `json:"recent_ticks"`
	MaxLateSeconds float64        `json:"max_late_seconds"`
}

// ScheduleTick is one tick's lateness: when its run was created after
// the tick's time.
type ScheduleTick struct {
	JobID         string    `json:"job_id"`
	Tick          time.Time `json:"tick"`
	LateBySeconds float64   `json:"late_by_seconds"`
}

// Grading is the grading backlog (quality.Backlog).
type Grading struct {
	Waiting       int64            `json:"waiting"`
	MaxWaiting    int64            `json:"max_waiting"`
	RetryBuffered int              `json:"retry_buffered"`
	Dropped       map[string]int64 `json:"dropped"`
}

// Webhooks is the alert webhook's delivery queue.
type Webhooks struct {
	Backlog int64 `json:"backlog"`
	Failed  int64 `json:"failed"`
}

// Judges is the jury's failure rate over the last hour.
type Judges struct {
	Verdicts    int     `json:"verdicts"`
	Failed      int     `json:"failed"`
	FailureRate float64 `json:"failure_rate"`
}

// Count is a number of open things.
type Count struct {
	Open int `json:"open"`
}

// Disk is the data directory's file system.
type Disk struct {
	Path       string  `json:"path"`
	FreeBytes  uint64  `json:"free_bytes"`
	TotalBytes uint64  `json:"total_bytes"`
	FreeRatio  float64 `json:"free_ratio"`
	Error      string  `json:"error,omitempty"`
}

// Process is this replica's process.
type Process struct {
	ResidentBytes uint64  `json:"resident_bytes"`
	HeapBytes     uint64  `json:"heap_bytes"`
	Goroutines    int     `json:"goroutines"`
	UptimeSeconds float64 `json:"uptime_seconds"`
}

// MCPServer is one tenant's upstream MCP server as its last check found it.
type MCPServer struct {
	TenantID string `json:"tenant_id"`
	Name     string `json:"name"`
	// Host is the host of the server's URL, never its path or query (some
	// servers' URLs hold a key).
	Host             string     `json:"host"`
	Reachable        bool       `json:"reachable"`
	LatencyMS        float64    `json:"latency_ms"`
	CheckedAt        *time.Time `json:"checked_at,omitempty"`
	ToolsRefreshedAt *time.Time `json:"tools_refreshed_at,omitempty"`
	// ServedTools is how many of its tools the tenant's agents can call.
	ServedTools int    `json:"served_tools"`
	Error       string `json:"error,omitempty"`
	// NotConnected: an OAuth server no one has connected yet, or whose
	// grant lapsed; not counted unreachable (accounts.reconnect lists a
	// lapsed grant).
	NotConnected bool `json:"not_connected,omitempty"`
}

// Sources are what a snapshot reads.
type Sources struct {
	Store   gtmgate.Store
	Backend string
	// Jobs reports the job queues (nil: not reported).
	Jobs func(ctx context.Context, now time.Time) ([]jobs.QueueStat, error)
	// Audit reports the journal: its backlog and whether records are durable.
	Audit interface {
		Check() error
		Backlog() uint64
	}
	// ProviderOf maps a tool to its provider ("" for built-in tools).
	ProviderOf func(tool string) string
	DataDir    string
	Started    time.Time
	Now        func() time.Time
	// WebhookKind is the job kind of alert deliveries.
	WebhookKind string
	// APIVersions grades the configured provider API versions (nil: not reported).
	APIVersions func(now time.Time) []apiversion.Status
	// ScheduleTicks are the latest ticks this replica fired (nil: none).
	ScheduleTicks func() []ScheduleTick
	// Grading reports the grading backlog (nil: grading off).
	Grading func() *Grading
	// Reauth lists the accounts to connect again, all tenants (nil: not reported).
	Reauth func(ctx context.Context, tenantID string) ([]reauth.Account, error)
	// MCPServers lists every tenant's upstream MCP servers (nil: not
	// reported); mcpservers.Health builds it.
	MCPServers func(ctx context.Context) ([]MCPServer, error)
}

// Take gathers a snapshot. A part that cannot be read is reported with its
// error and degrades the status; an unreachable store makes it down.
// Reasons hold counts and component names only, never a tenant's data or an
// error's text, so /health can show them.
func Take(ctx context.Context, src Sources) *Report {
	now := src.Now()
	r := &Report{ID: "hs_" + strconv.FormatInt(now.UnixNano(), 36), TakenAt: now.UTC(), Reasons: []string{},
		Jobs: []jobs.QueueStat{}, Queues: []jobs.QueueWait{}, Providers: []Provider{}, Replicas: []gtmgate.Replica{}, APIVersions: []apiversion.Status{},
		MCPServers: []MCPServer{}, Accounts: Accounts{NeedsReauth: []Account{}, Expiring: []Account{}, Reconnect: []reauth.Account{}}}
	r.Status = StatusOK
	degrade := func(format string, args ...any) {
		r.Reasons = append(r.Reasons, fmt.Sprintf(format, args...))
		if r.Status == StatusOK {
			r.Status = StatusDegraded
		}
	}
	r.process(src, now)
	r.apiVersions(src, now, degrade)
	r.disk(src, degrade)
	r.audit(src, degrade)
	if !r.store(ctx, src) {
		r.Status = StatusDown
		r.Reasons = append(r.Reasons, "the store is unreachable")
		return r
	}
	if r.Store.LatencyMS > float64(slowStore.Milliseconds()) {
		degrade("the store answers slowly (%.0f ms)", r.Store.LatencyMS)
	}
	r.jobs(ctx, src, now, degrade)
	r.schedules(src, degrade)
	if src.Grading != nil {
		r.Grading = src.Grading()
	}
	r.providers(ctx, src, now, degrade)
	r.accounts(ctx, src, now, degrade)
	r.judges(ctx, src, now, degrade)
	r.counts(ctx, src, now, degrade)
	r.mcpServers(ctx, src, degrade)
	if reps, err := src.Store.ListReplicas(ctx, now.Add(-heartbeatLiveAfter)); err == nil {
		r.Replicas = reps
	}
	return r
}

// fail records a part that could not be read: the reason says which (it is
// shown by the unauthenticated /health), Errors says why.
func (r *Report) fail(part string, err error, degrade func(string, ...any), reason string) {
	if r.Errors == nil {
		r.Errors = map[string]string{}
	}
	r.Errors[part] = err.Error()
	degrade("%s", reason)
}

func (r *Report) process(src Sources, now time.Time) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	r.Process = Process{ResidentBytes: residentBytes(), HeapBytes: ms.HeapAlloc, Goroutines: runtime.NumGoroutine(),
		UptimeSeconds: now.Sub(src.Started).Seconds()}
}

// residentBytes reads VmRSS from /proc (0 where there is none).
func residentBytes() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb * 1024
		}
	}
	return 0
}

// apiVersions reports every provider's version. One within 90 days of its
// sunset adds a reason and leaves the status as it is (nothing fails yet);
// one past its sunset degrades it, since its provider's calls now fail.
func (r *Report) apiVersions(src Sources, now time.Time, degrade func(string, ...any)) {
	if src.APIVersions == nil {
		return
	}
	r.APIVersions = src.APIVersions(now)
	for _, s := range apiversion.NeedAttention(r.APIVersions) {
		if s.Level == apiversion.LevelSunset {
			degrade("%s", s.Message)
			continue
		}
		r.Reasons = append(r.Reasons, s.Message)
	}
}

func (r *Report) disk(src Sources, degrade func(string, ...any)) {
	r.Disk.Path = src.DataDir
	if src.DataDir == "" {
		return
	}
	free, total, err := diskspace.Usage(src.DataDir)
	if err != nil {
		r.Disk.Error = err.Error()
		return
	}
	r.Disk.FreeBytes, r.Disk.TotalBytes = free, total
	if total > 0 {
		r.Disk.FreeRatio = float64(free) / float64(total)
		if r.Disk.FreeRatio < lowDiskFraction {
			degrade("the data directory's disk is %.0f%% free", r.Disk.FreeRatio*100)
		}
	}
}

func (r *Report) audit(src Sources, degrade func(string, ...any)) {
	if src.Audit == nil {
		r.Audit.Durable = true
		return
	}
	r.Audit.Backlog = src.Audit.Backlog()
	r.Audit.Durable = true
	if err := src.Audit.Check(); err != nil {
		r.Audit.Durable, r.Audit.Error = false, err.Error()
		degrade("audit records cannot be made durable; calls are refused")
	}
	if r.Audit.Backlog > journalBacklog {
		degrade("%d audited calls wait in the journal for the store", r.Audit.Backlog)
	}
}

func (r *Report) store(ctx context.Context, src Sources) bool {
	r.Store.Backend = src.Backend
	pctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	start := time.Now()
	err := src.Store.Ping(pctx)
	r.Store.LatencyMS = float64(time.Since(start).Microseconds()) / 1000
	if err != nil {
		r.Store.Error = err.Error()
		return false
	}
	r.Store.Reachable = true
	if v, err := src.Store.MigrationVersion(ctx); err == nil {
		r.Store.MigrationVersion = v
	}
	return true
}

func (r *Report) jobs(ctx context.Context, src Sources, now time.Time, degrade func(string, ...any)) {
	if src.Jobs == nil {
		return
	}
	stats, err := src.Jobs(ctx, now)
	if err != nil {
		r.fail("jobs", err, degrade, "the job queues cannot be read")
		return
	}
	r.Jobs = stats
	r.Queues = jobs.ByQueue(stats)
	for _, s := range stats {
		// Each queue has its own threshold (jobs.WaitThresholds).
		if limit := jobs.WaitThreshold(s.Queue); s.OldestAvailableSeconds > limit.Seconds() {
			degrade("%s jobs wait unworked (the oldest for %s; the %s queue's threshold is %s)", s.Kind,
				time.Duration(s.OldestAvailableSeconds*float64(time.Second)).Round(time.Second), s.Queue, limit)
		}
		if s.Kind == src.WebhookKind {
			r.Webhooks = Webhooks{Backlog: s.Available + s.Retryable, Failed: s.Discarded}
		}
	}
	if r.Webhooks.Backlog > webhookBacklog {
		degrade("%d alert webhook deliveries are waiting", r.Webhooks.Backlog)
	}
	if r.Webhooks.Failed > 0 {
		degrade("%d alert webhook deliveries failed for good this week", r.Webhooks.Failed)
	}
}

// lateTick is the lateness of a recent schedule tick past which the
// status degrades (ticks are looked for every 10 s, so up to about 11 s is
// normal).
const lateTick = time.Minute

func (r *Report) schedules(src Sources, degrade func(string, ...any)) {
	r.Schedules.RecentTicks = []ScheduleTick{}
	if src.ScheduleTicks == nil {
		return
	}
	r.Schedules.RecentTicks = src.ScheduleTicks()
	for _, t := range r.Schedules.RecentTicks {
		r.Schedules.MaxLateSeconds = max(r.Schedules.MaxLateSeconds, t.LateBySeconds)
	}
	if r.Schedules.MaxLateSeconds > lateTick.Seconds() {
		degrade("a recent schedule tick ran %s late", (time.Duration(r.Schedules.MaxLateSeconds) * time.Second).Round(time.Second))
	}
}

func (r *Report) providers(ctx context.Context, src Sources, now time.Time, degrade func(string, ...any)) {
	events, err := src.Store.RecentUsage(ctx, now.Add(-providerWindow), recentUsageLimit)
	if err != nil {
		r.fail("providers", err, degrade, "provider calls cannot be read")
		return
	}
	latencies := map[string][]float64{}
	byProvider := map[string]*Provider{}
	for _, e := range events {
		p := ""
		if src.ProviderOf != nil {
			p = src.ProviderOf(e.Tool)
		}
		if p == "" {
			continue
		}
		s := byProvider[p]
		if s == nil {
			s = &Provider{Provider: p}
			byProvider[p] = s
		}
		s.Calls++
		if !e.OK {
			s.Errors++
		}
		latencies[p] = append(latencies[p], e.UpstreamMS)
	}
	for p, s := range byProvider {
		l := latencies[p]
		sort.Float64s(l)
		s.P95MS = l[min(len(l)-1, int(0.95*float64(len(l))))]
		s.ErrorRate = float64(s.Errors) / float64(s.Calls)
		r.Providers = append(r.Providers, *s)
		if s.Calls >= providerMinCalls && s.ErrorRate > providerErrorRate {
			degrade("%s calls fail at %.0f%% over the last 15 minutes", p, s.ErrorRate*100)
		}
	}
	slices.SortFunc(r.Providers, func(a, b Provider) int { return strings.Compare(a.Provider, b.Provider) })
}

func (r *Report) accounts(ctx context.Context, src Sources, now time.Time, degrade func(string, ...any)) {
	list, err := src.Store.ListProviderOAuth(ctx, "")
	if err != nil {
		r.fail("accounts", err, degrade, "provider accounts cannot be read")
		return
	}
	for _, o := range list {
		a := Account{TenantID: o.TenantID, Provider: o.Provider, AccountID: o.AccountID, LastError: o.LastError}
		if o.NeedsReauth {
			r.Accounts.NeedsReauth = append(r.Accounts.NeedsReauth, a)
			continue
		}
		t, err := src.Store.GetProviderToken(ctx, o.TenantID, o.Provider, o.AccountID)
		if err == nil && !t.ExpiresAt.IsZero() && t.ExpiresAt.Before(now.Add(expiringWithin)) && o.LastError != "" {
			// A token that refreshes normally expires every hour; only one
			// whose refreshes fail is about to lapse.
			exp := t.ExpiresAt
			a.ExpiresAt = &exp
			r.Accounts.Expiring = append(r.Accounts.Expiring, a)
		}
	}
	if n := len(r.Accounts.NeedsReauth); n > 0 {
		degrade("%d provider account(s) need re-authorisation", n)
	}
	if n := len(r.Accounts.Expiring); n > 0 {
		degrade("%d provider account token(s) expire within 24 hours and fail to refresh", n)
	}
	r.reconnect(ctx, src, degrade)
}

// reconnect lists the accounts to connect again; an expired token that
// cannot be refreshed degrades the status.
func (r *Report) reconnect(ctx context.Context, src Sources, degrade func(string, ...any)) {
	if src.Reauth == nil {
		return
	}
	list, err := src.Reauth(ctx, "")
	if err != nil {
		r.fail("reauth", err, degrade, "accounts to connect again cannot be read")
		return
	}
	expired := 0
	for _, a := range list {
		if a.Kind == reauth.KindExpired {
			expired++
		}
	}
	r.Accounts.Reconnect = append(r.Accounts.Reconnect, list...)
	r.Accounts.ReconnectCount = len(list)
	if expired > 0 {
		degrade("%d provider account token(s) expired and cannot be refreshed: connect them again", expired)
	}
}

func (r *Report) judges(ctx context.Context, src Sources, now time.Time, degrade func(string, ...any)) {
	verdicts, err := src.Store.ListVerdicts(ctx, gtmgate.VerdictFilter{Since: now.Add(-judgeWindow), Limit: listLimit})
	if err != nil {
		r.fail("judges", err, degrade, "verdicts cannot be read")
		return
	}
	for _, v := range verdicts {
		for _, j := range v.Judges {
			r.Judges.Verdicts++
			if j.Error != "" {
				r.Judges.Failed++
			}
		}
	}
	if r.Judges.Verdicts > 0 {
		r.Judges.FailureRate = float64(r.Judges.Failed) / float64(r.Judges.Verdicts)
	}
	if r.Judges.Verdicts >= judgeMinVerdicts && r.Judges.FailureRate > judgeFailureRate {
		degrade("judges fail %.0f%% of their verdicts over the last hour", r.Judges.FailureRate*100)
	}
}

func (r *Report) counts(ctx context.Context, src Sources, now time.Time, degrade func(string, ...any)) {
	if open, err := src.Store.ListLedger(ctx, gtmgate.LedgerFilter{Kind: gtmgate.LedgerIncident, Status: gtmgate.IncidentOpen, Limit: listLimit}); err == nil {
		r.Incidents.Open = len(open)
		if len(open) > 0 {
			degrade("%d quality incident(s) open", len(open))
		}
	}
	if pending, err := src.Store.ListApprovals(ctx, gtmgate.ApprovalFilter{Status: gtmgate.ApprovalPending, AsOf: now, Limit: listLimit}); err == nil {
		r.Approvals.Open = len(pending)
	}
}

// mcpServers reports the upstream MCP servers. One whose last check failed
// degrades the status (its tools fail; the gateway still serves the rest);
// the reason counts them, naming none, since /health shows reasons without
// authentication: mcp_servers names each with its error.
func (r *Report) mcpServers(ctx context.Context, src Sources, degrade func(string, ...any)) {
	if src.MCPServers == nil {
		return
	}
	list, err := src.MCPServers(ctx)
	if err != nil {
		r.fail("mcp_servers", err, degrade, "upstream MCP servers cannot be read")
		return
	}
	unreachable := 0
	for _, s := range list {
		if s.CheckedAt != nil && !s.Reachable && !s.NotConnected {
			unreachable++
		}
	}
	r.MCPServers = append(r.MCPServers, list...)
	if unreachable > 0 {
		degrade("%d upstream MCP server(s) unreachable: their tools fail until they answer (see mcp_servers)", unreachable)
	}
}
