package site

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gtmgate/gtmgate/content"
	"github.com/gtmgate/gtmgate/registry"
)

// skillsSchema is the Agent Skills Discovery v0.2.0 index schema.
const skillsSchema = "https://schemas.agentskills.io/discovery/0.2.0/schema.json"

// skillsIndex is /.well-known/agent-skills/index.json.
type skillsIndex struct {
	Schema string       `json:"$schema"`
	Skills []skillEntry `json:"skills"`
	// OpenAPI is the site's API description, for agents that read one.
	OpenAPI string `json:"openapi"`
}

// skillEntry is one skill. Access is "public" or "tenant"; tenant-bound
// skills say how to authenticate in Auth and which tools they cover.
type skillEntry struct {
	Name        string     `json:"name"`
	Type        string     `json:"type"`
	Description string     `json:"description"`
	URL         string     `json:"url"`
	Digest      string     `json:"digest"`
	Access      string     `json:"access"`
	Auth        *skillAuth `json:"auth,omitempty"`
	Tools       []string   `json:"tools,omitempty"`
}

type skillAuth struct {
	Type        string   `json:"type"`
	Schemes     []string `json:"schemes"`
	MCP         string   `json:"mcp"`
	REST        string   `json:"rest"`
	Obtain      string   `json:"obtain"`
	Description string   `json:"description"`
}

// skill is a generated SKILL.md and its index entry.
type skill struct {
	entry skillEntry
	doc   []byte
}

// skillResources renders every SKILL.md and the index whose digests are the
// SHA-256 of exactly those bytes.
func skillResources(t *content.Tree, opts Options) ([]content.Resource, error) {
	skills := append(publicSkills(t, opts), tenantSkills(opts)...)
	idx := skillsIndex{Schema: skillsSchema, Skills: []skillEntry{}, OpenAPI: t.URL(PathOpenAPI)}
	var res []content.Resource
	for _, s := range skills {
		path := skillsDirectory + s.entry.Name + "/SKILL.md"
		sum := sha256.Sum256(s.doc)
		s.entry.Type, s.entry.URL, s.entry.Digest = "skill-md", t.URL(path), "sha256:"+hex.EncodeToString(sum[:])
		idx.Skills = append(idx.Skills, s.entry)
		res = append(res, content.Resource{Path: path, ContentType: content.TypeMarkdown, Data: s.doc})
	}
	data, err := json.MarshalIndent(idx, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("site: skills index: %w", err)
	}
	return append(res, content.Resource{Path: PathSkills, ContentType: content.TypeJSON, Data: append(data, '\n')}), nil
}

// skillDoc renders a SKILL.md: YAML front matter (name, description) and body.
func skillDoc(name, description, body string) []byte {
	return []byte("---\nname: " + name + "\ndescription: " + yamlString(description) + "\n---\n\n" + strings.TrimSpace(body) + "\n")
}

// yamlString quotes s as a YAML double-quoted scalar (JSON strings are valid).
func yamlString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func publicSkills(t *content.Tree, opts Options) []skill {
	name := t.SiteName()
	readBody := fmt.Sprintf(`# Read %[1]s

Everything on %[2]s is public and %[3]s. No credentials.

1. Start with %[2]s/llms.txt: a curated map of the site with one markdown URL per page.
2. Read any page as markdown: append .md to its URL (%[2]s/about.md; the home page is %[2]s/index.md), or send Accept: text/markdown to the page URL.
3. For deep grounding, %[2]s/llms-full.txt holds the whole site in one document.
4. %[2]s/sitemap.xml lists every page with its last modification date.

Responses carry x-markdown-tokens (an estimate: bytes / 4) so you can budget context, and strong ETags: send If-None-Match to re-validate.
`, name, opts.SiteURL, skillTerms(t.Signal()))
	mcpBody := fmt.Sprintf(`# Search %[1]s over MCP

A read-only MCP server (streamable HTTP, stateless, protocol 2025-11-25) at %[2]s/public-mcp. No credentials.

Tools:

- search {query, section?, limit?}: full-text search; words are stemmed, "quotes" make a phrase, a trailing * a prefix.
- get_page {path}: one page as markdown, by path ("/about") or URL.
- list_pages {section?}: every page with its URL and description.

Each page is also an MCP resource whose URI is its markdown URL. The server card is at %[2]s/.well-known/mcp/server-card.json.
`, name, opts.SiteURL)
	return []skill{
		{entry: skillEntry{Name: "read-site", Access: "public", Description: "Read " + name + " as markdown: llms.txt, per-page .md URLs, the full corpus and the sitemap."},
			doc: skillDoc("read-site", "Read "+name+" as markdown: llms.txt, per-page .md URLs, the full corpus and the sitemap.", readBody)},
		{entry: skillEntry{Name: "site-mcp", Access: "public", Description: "Search and read " + name + " through its public read-only MCP server."},
			doc: skillDoc("site-mcp", "Search and read "+name+" through its public read-only MCP server.", mcpBody)},
	}
}

// skillTerms completes "Everything on the site is public and …" with the
// site's content usage signal.
func skillTerms(s content.Signal) string {
	if s.PermitsAll() {
		return "free to use (Content-Signal: " + s.String() + ")"
	}
	return "free to read, but not for " + orList(s.Withheld()) + " (Content-Signal: " + s.String() + ")"
}

// tenantSkills renders one skill per gateway tool domain.
func tenantSkills(opts Options) []skill {
	if opts.Registry == nil {
		return nil
	}
	var out []skill
	for _, d := range registry.Domains {
		tools := opts.Registry.Domain(d)
		if len(tools) == 0 {
			continue
		}
		name := "gtm-" + d
		desc := registry.DomainTitles[d] + ". Tenant-bound: needs a bearer token for the gateway."
		e := skillEntry{Name: name, Access: "tenant", Description: desc, Auth: &skillAuth{
			Type: "bearer", Schemes: []string{"bearer", "oauth2"},
			MCP: opts.GatewayURL + "/mcp", REST: opts.GatewayURL + "/api/v1/{tenant}/" + d,
			Obtain:      "Tenant bearer tokens are issued by the operator on request.",
			Description: "Authorization: Bearer <token> on the gateway's /mcp or REST proxy; MCP clients may use OAuth 2.1 (PKCE S256, dynamic client registration) instead.",
		}}
		for _, tool := range tools {
			e.Tools = append(e.Tools, tool.Name)
		}
		out = append(out, skill{entry: e, doc: skillDoc(name, desc, domainSkillBody(d, tools, opts))})
	}
	return out
}

func domainSkillBody(domain string, tools []*registry.Entry, opts Options) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", registry.DomainTitles[domain])
	fmt.Fprintf(&b, "These tools act on a tenant's own accounts through the gateway. Every call needs the tenant's bearer token and a `rationale` (why you make the call, one sentence).\n\n")
	fmt.Fprintf(&b, "## Connect\n\n- MCP (the model picks the tool): %s/mcp with `Authorization: Bearer <token>`, or OAuth 2.1 with PKCE S256 and dynamic client registration.\n", opts.GatewayURL)
	fmt.Fprintf(&b, "- REST (you name the tool): `POST %s/api/v1/{tenant}/%s` with `Authorization: Bearer <token>` and body `{\"tool\": \"<name>\", \"input\": {\"rationale\": \"…\", …}}`. A key sent as `x-api-key` is rejected.\n\n", opts.GatewayURL, domain)
	fmt.Fprintf(&b, "Full input schemas: %s/reference/tools/%s.md, or `tools/list` over MCP.\n\n## Tools\n\n", opts.DocsURL, domain)
	for _, tool := range tools {
		fmt.Fprintf(&b, "### %s\n\n%s\n\n", tool.Name, tool.Description)
		for _, a := range tool.Actions {
			effect := "read-only"
			if a.Mutating {
				effect = "changes data; may need approval"
			}
			fmt.Fprintf(&b, "- `%s` (%s, %s)", a.Name, a.Category, effect)
			if a.Description != "" {
				b.WriteString(": " + a.Description)
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	return b.String()
}
