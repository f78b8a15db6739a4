// Package config is gtmgate's typed configuration: defaults, then environment
// variables (and *_FILE variants for secrets), then flags; validated as a
// whole so bad configuration stops start-up with one line naming the setting.
package config

import (
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gtmgate/gtmgate/content"
	"github.com/gtmgate/gtmgate/egress"
	"github.com/gtmgate/gtmgate/mcpupstream"
)

// Off disables a listener when given as its address.
const Off = "off"

// Config is the whole configuration of one gtmgate process.
type Config struct {
	SiteAddr    string
	GatewayAddr string
	DocsAddr    string
	// DebugAddr serves Go's pprof profiles; off unless set.
	DebugAddr  string
	SiteURL    string
	GatewayURL string
	DocsURL    string
	// OperatorName names the gateway's operator on the connect pages an
	// account owner sees ("<Operator> asks to connect your Google Ads
	// account"); OperatorLogoURL, when set, is its logo there: an https
	// URL or a path the gateway serves.
	OperatorName    string
	OperatorLogoURL string

	DataDir     string
	DatabaseURL string
	// EncryptionKey is the AES-256 key (hex or base64); generated into DataDir when empty.
	EncryptionKey string
	// AdminKeyHash is the SHA-256 hex of the admin key; generated when empty.
	AdminKeyHash string

	LogFormat string
	LogLevel  string

	MaxBodyBytes    int64
	UpstreamTimeout time.Duration
	// ReadTimeout bounds reading one request, headers and body, on every
	// listener: a client that stalls mid-body is cut off after it.
	ReadTimeout     time.Duration
	ShutdownTimeout time.Duration
	ApprovalTTL     time.Duration
	// ReauthWarnBefore is how long before an unrefreshable provider token
	// expires its account is named as needing re-authorisation.
	ReauthWarnBefore time.Duration
	// MCPUpstreamAllow are the non-public address ranges tenants' upstream
	// MCP servers may be reached at (GTMGATE_MCP_UPSTREAM_ALLOW): an
	// in-house server on the operator's network must be allowed explicitly.
	MCPUpstreamAllow []netip.Prefix
	// MCPUpstreamProtocol is the MCP revision proposed to upstream MCP
	// servers (GTMGATE_MCP_UPSTREAM_PROTOCOL): a revision the go-sdk
	// supports, or "latest" for its newest.
	MCPUpstreamProtocol string
	// MCPRefreshEvery is how often each upstream MCP server's tool list is
	// listed again (and its reachability checked).
	MCPRefreshEvery time.Duration
	// Upstreams overrides provider base URLs by provider key.
	Upstreams map[string]string
	// APIVersions overrides provider API versions by provider key; a provider
	// not listed uses its catalogue default (see APIVersion).
	APIVersions             map[string]string
	GoogleAdsDeveloperToken string
	WebFetchAllowLoopback   bool
	// AllowInsecureTokenEndpoint lets seeded OAuth token endpoints be http on
	// loopback (tests and local sandboxes only).
	AllowInsecureTokenEndpoint bool

	ModelGatewayURL    string
	ModelGatewayAPIKey string

	// GraderSampleRate is the base share of finished tool calls graded (0..1).
	GraderSampleRate float64
	// GraderMaxWaiting bounds the grading jobs waiting; past it new samples
	// are shed (degraded paths' up to a quarter more). 0: no bound.
	GraderMaxWaiting int64
	// JudgeModels are the models of judges Alpha, Beta and Gamma.
	JudgeAlphaModel, JudgeBetaModel, JudgeGammaModel string
	// JudgeTimeout bounds one judge's answer on one trace, its corrective
	// retry and the model gateway client's own retries included.
	JudgeTimeout time.Duration
	// JudgeAllowSameModel accepts two judges on one model.
	JudgeAllowSameModel bool
	// AlertWebhookURL receives quality alerts and incidents, signed with AlertWebhookSecret.
	AlertWebhookURL    string
	AlertWebhookSecret string
	// JobWorkers, when set (above 0), is the workers of every job queue
	// whose own setting is unset. Before the queues were split it was the
	// workers of the one queue.
	JobWorkers int64
	// JobWorkersGrading, …Agents, …Schedules, …Webhooks and …Maintenance
	// are how many jobs of each queue one process works at once (0: the
	// queue's default, jobs.DefaultWorkers).
	JobWorkersGrading, JobWorkersAgents, JobWorkersSchedules, JobWorkersWebhooks, JobWorkersMaintenance int64
	// TenantRunsInFlight, TenantRunsQueued, TenantSchedules and
	// TenantStepsPerMinute are the gateway's tenant limits (a tenant's own
	// limits override them field by field).
	TenantRunsInFlight, TenantRunsQueued, TenantSchedules, TenantStepsPerMinute int64
	// JobRescueAfter is how long a job left running by a stopped process
	// waits before another process runs it again.
	JobRescueAfter time.Duration

	// AgentModel is the model of agent runs that name none.
	AgentModel string
	// AgentStepTimeout bounds one agent step (a model turn or a tool call).
	AgentStepTimeout time.Duration
	// ScheduleCatchUp is the oldest a missed schedule tick may be and still run.
	ScheduleCatchUp time.Duration
	// DailyBriefTime is HH:MM (or "off"), read in DailyBriefTimezone.
	DailyBriefTime     string
	DailyBriefTimezone string
	DailyBriefModel    string

	// AllowedOrigins may call /mcp from a browser, besides the gateway's own origin.
	AllowedOrigins []string
	// TrustedProxies are reverse proxies (addresses or CIDR ranges) whose
	// X-Forwarded-For/Forwarded headers name the client, for per-address limits.
	TrustedProxies []string
	// ChatMaxStreams bounds concurrent streamed chat responses in total, and
	// ChatMaxStreamsPerTenant per tenant; past either the call answers 429.
	ChatMaxStreams          int64
	ChatMaxStreamsPerTenant int64

	// AuditJournal acknowledges calls once their audit records are in the
	// local journal under DataDir rather than committed to the store.
	AuditJournal bool

	// Retention is how long each kind of record is kept.
	Retention Retention

	Demo        bool
	SiteContent string
	DocsContent string
	Watch       bool
	// ContentSignal is the site's content usage signal
	// (GTMGATE_CONTENT_SIGNAL); the zero value permits search, AI input and
	// AI training. The docs host keeps that default.
	ContentSignal content.Signal

	// Check asks serve to load and validate the configuration and exit
	// without serving (serve --check). It is a mode, not a setting: it has
	// no environment variable.
	Check bool
}

// Default returns the embedded defaults.
func Default() Config {
	return Config{
		SiteAddr:       "127.0.0.1:8080",
		GatewayAddr:    "127.0.0.1:8081",
		DocsAddr:       "127.0.0.1:8082",
		DebugAddr:      Off,
		DataDir:        "./data",
		OperatorName:   "gtmgate",
		AuditJournal:   true,
		LogFormat:      "text",
		LogLevel:       "info",
		MaxBodyBytes:   1 << 20,
		ChatMaxStreams: 256, ChatMaxStreamsPerTenant: 32,
		UpstreamTimeout:     15 * time.Second,
		ReadTimeout:         30 * time.Second,
		ShutdownTimeout:     15 * time.Second,
		ApprovalTTL:         24 * time.Hour,
		ReauthWarnBefore:    7 * 24 * time.Hour,
		MCPRefreshEvery:     5 * time.Minute,
		MCPUpstreamProtocol: mcpupstream.DefaultProtocolVersion,
		Upstreams:           map[string]string{},
		APIVersions:         map[string]string{},
		GraderSampleRate:    0.1,
		GraderMaxWaiting:    10_000,
		JobRescueAfter:      5 * time.Minute,
		JudgeTimeout:        90 * time.Second,
		AgentStepTimeout:    2 * time.Minute,
		ScheduleCatchUp:     time.Hour,
		DailyBriefTime:      "07:00",
		DailyBriefTimezone:  "UTC",
		Retention:           defaultRetention(),
	}
}

// Enabled reports whether a listener address is on.
func Enabled(addr string) bool { return addr != "" && addr != Off }

// Validate checks every setting and fills derived defaults (public URLs from
// listen addresses). Its error names the setting.
func (c *Config) Validate() error {
	if err := c.validateTenantLimits(); err != nil {
		return err
	}
	for _, a := range []struct{ name, v string }{{"GTMGATE_SITE_ADDR", c.SiteAddr}, {"GTMGATE_GATEWAY_ADDR", c.GatewayAddr}, {"GTMGATE_DOCS_ADDR", c.DocsAddr}, {"GTMGATE_DEBUG_ADDR", c.DebugAddr}} {
		if !Enabled(a.v) {
			continue
		}
		if _, _, err := net.SplitHostPort(a.v); err != nil {
			return fmt.Errorf("%s: %q is not host:port (or %q to disable)", a.name, a.v, Off)
		}
	}
	if !Enabled(c.SiteAddr) && !Enabled(c.GatewayAddr) && !Enabled(c.DocsAddr) {
		return fmt.Errorf("GTMGATE_SITE_ADDR, GTMGATE_GATEWAY_ADDR, GTMGATE_DOCS_ADDR: all listeners are off")
	}
	for _, u := range []struct {
		name string
		v    *string
		addr string
	}{{"SITE_URL", &c.SiteURL, c.SiteAddr}, {"GATEWAY_URL", &c.GatewayURL, c.GatewayAddr}, {"DOCS_URL", &c.DocsURL, c.DocsAddr}} {
		if *u.v == "" {
			if Enabled(u.addr) {
				*u.v = "http://" + u.addr
			}
			continue
		}
		if err := checkURL(*u.v); err != nil {
			return fmt.Errorf("%s: %w", u.name, err)
		}
		*u.v = strings.TrimRight(*u.v, "/")
	}
	if err := c.validateOperator(); err != nil {
		return err
	}
	if c.DataDir == "" {
		return fmt.Errorf("GTMGATE_DATA_DIR: must not be empty")
	}
	if c.DatabaseURL != "" && !strings.HasPrefix(c.DatabaseURL, "postgres://") && !strings.HasPrefix(c.DatabaseURL, "postgresql://") {
		return fmt.Errorf("DATABASE_URL: must start with postgres:// (leave it unset for the embedded SQLite store)")
	}
	if c.AdminKeyHash != "" && !isHex64(c.AdminKeyHash) {
		return fmt.Errorf("ADMIN_API_KEY: must be the SHA-256 of the admin key as 64 hex characters, not the key itself")
	}
	switch c.LogFormat {
	case "text", "json":
	default:
		return fmt.Errorf("GTMGATE_LOG_FORMAT: %q is not text or json", c.LogFormat)
	}
	switch strings.ToLower(c.LogLevel) {
	case "debug", "info", "warn", "error":
	default:
		return fmt.Errorf("GTMGATE_LOG_LEVEL: %q is not debug, info, warn or error", c.LogLevel)
	}
	if c.MaxBodyBytes < 1024 || c.MaxBodyBytes > 64<<20 {
		return fmt.Errorf("GTMGATE_MAX_BODY_BYTES: %d is outside 1024..67108864", c.MaxBodyBytes)
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"GTMGATE_UPSTREAM_TIMEOUT", c.UpstreamTimeout}, {"GTMGATE_READ_TIMEOUT", c.ReadTimeout}, {"GTMGATE_SHUTDOWN_TIMEOUT", c.ShutdownTimeout}, {"GTMGATE_APPROVAL_TTL", c.ApprovalTTL}, {"GTMGATE_REAUTH_WARN_BEFORE", c.ReauthWarnBefore}, {"GTMGATE_MCP_REFRESH_EVERY", c.MCPRefreshEvery}, {"GTMGATE_JOB_RESCUE_AFTER", c.JobRescueAfter}, {"JUDGE_TIMEOUT", c.JudgeTimeout},
		{"AGENT_STEP_TIMEOUT", c.AgentStepTimeout}, {"SCHEDULE_CATCH_UP", c.ScheduleCatchUp}} {
		if d.v <= 0 {
			return fmt.Errorf("%s: must be a positive duration such as 15s", d.name)
		}
	}
	for p, u := range c.Upstreams {
		if err := checkURL(u); err != nil {
			return fmt.Errorf("%s: %w", UpstreamEnv(p), err)
		}
	}
	if err := c.validateAPIVersions(); err != nil {
		return err
	}
	if c.ModelGatewayURL != "" {
		if err := checkURL(c.ModelGatewayURL); err != nil {
			return fmt.Errorf("MODEL_GATEWAY_URL: %w", err)
		}
	}
	if err := c.validateQuality(); err != nil {
		return err
	}
	if !mcpupstream.ValidProtocolVersion(c.MCPUpstreamProtocol) {
		return fmt.Errorf("GTMGATE_MCP_UPSTREAM_PROTOCOL: %q is not an MCP revision gtmgate speaks; give %s or one of %s",
			c.MCPUpstreamProtocol, mcpupstream.LatestProtocolVersion, strings.Join(mcp.SupportedProtocolVersions(), ", "))
	}
	if err := c.Retention.validate(); err != nil {
		return err
	}
	if _, _, err := c.DailyBrief(); err != nil {
		return err
	}
	for _, p := range c.TrustedProxies {
		if !validAddrOrPrefix(strings.TrimSpace(p)) {
			return fmt.Errorf("GTMGATE_TRUSTED_PROXIES: %q is neither an IP address nor a CIDR range", p)
		}
	}
	if c.ChatMaxStreams < 1 || c.ChatMaxStreamsPerTenant < 1 || c.ChatMaxStreamsPerTenant > c.ChatMaxStreams {
		return fmt.Errorf("GTMGATE_CHAT_MAX_STREAMS_PER_TENANT: %d must be between 1 and GTMGATE_CHAT_MAX_STREAMS (%d)", c.ChatMaxStreamsPerTenant, c.ChatMaxStreams)
	}
	for _, o := range c.AllowedOrigins {
		if err := checkURL(o); err != nil {
			return fmt.Errorf("GTMGATE_ALLOWED_ORIGINS: %w", err)
		}
	}
	return nil
}

// UpstreamEnv is the environment variable overriding a provider's base URL.
func UpstreamEnv(provider string) string {
	return "GTMGATE_UPSTREAM_" + strings.ToUpper(provider)
}

func checkURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q is not an absolute http(s) URL", s)
	}
	return nil
}

// validateOperator checks the operator's name and logo, which every
// account owner opening a connect link sees.
func (c *Config) validateOperator() error {
	c.OperatorName = strings.TrimSpace(c.OperatorName)
	if c.OperatorName == "" || utf8.RuneCountInString(c.OperatorName) > 80 || strings.ContainsFunc(c.OperatorName, unicode.IsControl) {
		return fmt.Errorf("GTMGATE_OPERATOR_NAME: %q must be 1 to 80 characters on one line", c.OperatorName)
	}
	if c.OperatorLogoURL == "" {
		return nil
	}
	u, err := url.Parse(c.OperatorLogoURL)
	switch {
	case err != nil || strings.ContainsAny(c.OperatorLogoURL, " ;'\"\\"):
		// Refused below: these would break the pages' CSP img-src.
	case u.Scheme == "https" && u.Host != "" && u.User == nil:
		return nil
	case u.Scheme == "" && u.Host == "" && strings.HasPrefix(u.Path, "/") && !strings.HasPrefix(c.OperatorLogoURL, "//"):
		return nil
	}
	return fmt.Errorf("GTMGATE_OPERATOR_LOGO_URL: %q is neither an https URL nor a path the gateway serves (/…)", c.OperatorLogoURL)
}

func isHex64(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func validAddrOrPrefix(s string) bool {
	if _, err := netip.ParsePrefix(s); err == nil {
		return true
	}
	_, err := netip.ParseAddr(s)
	return err == nil
}

// validateQuality checks the quality harness's settings.
func (c *Config) validateQuality() error {
	if c.GraderSampleRate < 0 || c.GraderSampleRate > 1 || c.GraderSampleRate != c.GraderSampleRate {
		return fmt.Errorf("GRADER_SAMPLE_RATE: %v is outside 0.0 to 1.0", c.GraderSampleRate)
	}
	if c.GraderMaxWaiting < 0 {
		return fmt.Errorf("GRADER_MAX_WAITING: %d is negative (0 means no bound)", c.GraderMaxWaiting)
	}
	if !c.JudgeAllowSameModel {
		judges := []struct{ name, model string }{{"JUDGE_ALPHA_MODEL", c.JudgeAlphaModel}, {"JUDGE_BETA_MODEL", c.JudgeBetaModel}, {"JUDGE_GAMMA_MODEL", c.JudgeGammaModel}}
		for i, a := range judges {
			for _, b := range judges[i+1:] {
				if a.model != "" && strings.EqualFold(a.model, b.model) {
					return fmt.Errorf("%s: %q is also %s; the three judges must be different models (set JUDGE_ALLOW_SAME_MODEL=true to accept it)", b.name, b.model, a.name)
				}
			}
		}
	}
	if c.AlertWebhookURL != "" {
		u, err := url.Parse(c.AlertWebhookURL)
		if err != nil || u.Host == "" || (u.Scheme != "https" && (u.Scheme != "http" || !egress.LoopbackHost(u.Hostname()))) {
			return fmt.Errorf("ALERT_WEBHOOK_URL: must be an https URL (http is accepted for loopback receivers only)")
		}
		if c.AlertWebhookSecret == "" {
			return fmt.Errorf("ALERT_WEBHOOK_SECRET: required when ALERT_WEBHOOK_URL is set (alerts are signed with it)")
		}
	}
	if c.JobWorkers < 0 || c.JobWorkers > 256 {
		return fmt.Errorf("GTMGATE_JOB_WORKERS: %d is outside 1..256", c.JobWorkers)
	}
	for _, w := range c.jobWorkerSettings() {
		if *w.dst < 0 || *w.dst > 256 {
			return fmt.Errorf("%s: %d is outside 1..256", w.Env, *w.dst)
		}
	}
	return nil
}

// DailyBrief returns the hour and minute of the daily brief ({-1, -1} when
// DAILY_BRIEF_TIME is off) and its time zone.
func (c *Config) DailyBrief() (at [2]int, loc *time.Location, err error) {
	loc, err = time.LoadLocation(c.DailyBriefTimezone)
	if err != nil || c.DailyBriefTimezone == "" || strings.EqualFold(c.DailyBriefTimezone, "local") {
		return at, nil, fmt.Errorf("DAILY_BRIEF_TIMEZONE: %q is not an IANA time zone name such as Europe/Berlin or UTC", c.DailyBriefTimezone)
	}
	if c.DailyBriefTime == Off {
		return [2]int{-1, -1}, loc, nil
	}
	t, err := time.Parse("15:04", c.DailyBriefTime)
	if err != nil {
		return at, nil, fmt.Errorf("DAILY_BRIEF_TIME: %q is not HH:MM (24-hour) or off", c.DailyBriefTime)
	}
	return [2]int{t.Hour(), t.Minute()}, loc, nil
}
