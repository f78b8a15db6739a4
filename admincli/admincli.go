// Package admincli is `gtmgate admin`: the admin API from a terminal or a
// script. Every subcommand is one or a few admin API calls; lists print as
// tables that fit an 80-column terminal (--output table, the default) or as
// the API's JSON (--output json); single objects print as JSON.
package admincli

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate/secret"
	"go.yaml.in/yaml/v3"
)

// Options runs one gtmgate admin invocation.
type Options struct {
	Args   []string
	Getenv func(string) string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// HTTP is the client (default: 30 s time-out per request).
	HTTP *http.Client
}

// DefaultGatewayURL is where the gateway listens by default.
const DefaultGatewayURL = "http://127.0.0.1:8081"

// Usage lists the subcommands.
const Usage = `usage: gtmgate admin [--gateway-url URL] [--admin-key-file FILE] [--output table|json] COMMAND

The options go before or after the command.

The admin key (the bootstrap key, or a named key gtmak_…) comes from
GTMGATE_ADMIN_KEY or --admin-key-file; the gateway from --gateway-url or
GTMGATE_GATEWAY_URL (default ` + DefaultGatewayURL + `).

commands:
  tenants list
  tenants get TENANT
  tenants put TENANT FILE            FILE: the tenant as JSON or YAML ("-": stdin)
  tokens list TENANT
  tokens issue TENANT [--label L] [--toolset NAME] [--person P]
                                     prints the new token once; --toolset limits its agent
                                     to one of the tenant's toolsets; --person (an id p_… or
                                     an email) makes it act for that person: their own
                                     accounts and the shared ones, never another person's
  tokens revoke TENANT TOKEN_ID
  provider-token put TENANT PROVIDER ACCOUNT --token-file FILE
  audit [--tenant T] [--action A] [--source S] [--key K] [--since TIME] [--limit N] [--follow]
  approvals list [--tenant T] [--status S]
  approvals approve APPROVAL_ID
  approvals reject APPROVAL_ID --reason TEXT
  errors list [--tenant T] [--kind K] [--key K]
  errors replay ENTRY_ID [--force]
  feedback list [--tenant T] [--resolved true|false]
  feedback resolve FEEDBACK_ID
  usage TENANT [--from DAY] [--to DAY] [--period YYYY-MM] [--key K]
                                     --key: one agent's calls (a token id, oauth:<grant id>)
  providers check [--tenant T]       one harmless read per provider account (also: gtmgate providers check)
  oauth-apps list                    the OAuth apps connect links use, and the redirect URI
  oauth-apps get PROVIDER [--tenant T]
  oauth-apps put PROVIDER --client-id ID [--client-secret-file FILE]
                 [--extra-scopes "S1 S2"] [--tenant T]
                                     PROVIDER: google, hubspot, meta or linkedin. The secret
                                     is read from FILE ("-": stdin), never from a flag, which
                                     would stay in the shell's history and the process list;
                                     without it, a replace keeps the stored secret
  oauth-apps delete PROVIDER [--tenant T]
` + toolsetsUsage + peopleUsage + adminKeysUsage + mcpServersUsage + `  connect-link TENANT PROVIDER [--product P]... [--hint ACCOUNT] [--expires 15m]
                       [--read-only] [--person P]
                                     prints a single-use link through which the account's
                                     owner connects a google, hubspot, meta or linkedin account;
                                     a product (google_ads, ga4, gmail…) or --product asks only
                                     for those products' scopes; --person (p_… or an email)
                                     connects that person's own accounts
  connect-links [--tenant T] [--limit N]
  reauth [--tenant T]                accounts whose owner must connect them again (refresh
                                     refused, or a token that cannot be refreshed expiring)
  reconnect TENANT PROVIDER_KEY ACCOUNT
                                     prints a connect link for that account (e.g. meta_ads
                                     act_123): send it to the account's owner

exit codes: 0 done; 1 the gateway refused the request (not found, invalid,
conflict); 2 usage error, or a FILE that cannot be read; 3 no admin key,
or the gateway refused it; 4 the gateway could not be reached or failed;
5 providers check found an account that cannot work.
`

// Run runs one invocation and returns its exit code.
func Run(ctx context.Context, opts Options) int {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.HTTP == nil {
		opts.HTTP = &http.Client{Timeout: 30 * time.Second}
	}
	fs := flag.NewFlagSet("gtmgate admin", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	gateway := fs.String("gateway-url", cmp.Or(opts.Getenv("GTMGATE_GATEWAY_URL"), DefaultGatewayURL), "")
	keyFile := fs.String("admin-key-file", "", "")
	output := fs.String("output", "table", "")
	if err := fs.Parse(globalFirst(opts.Args)); err != nil || fs.NArg() == 0 || (*output != "table" && *output != "json") {
		if err != nil {
			fmt.Fprintln(opts.Stderr, "gtmgate admin:", err)
		}
		fmt.Fprint(opts.Stderr, Usage)
		return ExitUsage
	}
	key := strings.TrimSpace(opts.Getenv("GTMGATE_ADMIN_KEY"))
	if *keyFile != "" {
		b, err := os.ReadFile(*keyFile)
		if err != nil {
			fmt.Fprintln(opts.Stderr, "gtmgate admin: --admin-key-file:", err)
			return ExitAuth
		}
		key = strings.TrimSpace(string(b))
	}
	// An empty key is refused by the first request (errNoKey), so a
	// command line that is wrong is named as such first.
	inv := &invocation{ctx: ctx, opts: opts, json: *output == "json",
		c: &client{base: strings.TrimRight(*gateway, "/"), key: key, http: opts.HTTP}}
	err := inv.dispatch(fs.Args())
	var ue usageError
	var ie inputError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ue):
		fmt.Fprintln(opts.Stderr, "gtmgate admin:", err)
		fmt.Fprint(opts.Stderr, Usage)
		return ExitUsage
	case errors.As(err, &ie):
		fmt.Fprintln(opts.Stderr, "gtmgate admin:", err)
		return ExitUsage
	}
	fmt.Fprintln(opts.Stderr, "gtmgate admin:", err)
	return exitCode(err)
}

// globalOptions are gtmgate admin's own options; each takes a value.
var globalOptions = map[string]bool{"gateway-url": true, "admin-key-file": true, "output": true}

// globalFirst moves the global options to the front, so they work before or
// after the command (gtmgate admin tenants list --output json), as users
// put them. Everything after "--" stays where it is.
func globalFirst(args []string) []string {
	var globals, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || !globalOptions[name] {
			rest = append(rest, a)
			continue
		}
		globals = append(globals, a)
		if !hasValue && i+1 < len(args) {
			i++
			globals = append(globals, args[i])
		}
	}
	return append(globals, rest...)
}

// usageError is a command line that names no command or misses arguments.
type usageError string

func (e usageError) Error() string { return string(e) }

// inputError is a file or stdin that cannot be read or decoded: exit 2 like
// a usage error, without the usage text that would bury the message.
type inputError string

func (e inputError) Error() string { return string(e) }

// invocation is one parsed command line.
type invocation struct {
	ctx  context.Context
	opts Options
	json bool
	c    *client
}

// sub parses a subcommand's flags and checks its positional arguments.
type sub struct {
	fs   *flag.FlagSet
	want []string
}

func newSub(name string, want ...string) *sub {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return &sub{fs: fs, want: want}
}

// parse returns the positional arguments, flags allowed before or after them.
func (s *sub) parse(args []string) ([]string, error) {
	var pos []string
	for {
		if err := s.fs.Parse(args); err != nil {
			return nil, usageError(s.fs.Name() + ": " + err.Error())
		}
		if s.fs.NArg() == 0 {
			break
		}
		pos = append(pos, s.fs.Arg(0))
		args = s.fs.Args()[1:]
	}
	if len(pos) != len(s.want) {
		return nil, usageError(fmt.Sprintf("%s takes %s", s.fs.Name(), strings.Join(s.want, " ")))
	}
	return pos, nil
}

func (inv *invocation) dispatch(args []string) error {
	verb := ""
	if len(args) > 1 {
		verb = args[1]
	}
	switch cmd := args[0]; {
	case cmd == "tenants" && verb == "list":
		return inv.list(args[2:], "tenants list", "/admin/tenants", "tenants", nil,
			[]column{col("ID", "id"), col("STATUS", "status"), col("UPDATED", "updated_at"), col("NAME", "name")})
	case cmd == "tenants" && verb == "get":
		s := newSub("tenants get", "TENANT")
		p, err := s.parse(args[2:])
		if err != nil {
			return err
		}
		return inv.send("GET", "/admin/tenants/"+url.PathEscape(p[0]), nil)
	case cmd == "tenants" && verb == "put":
		return inv.putTenant(args[2:])
	case cmd == "tokens" && verb == "list":
		s := newSub("tokens list", "TENANT")
		p, err := s.parse(args[2:])
		if err != nil {
			return err
		}
		// A prefix (at most 8 characters) is never cut: it is how a token is recognised.
		return inv.show("/admin/auth/"+url.PathEscape(p[0]), "tokens",
			[]column{col("ID", "id"), {"PREFIX", "prefix", 8}, col("CREATED", "created_at"), col("REVOKED", "revoked_at"), col("TOOLSET", "toolset"), col("LABEL", "label")})
	case cmd == "tokens" && verb == "issue":
		return inv.issueToken(args[2:])
	case cmd == "tokens" && verb == "revoke":
		s := newSub("tokens revoke", "TENANT", "TOKEN_ID")
		p, err := s.parse(args[2:])
		if err != nil {
			return err
		}
		return inv.send("DELETE", "/admin/auth/"+url.PathEscape(p[0])+"/"+url.PathEscape(p[1]), nil)
	case cmd == "toolsets":
		return inv.toolsets(verb, args[min(2, len(args)):])
	case cmd == "provider-token" && verb == "put":
		return inv.putProviderToken(args[2:])
	case cmd == "audit":
		return inv.audit(args[1:])
	case cmd == "approvals" && verb == "list":
		return inv.list(args[2:], "approvals list", "/admin/approvals", "approvals", []string{"tenant", "status"},
			[]column{col("ID", "id"), col("TENANT", "tenant_id"), col("STATUS", "status"), col("CREATED", "created_at"), col("TOOL", "tool"), col("ACTION", "action")})
	case cmd == "approvals" && (verb == "approve" || verb == "reject"):
		s := newSub("approvals "+verb, "APPROVAL_ID")
		reason := s.fs.String("reason", "", "")
		p, err := s.parse(args[2:])
		if err != nil {
			return err
		}
		if verb == "reject" && *reason == "" {
			return usageError("approvals reject needs --reason")
		}
		return inv.send("POST", "/admin/approvals/"+url.PathEscape(p[0])+"/"+verb, map[string]string{"reason": *reason})
	case cmd == "errors" && verb == "list":
		return inv.list(args[2:], "errors list", "/admin/errors", "entries", []string{"tenant", "kind", "key"},
			[]column{col("ID", "id"), col("TIME", "time"), col("TENANT", "tenant_id"), col("TOOL", "tool"), col("CODE", "error_code"), col("MESSAGE", "message")})
	case cmd == "errors" && verb == "replay":
		s := newSub("errors replay", "ENTRY_ID")
		force := s.fs.Bool("force", false, "")
		p, err := s.parse(args[2:])
		if err != nil {
			return err
		}
		return inv.send("POST", "/admin/replay", map[string]any{"entry_id": p[0], "force": *force})
	case cmd == "feedback" && verb == "list":
		return inv.list(args[2:], "feedback list", "/admin/feedback", "feedback", []string{"tenant", "resolved"},
			[]column{col("ID", "id"), col("TIME", "time"), col("TENANT", "tenant_id"), col("SEVERITY", "severity"), col("ERROR", "error_seen")})
	case cmd == "feedback" && verb == "resolve":
		s := newSub("feedback resolve", "FEEDBACK_ID")
		p, err := s.parse(args[2:])
		if err != nil {
			return err
		}
		return inv.send("POST", "/admin/feedback/"+url.PathEscape(p[0])+"/resolve", map[string]string{"resolved_by": "cli"})
	case cmd == "oauth-apps":
		return inv.oauthApps(verb, args[min(2, len(args)):])
	case cmd == "mcp-servers":
		return inv.mcpServers(verb, args[min(2, len(args)):])
	case cmd == "sso":
		return inv.sso(verb, args[min(2, len(args)):])
	case cmd == "people":
		return inv.people(verb, args[min(2, len(args)):])
	case cmd == "roles":
		return inv.roles(verb, args[min(2, len(args)):])
	case cmd == "admin-keys":
		return inv.adminKeys(verb, args[min(2, len(args)):])
	case cmd == "connect-link":
		return inv.connectLink(args[1:])
	case cmd == "connect-links":
		return inv.list(args[1:], "connect-links", "/admin/connect-links", "connect_links", []string{"tenant"},
			[]column{col("ID", "id"), col("TENANT", "tenant_id"), col("PROVIDER", "provider"), col("STATUS", "status"),
				col("EXPIRES", "expires_at"), col("RESULT", "result")})
	case cmd == "reauth":
		return inv.reauth(args[1:])
	case cmd == "reconnect":
		return inv.reconnect(args[1:])
	case cmd == "providers" && verb == "check":
		return inv.checkProviders(args[2:])
	case cmd == "usage":
		s := newSub("usage", "TENANT")
		q := queryFlags(s, "from", "to", "period", "key")
		p, err := s.parse(args[1:])
		if err != nil {
			return err
		}
		return inv.show("/admin/usage/"+url.PathEscape(p[0])+q(), "by_tool",
			[]column{col("TOOL", "tool"), col("CALLS", "calls"), col("ERRORS", "errors"), col("P50 MS", "upstream_latency_p50_ms"), col("P95 MS", "upstream_latency_p95_ms")})
	}
	return usageError(fmt.Sprintf("unknown command %q", strings.Join(args[:min(2, len(args))], " ")))
}

// queryFlags adds string flags to s and returns a function building the
// query string of those set.
func queryFlags(s *sub, names ...string) func() string {
	vals := make([]*string, len(names))
	for i, n := range names {
		vals[i] = s.fs.String(n, "", "")
	}
	return func() string {
		q := url.Values{}
		for i, n := range names {
			if *vals[i] != "" {
				q.Set(n, *vals[i])
			}
		}
		if len(q) == 0 {
			return ""
		}
		return "?" + q.Encode()
	}
}

// list runs a list command without positional arguments.
func (inv *invocation) list(args []string, name, path, key string, filters []string, cols []column) error {
	s := newSub(name)
	q := queryFlags(s, append(filters, "limit")...)
	if _, err := s.parse(args); err != nil {
		return err
	}
	return inv.show(path+q(), key, cols)
}

// show prints the answer of GET path: its key list as a table, or the JSON.
func (inv *invocation) show(path, key string, cols []column) error {
	b, err := inv.c.do(inv.ctx, "GET", path, nil)
	if err != nil {
		return err
	}
	if inv.json {
		return inv.printJSON(b)
	}
	var page map[string]json.RawMessage
	var items []map[string]any
	if err := json.Unmarshal(b, &page); err != nil {
		return fmt.Errorf("the gateway's answer is not JSON: %w", err)
	}
	if err := json.Unmarshal(page[key], &items); err != nil {
		return fmt.Errorf("the gateway's answer has no %q list: %w", key, err)
	}
	writeTable(inv.opts.Stdout, cols, items)
	if next := strings.Trim(string(page["next_cursor"]), `"`); next != "" && next != "null" {
		fmt.Fprintf(inv.opts.Stderr, "more: --cursor %s\n", next)
	}
	return nil
}

// send makes one request and prints the answer as JSON.
func (inv *invocation) send(method, path string, body any) error {
	b, err := inv.c.do(inv.ctx, method, path, body)
	if err != nil {
		return err
	}
	return inv.printJSON(b)
}

func (inv *invocation) printJSON(b []byte) error {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		_, err = inv.opts.Stdout.Write(b)
		return err
	}
	enc := json.NewEncoder(inv.opts.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// readInput reads a file, or stdin for "-".
func (inv *invocation) readInput(name string) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(io.LimitReader(inv.opts.Stdin, 16<<20))
	}
	return os.ReadFile(name)
}

func (inv *invocation) putTenant(args []string) error {
	s := newSub("tenants put", "TENANT", "FILE")
	p, err := s.parse(args)
	if err != nil {
		return err
	}
	b, err := inv.readInput(p[1])
	if err != nil {
		return inputError("tenants put: " + err.Error())
	}
	name := p[1]
	if name == "-" {
		name = "stdin"
	}
	body, err := decodeObject(name, b)
	if err != nil {
		return inputError("tenants put: " + err.Error())
	}
	// A tenant read with `tenants get` can be edited and put back as is:
	// beside the tenant it shows what the tenant's other routes keep (its
	// OAuth refresh records, its upstream MCP servers), not put here.
	if t, ok := body["tenant"].(map[string]any); ok && onlyTenantView(body) {
		body = t
	}
	for _, k := range []string{"id", "created_at", "updated_at"} {
		delete(body, k)
	}
	return inv.send("PUT", "/admin/tenants/"+url.PathEscape(p[0]), body)
}

// onlyTenantView reports whether body holds nothing but what `tenants get`
// answers.
func onlyTenantView(body map[string]any) bool {
	for k := range body {
		switch k {
		case "tenant", "oauth_refresh", "mcp_servers":
		default:
			return false
		}
	}
	return true
}

func (inv *invocation) issueToken(args []string) error {
	s := newSub("tokens issue", "TENANT")
	label := s.fs.String("label", "", "")
	toolset := s.fs.String("toolset", "", "")
	person := s.fs.String("person", "", "")
	p, err := s.parse(args)
	if err != nil {
		return err
	}
	token, err := secret.NewToken("gtm_")
	if err != nil {
		return err
	}
	b, err := inv.c.do(inv.ctx, "POST", "/admin/auth", map[string]string{"tenant_id": p[0], "token": token, "label": *label, "toolset": *toolset, "person": *person})
	if err != nil {
		return err
	}
	if inv.json {
		var v map[string]any
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		v["token"] = token
		out, _ := json.Marshal(v)
		return inv.printJSON(out)
	}
	var t struct{ ID, Person string }
	_ = json.Unmarshal(b, &t)
	fmt.Fprintf(inv.opts.Stdout, "token %s (id %s)\n", token, t.ID)
	if *toolset != "" {
		fmt.Fprintf(inv.opts.Stdout, "Its agent is limited to toolset %s.\n", *toolset)
	}
	if t.Person != "" {
		fmt.Fprintf(inv.opts.Stdout, "Its agent acts for person %s.\n", t.Person)
	}
	fmt.Fprintln(inv.opts.Stdout, "It is shown once; only its hash is kept.")
	return nil
}

func (inv *invocation) putProviderToken(args []string) error {
	s := newSub("provider-token put", "TENANT", "PROVIDER", "ACCOUNT")
	file := s.fs.String("token-file", "", "")
	p, err := s.parse(args)
	if err != nil {
		return err
	}
	if *file == "" {
		return usageError("provider-token put needs --token-file (\"-\" reads stdin); a token on the command line would stay in the shell's history")
	}
	b, err := inv.readInput(*file)
	if err != nil {
		return inputError("provider-token put: " + err.Error())
	}
	return inv.send("PUT", "/admin/tokens/"+url.PathEscape(p[0])+"/"+url.PathEscape(p[1])+"/"+url.PathEscape(p[2]),
		map[string]string{"access_token": strings.TrimSpace(string(b))})
}

// auditColumns are fixed-width so that followed entries, printed as they
// come, line up; --output json has every field.
var auditColumns = []column{{"TIME", "time", 16}, {"TENANT", "tenant", 12}, {"SOURCE", "source", 7}, {"OUTCOME", "outcome", 8},
	col("ACTION", "action")}

// audit pages the audit log, or with --follow prints new entries as they
// commit until interrupted.
func (inv *invocation) audit(args []string) error {
	s := newSub("audit")
	q := queryFlags(s, "tenant", "action", "source", "key", "parent", "since", "limit", "cursor")
	follow := s.fs.Bool("follow", false, "")
	every := s.fs.Duration("interval", 2*time.Second, "")
	if _, err := s.parse(args); err != nil {
		return err
	}
	if !*follow {
		return inv.show("/admin/audit"+q(), "entries", auditColumns)
	}
	query := q()
	sep := "?"
	if query != "" {
		sep = "&"
	}
	after, header := "", !inv.json
	for {
		b, err := inv.c.do(inv.ctx, "GET", "/admin/audit"+query+sep+"after="+url.QueryEscape(after), nil)
		if inv.ctx.Err() != nil {
			return nil // interrupted: a follow ends there
		}
		if err != nil {
			return err
		}
		var page struct {
			Entries []map[string]any `json:"entries"`
			Next    string           `json:"next_cursor"`
		}
		if err := json.Unmarshal(b, &page); err != nil {
			return fmt.Errorf("the gateway's answer is not an audit page: %w", err)
		}
		after = page.Next
		for _, e := range page.Entries {
			if inv.json {
				line, _ := json.Marshal(e)
				fmt.Fprintln(inv.opts.Stdout, string(line))
				continue
			}
			items := []map[string]any{e}
			var buf strings.Builder
			writeTable(&buf, auditColumns, items)
			lines := strings.SplitN(buf.String(), "\n", 2)
			if header {
				fmt.Fprintln(inv.opts.Stdout, lines[0])
				header = false
			}
			fmt.Fprint(inv.opts.Stdout, lines[1])
		}
		select {
		case <-inv.ctx.Done():
			return nil
		case <-time.After(*every):
		}
	}
}

// decodeObject reads a JSON or YAML object. A .yaml or .yml file is YAML; any
// other input is JSON when it starts with "{" and YAML otherwise, so stdin
// takes either. Both become the same JSON body the API receives.
func decodeObject(name string, b []byte) (map[string]any, error) {
	ext := strings.ToLower(filepath.Ext(name))
	trimmed := bytes.TrimSpace(b)
	if ext != ".yaml" && ext != ".yml" && (len(trimmed) == 0 || trimmed[0] == '{') {
		var body map[string]any
		if err := json.Unmarshal(b, &body); err != nil || body == nil {
			return nil, fmt.Errorf("%s is not a JSON object: %v", name, errOrEmpty(err))
		}
		return body, nil
	}
	var body map[string]any
	if err := yaml.Unmarshal(b, &body); err != nil || body == nil {
		return nil, fmt.Errorf("%s is not a YAML mapping: %v", name, errOrEmpty(err))
	}
	// YAML allows keys JSON has no form for (numbers, lists); refuse them by
	// name rather than send a body the API would misread.
	if _, err := json.Marshal(body); err != nil {
		return nil, fmt.Errorf("%s has a value JSON cannot carry: %v", name, err)
	}
	return body, nil
}

func errOrEmpty(err error) error {
	if err == nil {
		return errors.New("it is empty or null")
	}
	return err
}
