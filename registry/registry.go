// Package registry holds the set of tools: it checks their declarations,
// builds each tool's full JSON Schema (common fields added uniformly) and
// validates call input against it.
package registry

import (
	"fmt"
	"regexp"
	"slices"
	"sort"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
)

// Domains are the REST path domains, in documentation order.
var Domains = []string{"crm", "ads", "analytics", "email", "calendar", "search", "data", "agents"}

// DomainTitles describe each domain for docs and skills.
var DomainTitles = map[string]string{
	"crm":       "CRM (HubSpot): contacts, companies, deals, notes, tasks, associations, pipelines, properties",
	"ads":       "Advertising: Google Ads, Meta Ads and LinkedIn Ads reporting and campaign changes",
	"analytics": "Analytics: GA4 reports, realtime and metadata; Search Console queries",
	"email":     "Email (Gmail): messages, threads, sending and drafts",
	"calendar":  "Calendar (Google Calendar): events and free/busy",
	"search":    "Search: web and news search (Brave), fetching public pages as markdown",
	"data":      "Data: BigQuery read-only queries and schemas, Google Sheets values",
	"agents":    "Agents: feedback, approval status, agent runs and schedules",
}

var toolName = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)

// Entry is a registered tool with its full input schema and the schema of
// its successful call result (the envelope MCP returns as structuredContent).
type Entry struct {
	*gtmgate.Tool
	Schema   *jsonschema.Schema
	Output   *jsonschema.Schema
	resolved *jsonschema.Resolved
	output   *jsonschema.Resolved
	hints    Hints
	// federated is set on an upstream MCP server's tool.
	federated *Federated
}

// Registry is an immutable set of tools.
type Registry struct {
	entries  []*Entry
	byName   map[string]*Entry
	byDomain map[string][]*Entry
}

// New checks the tools and builds their schemas. It fails on a duplicate or
// malformed name, an unknown domain, a tool without actions, or a schema that
// does not resolve.
func New(tools ...gtmgate.Tool) (*Registry, error) {
	r := &Registry{byName: map[string]*Entry{}, byDomain: map[string][]*Entry{}}
	for i := range tools {
		t := tools[i]
		if !toolName.MatchString(t.Name) {
			return nil, fmt.Errorf("registry: tool name %q is not within [A-Za-z0-9_.-]{1,64}", t.Name)
		}
		if _, dup := r.byName[t.Name]; dup {
			return nil, fmt.Errorf("registry: tool %q registered twice", t.Name)
		}
		if !slices.Contains(Domains, t.Domain) {
			return nil, fmt.Errorf("registry: tool %q has unknown domain %q", t.Name, t.Domain)
		}
		if len(t.Actions) == 0 || t.Run == nil {
			return nil, fmt.Errorf("registry: tool %q needs at least one action and a Run func", t.Name)
		}
		for _, a := range t.Actions {
			if a.Name == "" || !slices.Contains(gtmgate.Categories, a.Category) {
				return nil, fmt.Errorf("registry: tool %q action %q needs a name and a known category", t.Name, a.Name)
			}
			if (a.Destructive || a.Additive) && !a.Mutating {
				return nil, fmt.Errorf("registry: tool %q action %q is destructive or additive but not mutating", t.Name, a.Name)
			}
			if a.Destructive && a.Additive {
				return nil, fmt.Errorf("registry: tool %q action %q cannot be both destructive and additive", t.Name, a.Name)
			}
			if a.Before != nil && !a.Mutating {
				// Only a held call has a before: reads are never held.
				return nil, fmt.Errorf("registry: tool %q action %q reads the state before it but does not change any", t.Name, a.Name)
			}
			for _, req := range a.Required {
				if _, ok := t.Properties[req]; !ok {
					return nil, fmt.Errorf("registry: tool %q action %q requires undeclared property %q", t.Name, a.Name, req)
				}
			}
		}
		schema := BuildSchema(&t)
		if err := CheckPortable(schema); err != nil {
			return nil, fmt.Errorf("registry: tool %q input %w", t.Name, err)
		}
		resolved, err := schema.Resolve(nil)
		if err != nil {
			return nil, fmt.Errorf("registry: tool %q schema: %w", t.Name, err)
		}
		output := OutputSchema(&t)
		outputResolved, err := output.Resolve(nil)
		if err != nil {
			return nil, fmt.Errorf("registry: tool %q output schema: %w", t.Name, err)
		}
		e := &Entry{Tool: &t, Schema: schema, resolved: resolved, Output: output, output: outputResolved, hints: ownHints(&t)}
		r.entries = append(r.entries, e)
		r.byName[t.Name] = e
		r.byDomain[t.Domain] = append(r.byDomain[t.Domain], e)
	}
	r.delegateHints()
	sort.SliceStable(r.entries, func(i, j int) bool {
		di, dj := slices.Index(Domains, r.entries[i].Domain), slices.Index(Domains, r.entries[j].Domain)
		if di != dj {
			return di < dj
		}
		return r.entries[i].Name < r.entries[j].Name
	})
	return r, nil
}

// MustNew is New for tool sets known to be valid.
func MustNew(tools ...gtmgate.Tool) *Registry {
	r, err := New(tools...)
	if err != nil {
		panic(err)
	}
	return r
}

// Tools returns every tool in domain order.
func (r *Registry) Tools() []*Entry { return r.entries }

// Tool returns the named tool.
func (r *Registry) Tool(name string) (*Entry, bool) {
	e, ok := r.byName[name]
	return e, ok
}

// Domain returns the tools of one domain.
func (r *Registry) Domain(domain string) []*Entry { return r.byDomain[domain] }

// Len returns the number of tools.
func (r *Registry) Len() int { return len(r.entries) }

// Annotations returns the first three of the entry's Hints: read-only,
// destructive, idempotent.
func (e *Entry) Annotations() (readOnly, destructive, idempotent bool) {
	return e.hints.ReadOnly, e.hints.Destructive, e.hints.Idempotent
}

// Narrowed returns e as an agent limited to actions (a subset of e's, in
// e's order) sees it in a tool list: its input schema's action enum, its
// output schema and its hints built from those actions only, so a
// read-only cut of a tool is announced read-only. It is for listing: calls
// still run through e, where the toolset decides again.
func (e *Entry) Narrowed(actions []gtmgate.Action) *Entry {
	if len(actions) == len(e.Actions) || e.federated != nil {
		return e
	}
	t := *e.Tool
	t.Actions = actions
	h := ownHints(&t)
	if t.Delegates {
		h = e.hints // settled over the tools it delegates to
	}
	return &Entry{Tool: &t, Schema: BuildSchema(&t), Output: OutputSchema(&t), hints: h}
}
