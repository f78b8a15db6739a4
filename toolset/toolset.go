// Package toolset decides what an agent limited to a tenant toolset may see
// and do: which tools and actions, and which of the tenant's accounts. The
// same decision serves tools/list, tools/call, the REST proxy and the runs
// and schedules an agent starts (they carry its credential, so its toolset).
package toolset

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/registry"
)

// Always are the gateway's own tools every agent keeps, whatever its
// toolset: they reach no provider, and without them an agent could neither
// follow a call held for approval nor report what blocked it.
var Always = []string{"approval_status", "submit_feedback"}

// NamePattern is what a toolset's name must match.
var NamePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,62}$`)

// For returns the toolset a credential is limited to in tenant t: nil when
// it has none. A credential naming a toolset the tenant no longer has is
// refused rather than given everything.
func For(t *gtmgate.Tenant, c gtmgate.Credential) (*gtmgate.Toolset, error) {
	if c.Toolset == "" {
		return nil, nil
	}
	if ts := t.Toolsets[c.Toolset]; ts != nil {
		return ts, nil
	}
	return nil, gtmgate.Errorf(gtmgate.EForbidden, "this agent's toolset %q no longer exists in tenant %q", c.Toolset, t.ID).
		WithHint("an operator restores the toolset with PUT /admin/tenants/" + t.ID + "/toolsets/" + c.Toolset + ", or gives the agent a new token")
}

// Allows reports whether ts lets an agent run action a of tool e (nil ts:
// everything).
func Allows(ts *gtmgate.Toolset, e *registry.Entry, a gtmgate.Action) bool {
	if ts == nil || slices.Contains(Always, e.Name) {
		return true
	}
	if ts.ReadOnly && a.Mutating {
		return false
	}
	match := func(rule string) bool { return matches(rule, e.Name, a) }
	return slices.ContainsFunc(ts.Allow, match) && !slices.ContainsFunc(ts.Deny, match)
}

// Actions returns the actions of e that ts allows, in the tool's order; nil
// when none is (the tool is not listed).
func Actions(ts *gtmgate.Toolset, e *registry.Entry) []gtmgate.Action {
	var out []gtmgate.Action
	for _, a := range e.Actions {
		if Allows(ts, e, a) {
			out = append(out, a)
		}
	}
	return out
}

// Check refuses a call of action a of tool e that ts, the toolset name of
// tenant tenantID, does not allow.
func Check(ts *gtmgate.Toolset, tenantID, name string, e *registry.Entry, a gtmgate.Action) error {
	if Allows(ts, e, a) {
		return nil
	}
	what := e.Name + "." + a.Name
	if len(e.Actions) == 1 {
		what = e.Name
	}
	err := gtmgate.Errorf(gtmgate.EForbidden, "this agent's toolset %q does not allow %s", name, what)
	if ts.ReadOnly && a.Mutating {
		err.Message += ": the toolset is read-only"
	}
	return err.WithHint("list what the agent may call with tools/list; an operator widens the toolset with PUT /admin/tenants/" + tenantID + "/toolsets/" + name)
}

// Account returns the account of provider that a call may act on: the one
// requested (or the tenant's default) when ts allows it, else, with none
// requested, the first account ts allows. ok is false when the requested
// account is not allowed.
func Account(ts *gtmgate.Toolset, provider string, accounts gtmgate.ProviderAccounts, requested string) (acct gtmgate.Account, ok bool) {
	acct, found := accounts.Account(requested)
	allowed, limited := accountsOf(ts, provider)
	if !limited {
		return acct, found
	}
	if found && slices.Contains(allowed, acct.ID) {
		return acct, true
	}
	if requested != "" {
		return gtmgate.Account{}, false
	}
	for _, a := range accounts.Accounts {
		if slices.Contains(allowed, a.ID) {
			return a, true
		}
	}
	return gtmgate.Account{}, false
}

// AllowedAccounts lists the account ids of provider that ts allows, nil
// when it does not limit them.
func AllowedAccounts(ts *gtmgate.Toolset, provider string) []string {
	allowed, _ := accountsOf(ts, provider)
	return allowed
}

func accountsOf(ts *gtmgate.Toolset, provider string) ([]string, bool) {
	if ts == nil {
		return nil, false
	}
	allowed, limited := ts.Accounts[provider]
	return allowed, limited
}

// matches reports whether rule matches action a of the tool named tool.
func matches(rule, tool string, a gtmgate.Action) bool {
	switch {
	case rule == "*":
		return true
	case strings.HasPrefix(rule, gtmgate.ToolsetCategoryPrefix):
		return string(a.Category) == strings.TrimPrefix(rule, gtmgate.ToolsetCategoryPrefix)
	}
	// The whole name first: an upstream MCP server's tool may have a dot in
	// its own name ("acme__issues.create").
	if ok, _ := path.Match(rule, tool); ok {
		return true
	}
	toolGlob, actionGlob, hasAction := strings.Cut(rule, ".")
	if !hasAction {
		return false
	}
	okTool, _ := path.Match(toolGlob, tool)
	okAction, _ := path.Match(actionGlob, a.Name)
	return okTool && okAction
}

// Validate checks a toolset named name of tenant t against the built-in
// tools of reg: every rule must name a category, a pattern of a tenant's
// upstream MCP server (server__…), or built-in tools and actions that
// exist; every account must be one of the tenant's. The error is a
// VALIDATION_ERROR naming the field.
func Validate(name string, ts *gtmgate.Toolset, reg *registry.Registry, t *gtmgate.Tenant) error {
	bad := func(format string, args ...any) error {
		return gtmgate.Errorf(gtmgate.EValidation, "toolsets.%s.%s", name, fmt.Sprintf(format, args...))
	}
	if !NamePattern.MatchString(name) {
		return gtmgate.Errorf(gtmgate.EValidation, "toolset name %q must be 1-63 lowercase letters, digits, '-' or '_', starting with a letter or digit", name)
	}
	if ts == nil {
		return gtmgate.Errorf(gtmgate.EValidation, "toolsets.%s must be an object", name)
	}
	if len(ts.Allow) == 0 {
		return bad(`allow must hold at least one rule ("*" allows every tool)`)
	}
	for field, rules := range map[string][]string{"allow": ts.Allow, "deny": ts.Deny} {
		for i, rule := range rules {
			if err := checkRule(rule, reg); err != "" {
				return bad("%s[%d]: %s", field, i, err)
			}
		}
	}
	for i, name := range ts.Pinned {
		if strings.Contains(name, gtmgate.FederatedSeparator) {
			continue // an upstream MCP server's tool comes and goes with it
		}
		if _, ok := reg.Tool(name); !ok {
			return bad("pinned[%d]: unknown tool %q", i, name)
		}
	}
	if len(ts.Pinned) > 0 && !ts.Discovery {
		return bad("pinned names the tools listed in discovery mode: set discovery to true, or leave pinned out")
	}
	for provider, ids := range ts.Accounts {
		pa, ok := t.Providers[provider]
		if !ok {
			return bad("accounts.%s: the tenant has no %s accounts", provider, provider)
		}
		if len(ids) == 0 {
			return bad("accounts.%s must list at least one account (leave the provider out to allow all)", provider)
		}
		for i, id := range ids {
			if _, ok := pa.Account(id); !ok || id == "" {
				return bad("accounts.%s[%d]: %q is not one of the tenant's %s accounts", provider, i, id, provider)
			}
		}
	}
	return nil
}

// checkRule says what is wrong with a rule ("" when nothing is).
func checkRule(rule string, reg *registry.Registry) string {
	if rule == "*" {
		return ""
	}
	if c, ok := strings.CutPrefix(rule, gtmgate.ToolsetCategoryPrefix); ok {
		if !slices.Contains(gtmgate.Categories, gtmgate.Category(c)) {
			return fmt.Sprintf("unknown category %q; categories: %s", c, categoryList())
		}
		return ""
	}
	if _, err := path.Match(rule, ""); err != nil || strings.TrimSpace(rule) != rule || rule == "" {
		return fmt.Sprintf("%q is not a rule: a tool name or glob, tool.action, category:<name>, server__<glob> or *", rule)
	}
	if strings.Contains(rule, gtmgate.FederatedSeparator) {
		// An upstream MCP server's tools come and go with the server: the
		// pattern is kept as written.
		return ""
	}
	toolGlob, actionGlob, hasAction := strings.Cut(rule, ".")
	var tools, actions int
	for _, e := range reg.Tools() {
		if ok, _ := path.Match(toolGlob, e.Name); !ok {
			continue
		}
		tools++
		for _, a := range e.Actions {
			if ok, _ := path.Match(actionGlob, a.Name); ok {
				actions++
			}
		}
	}
	switch {
	case tools == 0:
		return fmt.Sprintf("unknown tool %q: no built-in tool matches it", toolGlob)
	case hasAction && actions == 0:
		return fmt.Sprintf("unknown action %q: no action of the tools matching %q has that name", actionGlob, toolGlob)
	}
	return ""
}

func categoryList() string {
	names := make([]string, len(gtmgate.Categories))
	for i, c := range gtmgate.Categories {
		names[i] = string(c)
	}
	return strings.Join(names, ", ")
}
