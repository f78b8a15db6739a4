package toolset

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/registry"
)

func run(context.Context, *gtmgate.Call) (any, error) { return nil, nil }

func testRegistry(t *testing.T) *registry.Registry {
	t.Helper()
	reg, err := registry.New(
		gtmgate.Tool{Name: "crm_deals", Domain: "crm", Provider: "hubspot", Run: run, Actions: []gtmgate.Action{
			{Name: "list", Category: gtmgate.CategoryCRMRead, List: true},
			{Name: "get", Category: gtmgate.CategoryCRMRead},
			{Name: "update", Category: gtmgate.CategoryCRMWrite, Mutating: true},
			{Name: "delete", Category: gtmgate.CategoryCRMWrite, Mutating: true, Destructive: true},
		}},
		gtmgate.Tool{Name: "crm_contacts", Domain: "crm", Provider: "hubspot", Run: run, Actions: []gtmgate.Action{
			{Name: "list", Category: gtmgate.CategoryCRMRead, List: true},
			{Name: "create", Category: gtmgate.CategoryCRMWrite, Mutating: true, Additive: true},
		}},
		gtmgate.Tool{Name: "calendar_events", Domain: "calendar", Provider: "gcalendar", Run: run, Actions: []gtmgate.Action{
			{Name: "list", Category: gtmgate.CategoryCalendarOp, List: true},
			{Name: "create", Category: gtmgate.CategoryCalendarOp, Mutating: true, Additive: true},
		}},
		gtmgate.Tool{Name: "gads_campaigns", Domain: "ads", Provider: "google_ads", Run: run, Actions: []gtmgate.Action{
			{Name: "list", Category: gtmgate.CategoryAdsRead, List: true},
			{Name: "update_budget", Category: gtmgate.CategoryAdsMutate, Mutating: true},
		}},
		gtmgate.Tool{Name: "approval_status", Domain: "agents", Run: run, Actions: []gtmgate.Action{
			{Name: "get", Category: gtmgate.CategoryAgentOrchestration},
		}},
		gtmgate.Tool{Name: "submit_feedback", Domain: "agents", Run: run, Actions: []gtmgate.Action{
			{Name: "submit", Category: gtmgate.CategoryErrorRecovery, Mutating: true, Additive: true},
		}},
	)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func federated(t *testing.T, server, tool string, mutating bool) *registry.Entry {
	t.Helper()
	e, err := registry.NewFederated(registry.Federated{Server: server, Upstream: tool, Category: gtmgate.CategoryDataQuery,
		Mutating: mutating, Run: run})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestAllows: rule precedence (deny wins, read-only wins over both),
// actions, categories, globs and upstream servers' tools.
func TestAllows(t *testing.T) {
	reg := testRegistry(t)
	tool := func(name string) *registry.Entry {
		e, ok := reg.Tool(name)
		if !ok {
			t.Fatalf("no tool %s", name)
		}
		return e
	}
	fed := federated(t, "acme", "issues.create", true)
	meetingPrep := &gtmgate.Toolset{Allow: []string{"crm_*", "calendar_*"}, ReadOnly: true}
	for _, tc := range []struct {
		name   string
		ts     *gtmgate.Toolset
		entry  *registry.Entry
		action string
		want   bool
	}{
		{"no toolset allows everything", nil, tool("gads_campaigns"), "update_budget", true},
		{"star", &gtmgate.Toolset{Allow: []string{"*"}}, tool("gads_campaigns"), "update_budget", true},
		{"a whole tool", &gtmgate.Toolset{Allow: []string{"crm_deals"}}, tool("crm_deals"), "delete", true},
		{"not another tool", &gtmgate.Toolset{Allow: []string{"crm_deals"}}, tool("crm_contacts"), "list", false},
		{"one action", &gtmgate.Toolset{Allow: []string{"crm_deals.list"}}, tool("crm_deals"), "list", true},
		{"not the tool's other actions", &gtmgate.Toolset{Allow: []string{"crm_deals.list"}}, tool("crm_deals"), "update", false},
		{"glob over tools and actions", &gtmgate.Toolset{Allow: []string{"crm_*.list"}}, tool("crm_contacts"), "list", true},
		{"glob over tools, other action", &gtmgate.Toolset{Allow: []string{"crm_*.list"}}, tool("crm_contacts"), "create", false},
		{"category", &gtmgate.Toolset{Allow: []string{"category:crm_read"}}, tool("crm_deals"), "get", true},
		{"category, other category", &gtmgate.Toolset{Allow: []string{"category:crm_read"}}, tool("crm_deals"), "update", false},
		{"deny wins over allow", &gtmgate.Toolset{Allow: []string{"*"}, Deny: []string{"category:ads_mutate"}}, tool("gads_campaigns"), "update_budget", false},
		{"deny leaves the rest", &gtmgate.Toolset{Allow: []string{"*"}, Deny: []string{"category:ads_mutate"}}, tool("gads_campaigns"), "list", true},
		{"deny one action", &gtmgate.Toolset{Allow: []string{"crm_deals"}, Deny: []string{"crm_deals.delete"}}, tool("crm_deals"), "delete", false},
		{"read-only refuses a mutation the rules allow", meetingPrep, tool("crm_deals"), "update", false},
		{"read-only allows reads", meetingPrep, tool("calendar_events"), "list", true},
		{"read-only refuses additive writes", meetingPrep, tool("calendar_events"), "create", false},
		{"outside the rules", meetingPrep, tool("gads_campaigns"), "list", false},
		{"gateway tools always", &gtmgate.Toolset{Allow: []string{"crm_deals.list"}, Deny: []string{"*"}, ReadOnly: true}, tool("submit_feedback"), "submit", true},
		{"approval_status always", &gtmgate.Toolset{Allow: []string{"crm_deals.list"}}, tool("approval_status"), "get", true},
		{"upstream server pattern", &gtmgate.Toolset{Allow: []string{"acme__*"}}, fed, registry.FederatedAction, true},
		{"upstream tool with a dot by its whole name", &gtmgate.Toolset{Allow: []string{"acme__issues.create"}}, fed, registry.FederatedAction, true},
		{"another server's pattern", &gtmgate.Toolset{Allow: []string{"other__*"}}, fed, registry.FederatedAction, false},
		{"upstream mutation under read-only", &gtmgate.Toolset{Allow: []string{"acme__*"}, ReadOnly: true}, fed, registry.FederatedAction, false},
		{"upstream tool by category", &gtmgate.Toolset{Allow: []string{"category:data_query"}}, fed, registry.FederatedAction, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, ok := tc.entry.Action(tc.action)
			if !ok {
				t.Fatalf("%s has no action %s", tc.entry.Name, tc.action)
			}
			if got := Allows(tc.ts, tc.entry, a); got != tc.want {
				t.Errorf("Allows = %v, want %v", got, tc.want)
			}
			if err := Check(tc.ts, "acme", "t", tc.entry, a); (err == nil) != tc.want {
				t.Errorf("Check = %v, want allowed %v", err, tc.want)
			} else if err != nil && gtmgate.ErrorCode(err) != gtmgate.EForbidden {
				t.Errorf("Check = %v, want FORBIDDEN", err)
			} else if hidden := Actions(tc.ts, tc.entry) == nil; err != nil && errors.Is(err, ErrHidden) != hidden {
				t.Errorf("Check = %v: ErrHidden %v, want %v (the list leaves the tool out: %v)", err, !hidden, hidden, hidden)
			}
		})
	}
}

func TestActions(t *testing.T) {
	reg := testRegistry(t)
	deals, _ := reg.Tool("crm_deals")
	names := func(as []gtmgate.Action) string {
		var out []string
		for _, a := range as {
			out = append(out, a.Name)
		}
		return strings.Join(out, ",")
	}
	for _, tc := range []struct {
		ts   *gtmgate.Toolset
		want string
	}{
		{nil, "list,get,update,delete"},
		{&gtmgate.Toolset{Allow: []string{"crm_deals"}, ReadOnly: true}, "list,get"},
		{&gtmgate.Toolset{Allow: []string{"crm_deals"}, Deny: []string{"crm_deals.delete"}}, "list,get,update"},
		{&gtmgate.Toolset{Allow: []string{"calendar_*"}}, ""},
	} {
		if got := names(Actions(tc.ts, deals)); got != tc.want {
			t.Errorf("Actions(%+v) = %q, want %q", tc.ts, got, tc.want)
		}
	}
}

// TestAccount: which account a call acts on, by toolset and by the person
// the agent acts for. A toolset narrows; a person's own account is theirs
// alone and their default; an operator reaches every account.
func TestAccount(t *testing.T) {
	pa := gtmgate.ProviderAccounts{Default: "ceo@acme.example", Accounts: []gtmgate.Account{
		{ID: "ceo@acme.example"}, {ID: "rep@acme.example"}, {ID: "ops@acme.example"}}}
	owned := gtmgate.ProviderAccounts{Default: "ceo@acme.example", Accounts: []gtmgate.Account{
		{ID: "ceo@acme.example", Person: "p_ceo"}, {ID: "team@acme.example"}, {ID: "rep@acme.example", Person: "p_rep"},
		{ID: "rep2@acme.example", Person: "p_rep"}}}
	onlyPersonal := gtmgate.ProviderAccounts{Default: "ceo@acme.example", Accounts: []gtmgate.Account{{ID: "ceo@acme.example", Person: "p_ceo"}}}
	rep := &gtmgate.Toolset{Allow: []string{"*"}, Accounts: map[string][]string{"gmail": {"ops@acme.example", "rep@acme.example"}}}
	onlyTeam := &gtmgate.Toolset{Allow: []string{"*"}, Accounts: map[string][]string{"gmail": {"team@acme.example"}}}
	token := gtmgate.Credential{Kind: gtmgate.CredentialToken, ID: "tok_1", Toolset: "x"}
	repAgent := gtmgate.Credential{Kind: gtmgate.CredentialOAuth, ID: "fam_1", Person: "p_rep"}
	ceoAgent := gtmgate.Credential{Kind: gtmgate.CredentialToken, ID: "tok_2", Person: "p_ceo"}
	admin := gtmgate.Credential{Kind: gtmgate.CredentialAdmin}
	for _, tc := range []struct {
		name      string
		ts        *gtmgate.Toolset
		cred      gtmgate.Credential
		accounts  gtmgate.ProviderAccounts
		provider  string
		requested string
		want      string // "" for a refusal
		wantErr   string
	}{
		{"no toolset: the default", nil, token, pa, "gmail", "", "ceo@acme.example", ""},
		{"no toolset: any account", nil, token, pa, "gmail", "rep@acme.example", "rep@acme.example", ""},
		{"limited: default not allowed, the first allowed in the tenant's order", rep, token, pa, "gmail", "", "rep@acme.example", ""},
		{"limited: an allowed account", rep, token, pa, "gmail", "ops@acme.example", "ops@acme.example", ""},
		{"limited: an account outside the toolset", rep, token, pa, "gmail", "ceo@acme.example", "", `toolset "x" does not allow gmail account "ceo@acme.example"; it may use: rep@acme.example, ops@acme.example`},
		{"a provider the toolset does not limit", rep, token, pa, "hubspot", "", "ceo@acme.example", ""},

		{"person: their own account is their default", nil, repAgent, owned, "gmail", "", "rep@acme.example", ""},
		{"person: the tenant's default when it is theirs", nil, ceoAgent, owned, "gmail", "", "ceo@acme.example", ""},
		{"person: another of their own", nil, repAgent, owned, "gmail", "rep2@acme.example", "rep2@acme.example", ""},
		{"person: a shared account by name", nil, repAgent, owned, "gmail", "team@acme.example", "team@acme.example", ""},
		{"person: never another person's", nil, repAgent, owned, "gmail", "ceo@acme.example", "", `"ceo@acme.example" is another person's own; this agent acts for p_rep; it may use: team@acme.example, rep@acme.example, rep2@acme.example`},
		{"person: the toolset narrows their own away", onlyTeam, repAgent, owned, "gmail", "", "team@acme.example", ""},
		{"person without an account of theirs: the shared one", nil, gtmgate.Credential{Kind: gtmgate.CredentialToken, Person: "p_new"}, owned, "gmail", "", "team@acme.example", ""},
		{"person: nothing usable", nil, repAgent, onlyPersonal, "gmail", "", "", "may use none of the tenant's gmail accounts"},
		{"nobody's agent: the tenant's default is a person's, so the first shared", nil, token, owned, "gmail", "", "team@acme.example", ""},
		{"nobody's agent: never a person's", nil, token, owned, "gmail", "rep@acme.example", "", `"rep@acme.example" is a person's own, and this agent acts for no person`},
		{"operator: every account", nil, admin, owned, "gmail", "rep@acme.example", "rep@acme.example", ""},
		{"operator: the tenant's default", nil, admin, owned, "gmail", "", "ceo@acme.example", ""},
		{"an agent run carries its starter's person", nil, gtmgate.Credential{Kind: gtmgate.CredentialOAuth, Person: "p_ceo"}, owned, "gmail", "rep@acme.example", "", "another person's own"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Account(tc.ts, tc.cred, tc.provider, tc.accounts, tc.requested)
			if got.ID != tc.want || (err == nil) != (tc.wantErr == "") {
				t.Fatalf("Account = %q, %v; want %q, error %q", got.ID, err, tc.want, tc.wantErr)
			}
			if err != nil && (!strings.Contains(err.Error(), tc.wantErr) || gtmgate.ErrorCode(err) != gtmgate.EForbidden) {
				t.Errorf("error = %v, want FORBIDDEN containing %q", err, tc.wantErr)
			}
		})
	}
}

// TestUnconnectedAccount: the refusal says by type that the person has an
// account to connect only when the agent acts for them, named no account
// and may use none, and its toolset does not list the accounts; message
// and hint stay as they are.
func TestUnconnectedAccount(t *testing.T) {
	onlyPersonal := gtmgate.ProviderAccounts{Default: "ceo@acme.example", Accounts: []gtmgate.Account{{ID: "ceo@acme.example", Person: "p_ceo"}}}
	repAgent := gtmgate.Credential{Kind: gtmgate.CredentialOAuth, ID: "fam_1", Person: "p_rep"}
	listed := &gtmgate.Toolset{Allow: []string{"*"}, Accounts: map[string][]string{"gmail": {"ceo@acme.example"}}}
	for _, tc := range []struct {
		name      string
		ts        *gtmgate.Toolset
		cred      gtmgate.Credential
		requested string
		want      bool
	}{
		{"a person's agent, no account named, none usable", nil, repAgent, "", true},
		{"a person's agent naming another person's account", nil, repAgent, "ceo@acme.example", false},
		{"a toolset that lists the accounts", listed, repAgent, "", false},
		{"an agent of nobody", nil, gtmgate.Credential{Kind: gtmgate.CredentialToken, ID: "tok_1"}, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Account(tc.ts, tc.cred, "gmail", onlyPersonal, tc.requested)
			if err == nil {
				t.Fatal("Account found one")
			}
			u, ok := gtmgate.UnconnectedAccountOf(err)
			if ok != tc.want || ok && (u != gtmgate.UnconnectedAccount{Provider: "gmail", Person: "p_rep"}) {
				t.Errorf("UnconnectedAccountOf(%v) = %+v, %v; want %v", err, u, ok, tc.want)
			}
			if e := gtmgate.AsError(err); ok && (e.Message != "this agent may use none of the tenant's gmail accounts" ||
				!strings.Contains(e.Hint, "connect link issued for them")) {
				t.Errorf("message and hint changed: %v (%s)", err, e.Hint)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	reg := testRegistry(t)
	tenant := &gtmgate.Tenant{ID: "acme", Providers: map[string]gtmgate.ProviderAccounts{
		"gmail": {Default: "a@x", Accounts: []gtmgate.Account{{ID: "a@x"}, {ID: "b@x"}}}}}
	for _, tc := range []struct {
		name    string
		tsName  string
		ts      *gtmgate.Toolset
		wantErr string
	}{
		{"good", "meeting-prep", &gtmgate.Toolset{Allow: []string{"crm_*.list", "calendar_events", "category:crm_read", "acme__*", "*"},
			Deny: []string{"crm_deals.delete"}, Accounts: map[string][]string{"gmail": {"b@x"}}}, ""},
		{"bad name", "Meeting Prep", &gtmgate.Toolset{Allow: []string{"*"}}, "toolset name"},
		{"empty allow", "t", &gtmgate.Toolset{}, "allow must hold at least one rule"},
		{"unknown tool", "t", &gtmgate.Toolset{Allow: []string{"crm_dealz"}}, `allow[0]: unknown tool "crm_dealz"`},
		{"unknown action", "t", &gtmgate.Toolset{Allow: []string{"crm_deals.remove"}}, `allow[0]: unknown action "remove"`},
		{"unknown category", "t", &gtmgate.Toolset{Allow: []string{"category:ads_write"}}, `unknown category "ads_write"`},
		{"bad deny", "t", &gtmgate.Toolset{Allow: []string{"*"}, Deny: []string{"gads_*.pause"}}, `deny[0]: unknown action "pause"`},
		{"malformed glob", "t", &gtmgate.Toolset{Allow: []string{"crm_[deals"}}, "is not a rule"},
		{"blank rule", "t", &gtmgate.Toolset{Allow: []string{" crm_deals"}}, "is not a rule"},
		{"provider without accounts", "t", &gtmgate.Toolset{Allow: []string{"*"}, Accounts: map[string][]string{"hubspot": {"1"}}}, "the tenant has no hubspot accounts"},
		{"unknown account", "t", &gtmgate.Toolset{Allow: []string{"*"}, Accounts: map[string][]string{"gmail": {"c@x"}}}, `"c@x" is not one of the tenant's gmail accounts`},
		{"empty account list", "t", &gtmgate.Toolset{Allow: []string{"*"}, Accounts: map[string][]string{"gmail": {}}}, "must list at least one account"},
		{"null toolset", "t", nil, "must be an object"},
		{"discovery with pinned tools", "t", &gtmgate.Toolset{Allow: []string{"*"}, Discovery: true, Pinned: []string{"crm_deals", "acme__search"}}, ""},
		{"pinned unknown tool", "t", &gtmgate.Toolset{Allow: []string{"*"}, Discovery: true, Pinned: []string{"crm_dealz"}}, `pinned[0]: unknown tool "crm_dealz"`},
		{"pinned without discovery", "t", &gtmgate.Toolset{Allow: []string{"*"}, Pinned: []string{"crm_deals"}}, "set discovery to true"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Validate(tc.tsName, tc.ts, reg, tenant)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("Validate: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr) || gtmgate.ErrorCode(err) != gtmgate.EValidation):
				t.Fatalf("Validate = %v, want VALIDATION_ERROR containing %q", err, tc.wantErr)
			}
		})
	}
}

// TestFor: a credential without a toolset has none; one whose toolset was
// deleted is refused, not given everything.
func TestFor(t *testing.T) {
	tenant := &gtmgate.Tenant{ID: "acme", Toolsets: map[string]*gtmgate.Toolset{"sdr": {Allow: []string{"crm_*"}}}}
	if ts, err := For(tenant, gtmgate.Credential{Kind: gtmgate.CredentialToken, ID: "tok"}); ts != nil || err != nil {
		t.Errorf("no toolset: %v %v", ts, err)
	}
	if ts, err := For(tenant, gtmgate.Credential{Kind: gtmgate.CredentialToken, ID: "tok", Toolset: "sdr"}); ts == nil || err != nil {
		t.Errorf("sdr: %v %v", ts, err)
	}
	if _, err := For(tenant, gtmgate.Credential{Kind: gtmgate.CredentialToken, ID: "tok", Toolset: "gone"}); gtmgate.ErrorCode(err) != gtmgate.EForbidden {
		t.Errorf("deleted toolset: %v, want FORBIDDEN", err)
	}
}
