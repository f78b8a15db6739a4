package gtmgate

// Toolset is a named, reusable cut of a tenant's tools and accounts that an
// agent (a tenant token) is given: what it may see and call, in gtmgate's
// own vocabulary. A credential without a toolset sees every tool and
// account of its tenant, as before toolsets existed.
//
// An action is allowed when an Allow rule matches it, no Deny rule
// matches it, and, with ReadOnly, it does not mutate. Rules are:
//
//   - every tool and action
//     crm_deals             every action of a tool (a glob: crm_*)
//     crm_deals.list        one action of a tool (globs on both sides: crm_*.list)
//     category:ads_mutate   every action in a quality category
//     acme__*               tools of a tenant's upstream MCP server (glob on the name)
type Toolset struct {
	// Description says what the toolset is for, for the people who pick one.
	Description string   `json:"description,omitempty"`
	Allow       []string `json:"allow"`
	Deny        []string `json:"deny,omitempty"`
	// ReadOnly allows no action that changes provider state, whatever the rules say.
	ReadOnly bool `json:"read_only,omitempty"`
	// Accounts limits, per provider key, which of the tenant's accounts the
	// agent may act on; a provider not named keeps all of them. When a call
	// names no account and the tenant's default is not allowed, the first
	// allowed account is used.
	Accounts map[string][]string `json:"accounts,omitempty"`
	// Discovery lists, over MCP, only the Pinned tools (and the gateway's
	// own) plus find_tools and call_tool, which search and run every tool
	// the toolset allows: for agents whose catalogue is too large for their
	// context.
	Discovery bool     `json:"discovery,omitempty"`
	Pinned    []string `json:"pinned,omitempty"`
}

// ToolsetCategoryPrefix starts a rule naming a quality category.
const ToolsetCategoryPrefix = "category:"
