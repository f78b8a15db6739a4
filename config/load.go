package config

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/netip"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate/mcpupstream"
	"github.com/gtmgate/gtmgate/provider/apiversion"
)

// Setting documents one configuration setting for the README table.
type Setting struct {
	Env, Flag, Default, Meaning string
}

// Load fills a Config from defaults, the environment (as os.Environ gives it)
// and the command-line args.
func Load(args []string, environ []string) (Config, error) {
	c := Default()
	vars := make(map[string]string, len(environ))
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	env := envReader{getenv: func(k string) string { return vars[k] }}
	fs := flag.NewFlagSet("gtmgate serve", flag.ContinueOnError)
	// The flag package would print a bad flag's error and then every flag;
	// the error is returned with a hint instead, and the flags are listed
	// only when asked for (-h).
	fs.SetOutput(io.Discard)
	for _, s := range stringSettings(&c) {
		*s.dst = env.str(s.Env, *s.dst)
		if s.Flag != "" {
			fs.StringVar(s.dst, s.Flag, *s.dst, s.Meaning)
		}
	}
	durs := []struct {
		env, flag string
		dst       *time.Duration
		meaning   string
	}{
		{"GTMGATE_UPSTREAM_TIMEOUT", "upstream-timeout", &c.UpstreamTimeout, "time-out of one provider call"},
		{"GTMGATE_READ_TIMEOUT", "read-timeout", &c.ReadTimeout, readTimeoutMeaning},
		{"GTMGATE_SHUTDOWN_TIMEOUT", "shutdown-timeout", &c.ShutdownTimeout, "how long shutdown waits for in-flight requests"},
		{"GTMGATE_APPROVAL_TTL", "approval-ttl", &c.ApprovalTTL, "how long a pending approval gate lives"},
		{"GTMGATE_REAUTH_WARN_BEFORE", "reauth-warn-before", &c.ReauthWarnBefore, reauthWarnMeaning},
		{"GTMGATE_MCP_REFRESH_EVERY", "mcp-refresh-every", &c.MCPRefreshEvery, mcpRefreshMeaning},
		{"GTMGATE_JOB_RESCUE_AFTER", "job-rescue-after", &c.JobRescueAfter, jobRescueMeaning},
		{"JUDGE_TIMEOUT", "judge-timeout", &c.JudgeTimeout, judgeTimeoutMeaning},
		{"AGENT_STEP_TIMEOUT", "agent-step-timeout", &c.AgentStepTimeout, agentStepMeaning},
		{"SCHEDULE_CATCH_UP", "schedule-catch-up", &c.ScheduleCatchUp, catchUpMeaning},
	}
	for _, d := range durs {
		v, err := env.duration(d.env, *d.dst)
		if err != nil {
			return c, err
		}
		*d.dst = v
		fs.DurationVar(d.dst, d.flag, *d.dst, d.meaning)
	}
	maxBody, err := env.int64("GTMGATE_MAX_BODY_BYTES", c.MaxBodyBytes)
	if err != nil {
		return c, err
	}
	c.MaxBodyBytes = maxBody
	fs.Int64Var(&c.MaxBodyBytes, "max-body-bytes", c.MaxBodyBytes, "request body limit in bytes")
	if c.WebFetchAllowLoopback, err = env.bool("GTMGATE_WEBFETCH_ALLOW_LOOPBACK", false); err != nil {
		return c, err
	}
	if c.AllowInsecureTokenEndpoint, err = env.bool("GTMGATE_ALLOW_INSECURE_TOKEN_ENDPOINT", false); err != nil {
		return c, err
	}
	if c.Demo, err = env.bool("GTMGATE_DEMO", false); err != nil {
		return c, err
	}
	if c.Watch, err = env.bool("GTMGATE_WATCH", false); err != nil {
		return c, err
	}
	if c.AuditJournal, err = env.bool("GTMGATE_AUDIT_JOURNAL", c.AuditJournal); err != nil {
		return c, err
	}
	fs.BoolVar(&c.AuditJournal, "audit-journal", c.AuditJournal, auditJournalMeaning)
	fs.BoolVar(&c.Demo, "demo", c.Demo, "start sandbox upstreams and seed the demo tenant")
	fs.BoolVar(&c.Watch, "watch", c.Watch, "reload content trees when their files change")
	fs.BoolVar(&c.Check, "check", false, checkMeaning)
	if err := c.readContentSignal(&env, fs); err != nil {
		return c, err
	}
	if v := env.str("GTMGATE_ALLOWED_ORIGINS", ""); v != "" {
		c.AllowedOrigins = strings.Split(v, ",")
	}
	if v := env.str("GTMGATE_TRUSTED_PROXIES", ""); v != "" {
		c.TrustedProxies = strings.Split(v, ",")
	}
	if v := env.str("GTMGATE_MCP_UPSTREAM_ALLOW", ""); v != "" {
		for _, r := range strings.Split(v, ",") {
			p, err := parseRange(strings.TrimSpace(r))
			if err != nil {
				return c, fmt.Errorf("GTMGATE_MCP_UPSTREAM_ALLOW: %w", err)
			}
			c.MCPUpstreamAllow = append(c.MCPUpstreamAllow, p)
		}
	}
	if c.ChatMaxStreams, err = env.int64("GTMGATE_CHAT_MAX_STREAMS", c.ChatMaxStreams); err != nil {
		return c, err
	}
	if c.ChatMaxStreamsPerTenant, err = env.int64("GTMGATE_CHAT_MAX_STREAMS_PER_TENANT", c.ChatMaxStreamsPerTenant); err != nil {
		return c, err
	}
	if v := env.str("GRADER_SAMPLE_RATE", ""); v != "" {
		rate, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return c, fmt.Errorf("GRADER_SAMPLE_RATE: %q is not a number from 0.0 to 1.0", v)
		}
		c.GraderSampleRate = rate
	}
	fs.Float64Var(&c.GraderSampleRate, "grader-sample-rate", c.GraderSampleRate, graderSampleMeaning)
	if c.JudgeAllowSameModel, err = env.bool("JUDGE_ALLOW_SAME_MODEL", false); err != nil {
		return c, err
	}
	if c.GraderMaxWaiting, err = env.int64("GRADER_MAX_WAITING", c.GraderMaxWaiting); err != nil {
		return c, err
	}
	if c.JobWorkers, err = env.int64("GTMGATE_JOB_WORKERS", c.JobWorkers); err != nil {
		return c, err
	}
	for _, w := range c.jobWorkerSettings() {
		if *w.dst, err = env.int64(w.Env, c.JobWorkers); err != nil {
			return c, err
		}
	}
	if err := readRetention(&c.Retention, &env); err != nil {
		return c, err
	}
	if err := c.loadTenantLimits(&env); err != nil {
		return c, err
	}
	for _, p := range apiversion.All() {
		if v := strings.TrimSpace(env.str(p.Setting, "")); v != "" {
			c.APIVersions[p.Key] = v
		}
	}
	for k, v := range vars {
		if p, ok := strings.CutPrefix(k, "GTMGATE_UPSTREAM_"); ok && p != "TIMEOUT" && v != "" {
			c.Upstreams[strings.ToLower(p)] = v
		}
	}
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(os.Stderr)
		fmt.Fprintln(os.Stderr, "usage: gtmgate serve [flags]; every flag but -check has an environment variable (see the README's settings table)")
		fs.PrintDefaults()
		return c, err
	} else if err != nil {
		return c, flagError(fs, err)
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if err := env.err; err != nil {
		return c, err
	}
	return c, c.Validate()
}

type stringSetting struct {
	Setting
	dst *string
}

func stringSettings(c *Config) []stringSetting {
	return []stringSetting{
		{Setting{"GTMGATE_SITE_ADDR", "site-addr", "127.0.0.1:8080", "site listener address, or off"}, &c.SiteAddr},
		{Setting{"GTMGATE_GATEWAY_ADDR", "gateway-addr", "127.0.0.1:8081", "gateway listener address, or off"}, &c.GatewayAddr},
		{Setting{"GTMGATE_DOCS_ADDR", "docs-addr", "127.0.0.1:8082", "docs listener address, or off"}, &c.DocsAddr},
		{Setting{"GTMGATE_DEBUG_ADDR", "debug-addr", "off", "listener for Go's pprof profiles at /debug/pprof/ (no auth: bind it to loopback)"}, &c.DebugAddr},
		{Setting{"SITE_URL", "site-url", "http://<site addr>", "public base URL of the site"}, &c.SiteURL},
		{Setting{"GATEWAY_URL", "gateway-url", "http://<gateway addr>", "public base URL of the gateway"}, &c.GatewayURL},
		{Setting{"DOCS_URL", "docs-url", "http://<docs addr>", "public base URL of the docs host"}, &c.DocsURL},
		{Setting{"GTMGATE_OPERATOR_NAME", "operator-name", "gtmgate", "who the connect pages say asks for access (\"<name> asks to connect your Google Ads account\")"}, &c.OperatorName},
		{Setting{"GTMGATE_OPERATOR_LOGO_URL", "operator-logo-url", "(unset: no logo)", "operator's logo on the connect pages: an https URL, or a path the gateway serves"}, &c.OperatorLogoURL},
		{Setting{"GTMGATE_DATA_DIR", "data-dir", "./data", "SQLite database, generated keys"}, &c.DataDir},
		{Setting{"DATABASE_URL", "", "(unset: SQLite)", "PostgreSQL URL; replicas share it"}, &c.DatabaseURL},
		{Setting{"GTMGATE_ENCRYPTION_KEY", "", "(generated into the data dir)", "AES-256 key (64 hex chars or base64) for provider tokens and client secrets"}, &c.EncryptionKey},
		{Setting{"ADMIN_API_KEY", "", "(generated, printed once)", "SHA-256 hex of the admin key sent in x-admin-key"}, &c.AdminKeyHash},
		{Setting{"GTMGATE_MCP_UPSTREAM_PROTOCOL", "mcp-upstream-protocol", mcpupstream.DefaultProtocolVersion, mcpUpstreamProtocolMeaning}, &c.MCPUpstreamProtocol},
		{Setting{"GTMGATE_LOG_FORMAT", "log-format", "text", "text or json"}, &c.LogFormat},
		{Setting{"GTMGATE_LOG_LEVEL", "log-level", "info", "debug, info, warn or error"}, &c.LogLevel},
		{Setting{"GTMGATE_GOOGLE_ADS_DEVELOPER_TOKEN", "", "", "Google Ads API developer token"}, &c.GoogleAdsDeveloperToken},
		{Setting{"MODEL_GATEWAY_URL", "model-gateway-url", "", "OpenAI-compatible model gateway base URL (…/v1)"}, &c.ModelGatewayURL},
		{Setting{"MODEL_GATEWAY_API_KEY", "", "", "API key for the model gateway"}, &c.ModelGatewayAPIKey},
		{Setting{"JUDGE_ALPHA_MODEL", "", "(unset: grading off)", "model of judge Alpha, as the model gateway names it (sandbox-judge-alpha under --demo)"}, &c.JudgeAlphaModel},
		{Setting{"JUDGE_BETA_MODEL", "", "(unset: grading off)", "model of judge Beta; a different provider's than Alpha's"}, &c.JudgeBetaModel},
		{Setting{"JUDGE_GAMMA_MODEL", "", "(unset: grading off)", "model of judge Gamma; a third provider's"}, &c.JudgeGammaModel},
		{Setting{"ALERT_WEBHOOK_URL", "", "(unset: no alerts sent)", "where quality alerts and incidents are posted (https, or http to loopback)"}, &c.AlertWebhookURL},
		{Setting{"ALERT_WEBHOOK_SECRET", "", "", "Standard Webhooks signing secret (whsec_ + base64, or 16+ characters); required with ALERT_WEBHOOK_URL"}, &c.AlertWebhookSecret},
		{Setting{"AGENT_MODEL", "", "(unset; sandbox-chat under --demo)", "model agent runs use when run_agent names none (must be in a tenant's allowed_models when it lists them)"}, &c.AgentModel},
		{Setting{"DAILY_BRIEF_TIME", "", "07:00", "when the daily brief is written each day (HH:MM in DAILY_BRIEF_TIMEZONE), or off"}, &c.DailyBriefTime},
		{Setting{"DAILY_BRIEF_TIMEZONE", "", "UTC", "IANA time zone of DAILY_BRIEF_TIME and of a brief's date"}, &c.DailyBriefTimezone},
		{Setting{"DAILY_BRIEF_MODEL", "", "(AGENT_MODEL)", "model that writes the daily brief through the model gateway; without one the brief is a fixed template of the same figures"}, &c.DailyBriefModel},
		{Setting{"GTMGATE_SITE_CONTENT", "site-content", "(embedded)", "directory of the site's markdown tree"}, &c.SiteContent},
		{Setting{"GTMGATE_DOCS_CONTENT", "docs-content", "(embedded)", "directory of the docs' markdown tree"}, &c.DocsContent},
	}
}

// secretEnv lists the settings that also accept NAME_FILE.
var secretEnv = map[string]bool{"GTMGATE_ENCRYPTION_KEY": true, "ADMIN_API_KEY": true, "MODEL_GATEWAY_API_KEY": true, "DATABASE_URL": true, "GTMGATE_GOOGLE_ADS_DEVELOPER_TOKEN": true, "ALERT_WEBHOOK_SECRET": true}

type envReader struct {
	getenv func(string) string
	err    error
}

func (e *envReader) str(name, def string) string {
	if v := e.getenv(name); v != "" {
		return v
	}
	if secretEnv[name] {
		if path := e.getenv(name + "_FILE"); path != "" {
			b, err := os.ReadFile(path)
			if err != nil && e.err == nil {
				e.err = fmt.Errorf("%s_FILE: %w", name, err)
			}
			return strings.TrimSpace(string(b))
		}
	}
	return def
}

func (e *envReader) duration(name string, def time.Duration) (time.Duration, error) {
	v := e.getenv(name)
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("%s: %q is not a duration such as 15s", name, v)
	}
	return d, nil
}

func (e *envReader) int64(name string, def int64) (int64, error) {
	v := e.getenv(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %q is not a whole number", name, v)
	}
	return n, nil
}

func (e *envReader) bool(name string, def bool) (bool, error) {
	v := e.getenv(name)
	if v == "" {
		return def, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%s: %q is not true or false", name, v)
	}
	return b, nil
}

const readTimeoutMeaning = "time allowed to read one request, headers and body, on every listener (a stalled upload is cut off after it)"

const judgeTimeoutMeaning = "how long one judge may take on one trace, retries included; a grading job killed mid-way is run again after this (or GTMGATE_JOB_RESCUE_AFTER, the longer) plus up to a minute"

const agentStepMeaning = "time-out of one agent step (a model turn, its retries included, or a tool call); the step time-out is the longer of this and 4×GTMGATE_UPSTREAM_TIMEOUT+5s. An agent run whose process was killed resumes within about 30s (its heartbeat goes stale, see the agents docs)"

const catchUpMeaning = "how old a due schedule tick may be and still run: ticks whose job was delayed all run (the newest 10 per pass), of ticks missed while no replica was running the latest runs once; older ticks are recorded as skipped"

const jobWorkersMeaning = "when set, the workers of every job queue whose own GTMGATE_JOB_WORKERS_<QUEUE> is unset (before the queues were split: all background jobs of one process)"

type int64Setting struct {
	Setting
	dst *int64
}

// jobWorkerSettings are the workers of each job queue (defaults:
// jobs.DefaultWorkers).
func (c *Config) jobWorkerSettings() []int64Setting {
	return []int64Setting{
		{Setting{"GTMGATE_JOB_WORKERS_SCHEDULES", "", "4", "schedule ticks (first) and the runs schedules start one process works at once"}, &c.JobWorkersSchedules},
		{Setting{"GTMGATE_JOB_WORKERS_AGENTS", "", "4", "agent runs not started by a schedule (run_agent, admin) one process works at once"}, &c.JobWorkersAgents},
		{Setting{"GTMGATE_JOB_WORKERS_WEBHOOKS", "", "2", "webhook deliveries one process makes at once"}, &c.JobWorkersWebhooks},
		{Setting{"GTMGATE_JOB_WORKERS_GRADING", "", "4", "traces one process grades at once (degraded paths first)"}, &c.JobWorkersGrading},
		{Setting{"GTMGATE_JOB_WORKERS_MAINTENANCE", "", "2", "periodic sweeps (agent and approval sweeps, retention, daily brief, health snapshot) one process works at once"}, &c.JobWorkersMaintenance},
	}
}

const checkMeaning = "load and validate the configuration as serve does, print \"configuration ok\" (exit 0) or the error naming the setting (exit 2), and exit without serving; nothing is opened, written or bound"

const jobRescueMeaning = "how long a job left running by a stopped process waits before another process runs it again"

const graderSampleMeaning = "share of finished tool calls graded, 0.0 to 1.0; raised for mutating categories, production tenants and degraded tool paths"

const auditJournalMeaning = "acknowledge a call once its audit record is appended to DATA_DIR/journal (written to the store in the background); false: once the store commits it"

const mcpUpstreamProtocolMeaning = "MCP revision proposed to upstream MCP servers: " + mcpupstream.DefaultProtocolVersion + ", another the go-sdk speaks, or " +
	mcpupstream.LatestProtocolVersion + " (2026-07-28: server/discover, subscriptions/listen, per-request _meta)"

// Settings lists every setting for documentation (README table).
func Settings() []Setting {
	var c Config
	var out []Setting
	for _, s := range stringSettings(&c) {
		out = append(out, s.Setting)
	}
	out = append(out,
		Setting{"GTMGATE_MAX_BODY_BYTES", "max-body-bytes", "1048576", "request body limit in bytes"},
		Setting{"GTMGATE_UPSTREAM_TIMEOUT", "upstream-timeout", "15s", "time-out of one provider call"},
		Setting{"GTMGATE_READ_TIMEOUT", "read-timeout", "30s", readTimeoutMeaning},
		Setting{"GTMGATE_SHUTDOWN_TIMEOUT", "shutdown-timeout", "15s", "how long shutdown waits for in-flight requests"},
		Setting{"GTMGATE_APPROVAL_TTL", "approval-ttl", "24h", "how long a pending approval gate lives"},
		Setting{"GTMGATE_REAUTH_WARN_BEFORE", "reauth-warn-before", "168h", reauthWarnMeaning},
		Setting{"GTMGATE_MCP_REFRESH_EVERY", "mcp-refresh-every", "5m0s", mcpRefreshMeaning},
		Setting{"GTMGATE_MCP_UPSTREAM_ALLOW", "", "", "comma-separated non-public address ranges (CIDR, or one address) where tenants' upstream MCP servers may be; every other non-public address is refused"},
		Setting{"GTMGATE_UPSTREAM_<PROVIDER>", "", "(the provider's API)", "base URL of one provider's API, e.g. GTMGATE_UPSTREAM_HUBSPOT"},
		Setting{"GTMGATE_WEBFETCH_ALLOW_LOOPBACK", "", "false", "let web_fetch read loopback addresses (tests only)"},
		Setting{"GTMGATE_ALLOWED_ORIGINS", "", "", "comma-separated browser origins allowed to call /mcp"},
		Setting{"GTMGATE_TRUSTED_PROXIES", "", "", "comma-separated reverse-proxy addresses or CIDR ranges whose X-Forwarded-For/Forwarded name the client"},
		Setting{"GTMGATE_CHAT_MAX_STREAMS", "", "256", "concurrent streamed chat responses, in total; past it 429"},
		Setting{"GTMGATE_CHAT_MAX_STREAMS_PER_TENANT", "", "32", "concurrent streamed chat responses per tenant; past it 429"},
		Setting{"GTMGATE_ALLOW_INSECURE_TOKEN_ENDPOINT", "", "false", "accept http token endpoints on loopback in POST /admin/seed-oauth (tests only)"},
		Setting{"GTMGATE_DEMO", "demo", "false", "start sandbox upstreams and seed the demo tenant"},
		Setting{"GTMGATE_WATCH", "watch", "false", "reload content trees when their files change"},
		contentSignalSetting,
		Setting{"GTMGATE_AUDIT_JOURNAL", "audit-journal", "true", auditJournalMeaning},
		Setting{"GRADER_SAMPLE_RATE", "grader-sample-rate", "0.1", graderSampleMeaning},
		Setting{"GRADER_MAX_WAITING", "", "10000", "grading jobs that may wait; past it new samples are shed and counted (gtmgate_grader_dropped_total{reason=\"backlog\"}), degraded paths' up to a quarter more; 0: no bound"},
		Setting{"JUDGE_ALLOW_SAME_MODEL", "", "false", "accept two judges on the same model"},
		Setting{"GTMGATE_JOB_WORKERS", "", "", jobWorkersMeaning},
		Setting{"GTMGATE_JOB_RESCUE_AFTER", "job-rescue-after", "5m", jobRescueMeaning},
		Setting{"JUDGE_TIMEOUT", "judge-timeout", "90s", judgeTimeoutMeaning},
		Setting{"AGENT_STEP_TIMEOUT", "agent-step-timeout", "2m", agentStepMeaning},
		Setting{"SCHEDULE_CATCH_UP", "schedule-catch-up", "1h", catchUpMeaning},
	)
	for _, s := range (&Config{}).jobWorkerSettings() {
		out = append(out, s.Setting)
	}
	for _, s := range retentionSettings(&Retention{}) {
		out = append(out, s.Setting)
	}
	for _, s := range (&Config{}).tenantLimitSettings() {
		out = append(out, s.Setting)
	}
	for _, p := range apiversion.All() {
		out = append(out, Setting{p.Setting, "", p.Default, apiVersionMeaning(p)})
	}
	return out
}

// SettingsTable renders Settings as the README's markdown table.
func SettingsTable() string {
	var b strings.Builder
	b.WriteString("| Environment | Flag | Default | Meaning |\n|---|---|---|---|\n")
	for _, s := range Settings() {
		flag, def := "", ""
		if s.Flag != "" {
			flag = "`--" + s.Flag + "`"
		}
		if s.Default != "" {
			def = "`" + s.Default + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", s.Env, flag, def, s.Meaning)
	}
	return b.String()
}

// badFlagValue is the flag package's message for a value its type cannot
// parse: "parse error" alone does not say what was wanted.
var badFlagValue = regexp.MustCompile(`^invalid value ("[^"]*") for flag -([a-z0-9-]+): parse error$`)

// flagError rewrites a command-line error to name the flag, what it wants
// and where to read about it.
func flagError(fs *flag.FlagSet, err error) error {
	if m := badFlagValue.FindStringSubmatch(err.Error()); m != nil {
		if f := fs.Lookup(m[2]); f != nil {
			return fmt.Errorf("-%s: %s is not a value of its type; give one like %q (gtmgate serve -h lists the flags)", m[2], m[1], f.DefValue)
		}
	}
	return fmt.Errorf("%w (gtmgate serve -h lists the flags)", err)
}

// mcpRefreshMeaning describes GTMGATE_MCP_REFRESH_EVERY.
const mcpRefreshMeaning = "how often each tenant's upstream MCP server is listed again (tool refresh and reachability); list_changed from the upstream refreshes sooner"

// parseRange reads a CIDR range, or one address as a range of one.
func parseRange(s string) (netip.Prefix, error) {
	if p, err := netip.ParsePrefix(s); err == nil {
		return p.Masked(), nil
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Prefix{}, fmt.Errorf("%q is neither an IP address nor a CIDR range", s)
	}
	return netip.PrefixFrom(a, a.BitLen()), nil
}

// reauthWarnMeaning describes GTMGATE_REAUTH_WARN_BEFORE.
const reauthWarnMeaning = "how long before a provider token that cannot be refreshed expires its account is named as needing re-authorisation (system health, daily brief, console)"
