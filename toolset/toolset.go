// Package toolset decides what an agent limited to a tenant toolset may see
// and do: which tools and actions, and which of the tenant's accounts. The
// same decision serves tools/list, tools/call, the REST proxy and the runs
// and schedules an agent starts (they carry its credential, so its toolset).
package toolset

import (
	"errors"
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

// ErrHidden is the cause of Check's refusal when the toolset allows no
// action of the tool at all, so that tools/list leaves it out: a surface
// that answers as its list does (the admin API's tool call) tells this
// from a refused action of a listed tool by it, not by a decision of its own.
var ErrHidden = errors.New("the toolset lists no action of the tool")

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
	if Actions(ts, e) == nil {
		err.Err = ErrHidden
	}
	if ts.ReadOnly && a.Mutating {
		err.Message += ": the toolset is read-only"
	}
	return err.WithHint("list what the agent may call with tools/list; an operator widens the toolset with PUT /admin/tenants/" + tenantID + "/toolsets/" + name)
}

// Account returns the account of provider that a call by credential c,
// limited to ts, acts on. An agent acting for a person reaches the shared
// accounts and that person's own, never another person's; an agent acting
// for nobody reaches the shared ones; an operator's credential reaches
// every account. ts may narrow that further.
//
// With an account requested, it is that account or a FORBIDDEN naming what
// the agent may use instead. With none: the person's own account (the
// tenant's default when it is theirs, else their first), else the tenant's
// default, else the first usable account in the tenant's order.
// requested must be one of accounts (the caller checks that first).
func Account(ts *gtmgate.Toolset, c gtmgate.Credential, provider string, accounts gtmgate.ProviderAccounts, requested string) (gtmgate.Account, error) {
	allowed, limited := accountsOf(ts, provider)
	usable := func(a gtmgate.Account) bool {
		if limited && !slices.Contains(allowed, a.ID) {
			return false
		}
		return c.ReachesEveryAccount() || a.MayUse(c.Person)
	}
	if requested != "" {
		a, _ := accounts.Account(requested)
		if usable(a) {
			return a, nil
		}
		return gtmgate.Account{}, refusal(c, provider, accounts, a, usable, limited)
	}
	def, _ := accounts.Account("")
	if c.Person != "" && !c.ReachesEveryAccount() {
		own := slices.IndexFunc(accounts.Accounts, func(a gtmgate.Account) bool { return a.Person == c.Person && usable(a) })
		switch {
		case def.Person == c.Person && usable(def):
			return def, nil
		case own >= 0:
			return accounts.Accounts[own], nil
		}
	}
	if def.ID != "" && usable(def) {
		return def, nil
	}
	if i := slices.IndexFunc(accounts.Accounts, usable); i >= 0 {
		return accounts.Accounts[i], nil
	}
	return gtmgate.Account{}, refusal(c, provider, accounts, gtmgate.Account{}, usable, limited)
}

// refusal says why the account an agent asked for (a; empty when it named
// none and none was usable) is out of its reach, and what it may use.
// limited says the agent's toolset lists the provider's accounts it may use.
func refusal(c gtmgate.Credential, provider string, accounts gtmgate.ProviderAccounts, a gtmgate.Account, usable func(gtmgate.Account) bool, limited bool) error {
	var may []string
	for _, u := range accounts.Accounts {
		if usable(u) {
			may = append(may, u.ID)
		}
	}
	mayUse := "it may use: " + strings.Join(may, ", ")
	if len(may) == 0 {
		mayUse = "it may use none"
	}
	var err *gtmgate.Error
	switch {
	case a.ID == "":
		err = gtmgate.Errorf(gtmgate.EForbidden, "this agent may use none of the tenant's %s accounts", provider)
	case !a.MayUse(c.Person) && c.Person == "":
		err = gtmgate.Errorf(gtmgate.EForbidden, "%s account %q is a person's own, and this agent acts for no person; %s", provider, a.ID, mayUse)
	case !a.MayUse(c.Person):
		err = gtmgate.Errorf(gtmgate.EForbidden, "%s account %q is another person's own; this agent acts for %s; %s", provider, a.ID, c.Person, mayUse)
	default:
		err = gtmgate.Errorf(gtmgate.EForbidden, "this agent's toolset %q does not allow %s account %q; %s", c.Toolset, provider, a.ID, mayUse)
	}
	if c.Person != "" && len(may) == 0 {
		// The agent named no account and none is usable: connecting one of
		// their own is what the person can do about it. Say so by type,
		// for the clients that can send them to the console's page
		// (mcpgateway's connect elicitation). Not when the agent named an
		// account (a new one of theirs would not be it), nor when the
		// toolset lists the accounts (a new one is not among them): the
		// person would be asked again after every connection.
		if a.ID == "" && !limited {
			err.Detail = gtmgate.UnconnectedAccount{Provider: provider, Person: c.Person}
		}
		return err.WithHint("the person connects their own " + provider + " account through a connect link issued for them (POST /admin/tenants/{id}/connect-links with \"person\")")
	}
	return err.WithHint("name one of those accounts in account_id, or leave it out")
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
