package connect

import (
	"slices"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/registry"
)

// ToolNeed is one tool action a tenant may call through the grant: what
// Scopes asks the provider for.
type ToolNeed struct {
	// Provider is the tool's provider key ("gmail").
	Provider string
	Tool     string
	Action   string
	// Mutating actions need write scopes.
	Mutating bool
}

const g = "https://www.googleapis.com/auth/"

// Read and write scopes of each provider key: read is asked for whenever
// one of the key's tools is used, write when a mutating action of it is.
// An action listed in actionScopes adds those instead of write. Each
// is the narrowest scope that admits the operations the tools call, as
// each operation's scopes are listed in the provider's spec
// (provider/<x>/apispec.json, Operation.Scopes) and the actions are mapped
// to operations by the adapters' TestEveryActionIsChecked walks (the
// "checked against" list `make test` prints); scopecheck's test holds
// them to both.
var readScopes = map[string][]string{
	// Google Ads has one scope for reading and changing.
	"google_ads":      {g + "adwords"},
	"ga4":             {g + "analytics.readonly"},
	"search_console":  {g + "webmasters.readonly"},
	"gmail":           {g + "gmail.readonly"},
	"google_calendar": {g + "calendar.events.readonly"},
	// BigQuery runs its read-only queries as jobs (jobs.insert), which
	// only the bigquery and cloud-platform scopes admit; bigquery is the
	// narrower of the two.
	"bigquery":     {g + "bigquery"},
	"sheets":       {g + "spreadsheets.readonly"},
	"meta_ads":     {"ads_read"},
	"linkedin_ads": {"r_ads", "r_ads_reporting"},
	// Notes and tasks take the contacts scopes; properties the schemas'.
	"hubspot": {"crm.objects.contacts.read", "crm.objects.companies.read", "crm.objects.deals.read",
		"crm.schemas.contacts.read", "crm.schemas.companies.read", "crm.schemas.deals.read"},
}

var writeScopes = map[string][]string{
	"google_ads":      {g + "adwords"},
	"google_calendar": {g + "calendar.events"},
	"sheets":          {g + "spreadsheets"},
	"meta_ads":        {"ads_management"},
	"linkedin_ads":    {"rw_ads"},
	"hubspot":         {"crm.objects.contacts.write", "crm.objects.companies.write", "crm.objects.deals.write"},
	"gmail":           {g + "gmail.send", g + "gmail.compose"},
}

// actionScopes are what single actions add to the read scopes, in place
// of Write: a narrower write scope, or a read scope only they need.
var actionScopes = map[string][]string{
	"email_send.send":         {g + "gmail.send"},
	"email_send.draft":        {g + "gmail.compose"},
	"calendar_freebusy.query": {g + "calendar.freebusy"},
	"crm_contacts.create":     {"crm.objects.contacts.write"},
	"crm_contacts.update":     {"crm.objects.contacts.write"},
	"crm_companies.create":    {"crm.objects.companies.write"},
	"crm_companies.update":    {"crm.objects.companies.write"},
	"crm_deals.create":        {"crm.objects.deals.write"},
	"crm_deals.update":        {"crm.objects.deals.write"},
	"crm_notes.create":        {"crm.objects.contacts.write"},
	"crm_tasks.create":        {"crm.objects.contacts.write"},
	"crm_tasks.update":        {"crm.objects.contacts.write"},
	// Associations are written on both records; the tools associate
	// contacts, companies and deals.
	"crm_associations.create": {"crm.objects.contacts.write", "crm.objects.companies.write", "crm.objects.deals.write"},
}

// OpenID scopes Google is asked for when Gmail or Calendar is covered, to
// name the signed-in address those accounts are.
var googleIdentity = []string{"openid", "email"}

// Scopes are the scopes to ask p for: the least that admit the needs'
// actions of p's provider keys (read-only unless a mutating action is
// needed), then extra (the OAuth app's ExtraScopes), each once, in a
// stable order: Google's openid and email first when Gmail or Calendar
// is needed, then the tools' scopes sorted, then extra in its order.
func Scopes(p Provider, needs []ToolNeed, extra []string) []string {
	var own []string
	identity := false
	for _, n := range needs {
		if !p.Covering(n.Provider) {
			continue
		}
		own = append(own, readScopes[n.Provider]...)
		if s, ok := actionScopes[n.Tool+"."+n.Action]; ok {
			own = append(own, s...)
		} else if n.Mutating {
			own = append(own, writeScopes[n.Provider]...)
		}
		if p.Name == Google && (n.Provider == "gmail" || n.Provider == "google_calendar") {
			identity = true
		}
	}
	slices.Sort(own)
	own = slices.Compact(own)
	var out []string
	if identity {
		out = append(out, googleIdentity...)
	}
	for _, s := range append(own, extra...) {
		if s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// Needs lists the tool actions of reg that t calls through p's grant:
// every action of every tool of p's provider keys (only keys, when not
// empty). gtmgate has no per-tenant switch of tools today, so every
// registered tool counts; readOnly leaves the mutating actions out, for a
// read-only connection. t is taken so that a tenant's own tool settings
// apply here when they exist; it may be nil.
func Needs(reg *registry.Registry, t *gtmgate.Tenant, p Provider, keys []string, readOnly bool) []ToolNeed {
	_ = t
	var out []ToolNeed
	for _, e := range reg.Tools() {
		if !p.Covering(e.Provider) || (len(keys) > 0 && !slices.Contains(keys, e.Provider)) {
			continue
		}
		for _, a := range e.Actions {
			if a.Mutating && readOnly {
				continue
			}
			out = append(out, ToolNeed{Provider: e.Provider, Tool: e.Name, Action: a.Name, Mutating: a.Mutating})
		}
	}
	return out
}
