package admincli

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
)

// mcpServersUsage is the mcp-servers part of Usage.
const mcpServersUsage = `  mcp-servers list --tenant T        a tenant's upstream MCP servers: reachability, latency,
                                     last tool refresh, tools served, error
  mcp-servers get NAME --tenant T    the server's state and each tool: served, not in the
                                     allow-list, or refused with the reason
  mcp-servers put NAME --tenant T --url URL [--auth none|bearer|header|client_credentials|oauth]
                 [--bearer-token-file FILE | --header NAME --header-value-file FILE |
                  --token-url URL --client-id ID --client-secret-file FILE [--scope S]...]
                 [--grant tenant|person] [--client-registration auto|metadata_document|dynamic]
                 [--tool TOOL]... [--override TOOL:KEY=VALUE[,KEY=VALUE]]... [--auto-accept-changes]
                                     --auth oauth: a person connects it through a connect
                                     link; --client-id (and --client-secret-file) name a
                                     static client. --grant person: each call uses the grant
                                     of the person its agent acts for (default tenant: one
                                     grant for every call). --client-registration: how a
                                     server without --client-id gets a client (auto: gtmgate's
                                     client metadata document where taken, else dynamic
                                     registration). --tool: the allow-list (none: every
                                     tool); --override keys: mutating, destructive
                                     (true|false), category.
                                     Secrets are read from FILE ("-": stdin), never from a
                                     flag; a replace with --auth KIND and no FILE keeps the
                                     stored secret (same kind, same origin). The tools are
                                     listed at once, and what is listed is accepted as you;
                                     --auto-accept-changes accepts later changes as "auto"
  mcp-servers delete NAME --tenant T
  mcp-servers refresh NAME --tenant T
                                     lists the server's tools now
` + mcpChangesUsage

// listFlag is a flag that may be repeated; each value may also hold
// several items separated by commas or spaces when split is set.
type listFlag struct {
	items []string
	split bool
}

func (l *listFlag) String() string { return strings.Join(l.items, ",") }

func (l *listFlag) Set(v string) error {
	if !l.split {
		l.items = append(l.items, v)
		return nil
	}
	l.items = append(l.items, strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' })...)
	return nil
}

// mcpServers runs `mcp-servers list|get|put|delete|refresh`: the upstream
// MCP servers a tenant brings, whose tools its agents call as NAME__tool.
func (inv *invocation) mcpServers(verb string, args []string) error {
	switch verb {
	case "list":
		s := newSub("mcp-servers list")
		tenant := s.fs.String("tenant", "", "")
		if _, err := s.parse(args); err != nil {
			return err
		}
		if *tenant == "" {
			return usageError("mcp-servers list needs --tenant")
		}
		return inv.listMCPServers(*tenant)
	case "get", "delete", "refresh":
		s := newSub("mcp-servers "+verb, "NAME")
		tenant := s.fs.String("tenant", "", "")
		p, err := s.parse(args)
		if err != nil {
			return err
		}
		if *tenant == "" {
			return usageError("mcp-servers " + verb + " needs --tenant")
		}
		path := mcpServerPath(*tenant, p[0])
		switch verb {
		case "get":
			return inv.showMCPServer("GET", path, nil, "server")
		case "refresh":
			return inv.showMCPServer("POST", path+"/refresh", nil, "")
		}
		if _, err := inv.c.do(inv.ctx, "DELETE", path, nil); err != nil {
			return err
		}
		if inv.json {
			out, _ := json.Marshal(map[string]any{"tenant_id": *tenant, "name": p[0], "deleted": true})
			return inv.printJSON(out)
		}
		fmt.Fprintf(inv.opts.Stdout, "MCP server %s of tenant %s deleted; its tools are no longer served.\n", p[0], *tenant)
		return nil
	case "put":
		return inv.putMCPServer(args)
	case "changes", "accept":
		return inv.mcpChanges(verb, args)
	}
	return usageError(fmt.Sprintf("unknown command %q", strings.TrimSpace("mcp-servers "+verb)))
}

func mcpServerPath(tenant, name string) string {
	return "/admin/tenants/" + url.PathEscape(tenant) + "/mcp-servers/" + url.PathEscape(name)
}

// listMCPServers prints the tenant's servers, one line each.
func (inv *invocation) listMCPServers(tenant string) error {
	b, err := inv.c.do(inv.ctx, "GET", "/admin/tenants/"+url.PathEscape(tenant)+"/mcp-servers", nil)
	if err != nil {
		return err
	}
	if inv.json {
		return inv.printJSON(b)
	}
	var page struct {
		Servers []mcpServerView `json:"servers"`
	}
	if err := json.Unmarshal(b, &page); err != nil {
		return fmt.Errorf("the gateway's answer is not an MCP server list: %w", err)
	}
	items := make([]map[string]any, 0, len(page.Servers))
	for _, s := range page.Servers {
		items = append(items, map[string]any{"name": s.Name, "reachable": s.reachable(), "latency": s.latency(),
			"tools_refreshed_at": s.State.ToolsRefreshedAt, "tools": s.toolCounts(), "error": s.State.Error})
	}
	writeTable(inv.opts.Stdout, []column{col("NAME", "name"), col("REACHABLE", "reachable"), col("LATENCY", "latency"),
		col("LISTED", "tools_refreshed_at"), col("TOOLS", "tools"), col("ERROR", "error")}, items)
	return nil
}

// mcpServerView is what the CLI reads of a server.
type mcpServerView struct {
	TenantID string `json:"tenant_id"`
	Name     string `json:"name"`
	URL      string `json:"url"`
	Auth     struct {
		Kind      string   `json:"kind"`
		Header    string   `json:"header"`
		TokenURL  string   `json:"token_url"`
		ClientID  string   `json:"client_id"`
		Scopes    []string `json:"scopes"`
		SecretSet bool     `json:"secret_set"`
		// Grant and ClientRegistration are oauth's.
		Grant              string `json:"grant"`
		ClientRegistration string `json:"client_registration"`
	} `json:"auth"`
	Tools []string `json:"tools"`
	State struct {
		ToolsRefreshedAt any     `json:"tools_refreshed_at"`
		CheckedAt        any     `json:"checked_at"`
		Reachable        bool    `json:"reachable"`
		LatencyMS        float64 `json:"latency_ms"`
		Error            string  `json:"error"`
	} `json:"state"`
	ServedTools []struct {
		Name        string `json:"name"`
		Upstream    string `json:"upstream"`
		Category    string `json:"category"`
		Mutating    bool   `json:"mutating"`
		Destructive bool   `json:"destructive"`
		Served      bool   `json:"served"`
		Refused     string `json:"refused"`
		// Pending says a listed definition waits for acceptance (#42).
		Pending string `json:"pending"`
	} `json:"served_tools"`
}

func (s *mcpServerView) reachable() string {
	switch {
	case s.State.CheckedAt == nil:
		return "unchecked"
	case s.State.Reachable:
		return "yes"
	}
	return "no"
}

func (s *mcpServerView) latency() string {
	if s.State.CheckedAt == nil || !s.State.Reachable {
		return ""
	}
	return strconv.FormatFloat(s.State.LatencyMS, 'f', 1, 64) + " ms"
}

// toolCounts is "served/listed".
func (s *mcpServerView) toolCounts() string {
	served := 0
	for _, t := range s.ServedTools {
		if t.Served {
			served++
		}
	}
	return fmt.Sprintf("%d/%d served", served, len(s.ServedTools))
}

// showMCPServer makes one request answered by a server (wrapped in key
// when not "") and prints it: its state, then its tools as a table.
func (inv *invocation) showMCPServer(method, path string, body any, key string) error {
	b, err := inv.c.do(inv.ctx, method, path, body)
	if err != nil {
		return err
	}
	if inv.json {
		return inv.printJSON(b)
	}
	raw := json.RawMessage(b)
	if key != "" {
		var wrapped map[string]json.RawMessage
		if err := json.Unmarshal(b, &wrapped); err != nil {
			return fmt.Errorf("the gateway's answer is not JSON: %w", err)
		}
		raw = wrapped[key]
	}
	var s mcpServerView
	if err := json.Unmarshal(raw, &s); err != nil || s.Name == "" {
		return fmt.Errorf("the gateway's answer is not an MCP server: %v", errOrEmpty(err))
	}
	writeMCPServer(inv.opts.Stdout, &s)
	return nil
}

// writeMCPServer prints a server's configuration and state, then a table
// of its tools.
func writeMCPServer(w io.Writer, s *mcpServerView) {
	auth := s.Auth.Kind
	switch {
	case s.Auth.Header != "":
		auth += " (" + s.Auth.Header + ")"
	case s.Auth.ClientID != "":
		auth += " (client " + s.Auth.ClientID
		if s.Auth.TokenURL != "" { // client credentials; an oauth server's is discovered
			auth += " at " + s.Auth.TokenURL
		}
		if len(s.Auth.Scopes) > 0 {
			auth += ", scopes " + strings.Join(s.Auth.Scopes, " ")
		}
		auth += ")"
	}
	if s.Auth.Grant == "person" {
		auth += ", each person's own grant"
	}
	if r := s.Auth.ClientRegistration; r != "" && r != "auto" {
		auth += ", client registration " + r
	}
	if s.Auth.SecretSet {
		auth += ", secret sealed"
	}
	allow := "every tool"
	if len(s.Tools) > 0 {
		allow = strings.Join(s.Tools, ", ")
	}
	state := "reachable " + s.reachable()
	if l := s.latency(); l != "" {
		state += ", " + l
	}
	if s.State.CheckedAt != nil {
		state += ", checked " + cell(s.State.CheckedAt)
	}
	refreshed := cell(s.State.ToolsRefreshedAt)
	if refreshed == "" {
		refreshed = "never"
	}
	fmt.Fprintf(w, "server      %s (tenant %s)\nurl         %s\nauth        %s\nallow-list  %s\nstate       %s\ntools       %s, last listed %s\n",
		s.Name, s.TenantID, s.URL, auth, allow, state, s.toolCounts(), refreshed)
	if s.State.Error != "" {
		fmt.Fprintf(w, "error       %s\n", strings.Join(strings.Fields(s.State.Error), " "))
	}
	if len(s.ServedTools) == 0 {
		return
	}
	fmt.Fprintln(w)
	items := make([]map[string]any, 0, len(s.ServedTools))
	for _, t := range s.ServedTools {
		served, why := "yes", ""
		switch {
		case t.Refused != "":
			served, why = "refused", t.Refused
		case t.Pending != "" && t.Served:
			served, why = "yes", "as accepted; "+t.Pending
		case t.Pending != "":
			served, why = "no", t.Pending
		case !t.Served:
			served, why = "no", "not in the allow-list"
		}
		does := "reads"
		switch {
		case t.Destructive:
			does = "destroys"
		case t.Mutating:
			does = "mutates"
		}
		items = append(items, map[string]any{"name": t.Name, "served": served, "category": t.Category, "does": does, "why": why})
	}
	writeTable(w, []column{col("TOOL", "name"), col("SERVED", "served"), col("CATEGORY", "category"), col("DOES", "does"),
		col("WHY NOT", "why")}, items)
	// A refusal's reason is often longer than its cell: in full below.
	first := true
	for _, t := range s.ServedTools {
		if t.Refused == "" {
			continue
		}
		if first {
			fmt.Fprintln(w)
			first = false
		}
		fmt.Fprintf(w, "%s is refused: %s\n", t.Name, t.Refused)
	}
}

// putMCPServer creates or replaces a server. Secrets are read from files
// or stdin, never taken from the command line, where they would stay in
// the shell's history and show in the process list.
func (inv *invocation) putMCPServer(args []string) error {
	s := newSub("mcp-servers put", "NAME")
	tenant := s.fs.String("tenant", "", "")
	serverURL := s.fs.String("url", "", "")
	kind := s.fs.String("auth", "", "")
	bearerFile := s.fs.String("bearer-token-file", "", "")
	header := s.fs.String("header", "", "")
	headerFile := s.fs.String("header-value-file", "", "")
	tokenURL := s.fs.String("token-url", "", "")
	clientID := s.fs.String("client-id", "", "")
	clientSecretFile := s.fs.String("client-secret-file", "", "")
	grant := s.fs.String("grant", "", "")
	clientRegistration := s.fs.String("client-registration", "", "")
	scopes := &listFlag{split: true}
	s.fs.Var(scopes, "scope", "")
	tools := &listFlag{}
	s.fs.Var(tools, "tool", "")
	overrides := &listFlag{}
	s.fs.Var(overrides, "override", "")
	autoAccept := s.fs.Bool("auto-accept-changes", false, "")
	// Defined only to explain their refusal, without echoing the value.
	onCommandLine := map[string]*string{}
	for _, f := range []string{"bearer-token", "token", "header-value", "client-secret"} {
		onCommandLine[f] = s.fs.String(f, "", "")
	}
	p, err := s.parse(args)
	if err != nil {
		return err
	}
	for f, v := range onCommandLine {
		if *v != "" {
			return usageError(fmt.Sprintf("mcp-servers put reads secrets from a file (\"-\": stdin), not --%s: "+
				"a secret on the command line stays in the shell's history and shows in the process list; "+
				"use --bearer-token-file, --header-value-file or --client-secret-file", f))
		}
	}
	if *tenant == "" || *serverURL == "" {
		return usageError("mcp-servers put needs --tenant and --url")
	}
	// The kind: --auth, or what the other flags imply.
	var implied []string
	if *bearerFile != "" {
		implied = append(implied, "bearer")
	}
	if *header != "" || *headerFile != "" {
		implied = append(implied, "header")
	}
	if *tokenURL != "" || *clientID != "" || *clientSecretFile != "" || len(scopes.items) > 0 {
		implied = append(implied, "client_credentials")
	}
	if *kind == "oauth" && len(implied) == 1 && implied[0] == "client_credentials" && *tokenURL == "" {
		implied = nil // --client-id, --client-secret-file and --scope also configure oauth's static client
	}
	switch {
	case len(implied) > 1:
		return usageError("mcp-servers put: the flags of auth kinds " + strings.Join(implied, " and ") + " are mixed; a server has one")
	case len(implied) == 1 && *kind != "" && *kind != implied[0]:
		return usageError(fmt.Sprintf("mcp-servers put: --auth %s does not take the flags of auth kind %s", *kind, implied[0]))
	case *kind == "" && len(implied) == 1:
		*kind = implied[0]
	case *kind == "":
		*kind = "none"
	}
	if (*grant != "" || *clientRegistration != "") && *kind != "oauth" {
		return usageError("mcp-servers put: --grant and --client-registration belong to --auth oauth")
	}
	if *grant != "" && *grant != "tenant" && *grant != "person" {
		return usageError("mcp-servers put: --grant is tenant (one grant for every call) or person (each person's own), not " + *grant)
	}
	readSecret := func(flagName, file string) (string, error) {
		if file == "" {
			return "", nil
		}
		b, err := inv.readInput(file)
		if err != nil {
			return "", inputError("mcp-servers put: --" + flagName + ": " + err.Error())
		}
		v := strings.TrimSpace(string(b))
		if v == "" {
			return "", inputError("mcp-servers put: --" + flagName + ": it is empty")
		}
		return v, nil
	}
	auth := map[string]any{"kind": *kind}
	switch *kind {
	case "bearer":
		if auth["token"], err = readSecret("bearer-token-file", *bearerFile); err != nil {
			return err
		}
	case "header":
		auth["header"] = *header
		if auth["value"], err = readSecret("header-value-file", *headerFile); err != nil {
			return err
		}
	case "client_credentials", "oauth":
		auth["token_url"], auth["client_id"] = *tokenURL, *clientID
		if len(scopes.items) > 0 {
			auth["scopes"] = scopes.items
		}
		if auth["client_secret"], err = readSecret("client-secret-file", *clientSecretFile); err != nil {
			return err
		}
		if *kind == "oauth" {
			// The gateway checks client_registration's values and names them.
			auth["grant"], auth["client_registration"] = *grant, *clientRegistration
		}
	}
	for k, v := range auth {
		if v == "" {
			delete(auth, k) // left out: the gateway keeps the stored secret, or names what is missing
		}
	}
	body := map[string]any{"url": *serverURL, "auth": auth}
	if *autoAccept {
		body["auto_accept_changes"] = true
	}
	if len(tools.items) > 0 {
		body["tools"] = tools.items
	}
	if len(overrides.items) > 0 {
		ov := map[string]map[string]any{}
		for _, o := range overrides.items {
			tool, o2, err := parseOverride(o)
			if err != nil {
				return err
			}
			if prev, ok := ov[tool]; ok {
				for k, v := range o2 {
					prev[k] = v
				}
				continue
			}
			ov[tool] = o2
		}
		body["overrides"] = ov
	}
	return inv.showMCPServer("PUT", mcpServerPath(*tenant, p[0]), body, "")
}

// parseOverride reads "TOOL:mutating=false,destructive=false,category=crm_write".
func parseOverride(v string) (string, map[string]any, error) {
	i := strings.LastIndex(v, ":")
	if i <= 0 || i == len(v)-1 {
		return "", nil, usageError(fmt.Sprintf("mcp-servers put: --override %q: want TOOL:KEY=VALUE[,KEY=VALUE] "+
			"with mutating=true|false, destructive=true|false, category=CATEGORY", v))
	}
	tool, out := v[:i], map[string]any{}
	for _, kv := range strings.Split(v[i+1:], ",") {
		k, val, ok := strings.Cut(strings.TrimSpace(kv), "=")
		switch {
		case !ok:
			return "", nil, usageError(fmt.Sprintf("mcp-servers put: --override %q: %q is not KEY=VALUE", v, kv))
		case k == "mutating" || k == "destructive":
			b, err := strconv.ParseBool(val)
			if err != nil {
				return "", nil, usageError(fmt.Sprintf("mcp-servers put: --override %q: %s takes true or false", v, k))
			}
			out[k] = b
		case k == "category":
			out[k] = val
		default:
			return "", nil, usageError(fmt.Sprintf("mcp-servers put: --override %q: unknown key %q (mutating, destructive, category)", v, k))
		}
	}
	return tool, out, nil
}
