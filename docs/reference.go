package docs

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gtmgate/gtmgate/registry"
)

// ReferencePath is where the generated tool reference lives in the docs tree.
const ReferencePath = "reference/tools"

// toolReference generates the tool reference as markdown files added to the
// docs tree: reference/tools/index.md (every domain and tool) and one page per
// domain with each tool's actions (category, mutating, destructive) and full
// input JSON Schema. Generated at load from the registry, never copied by hand.
func toolReference(reg *registry.Registry, gatewayURL string) map[string][]byte {
	if reg == nil {
		return nil
	}
	files := map[string][]byte{}
	var idx strings.Builder
	fmt.Fprintf(&idx, "---\ntitle: Tool reference\ndescription: %s\norder: 900\n---\n\n",
		yamlQuote(fmt.Sprintf("All %d gateway tools by domain, with actions and full input JSON Schemas, generated from the tool registry.", reg.Len())))
	fmt.Fprintf(&idx, "The gateway exposes %d tools in %d domains. Call them over MCP at `%s/mcp` (`tools/list` returns the same schemas) or over REST at `POST %s/api/v1/{tenant}/{domain}` with `{\"tool\": …, \"input\": {…}}`. Every call needs `rationale`.\n\n",
		reg.Len(), len(registry.Domains), gatewayURL, gatewayURL)
	for i, d := range registry.Domains {
		tools := reg.Domain(d)
		if len(tools) == 0 {
			continue
		}
		fmt.Fprintf(&idx, "## %s\n\n", registry.DomainTitles[d])
		for _, t := range tools {
			fmt.Fprintf(&idx, "- [%s](/%s/%s#%s): %s\n", t.Name, ReferencePath, d, anchor(t.Name), t.Title)
		}
		idx.WriteString("\n")
		files[ReferencePath+"/"+d+".md"] = domainPage(d, i, tools, gatewayURL)
	}
	files[ReferencePath+"/index.md"] = []byte(idx.String())
	return files
}

func domainPage(domain string, order int, tools []*registry.Entry, gatewayURL string) []byte {
	var b strings.Builder
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	fmt.Fprintf(&b, "---\ntitle: %s\ndescription: %s\norder: %d\n---\n\n", yamlQuote(domainName(domain)+" tools"),
		yamlQuote(registry.DomainTitles[domain]+". Tools: "+strings.Join(names, ", ")+"."), 901+order)
	fmt.Fprintf(&b, "%s.\n\nREST: `POST %s/api/v1/{tenant}/%s`. MCP: `%s/mcp`. Both need `Authorization: Bearer <token>`.\n\n", registry.DomainTitles[domain], gatewayURL, domain, gatewayURL)
	for _, t := range tools {
		fmt.Fprintf(&b, "## %s\n\n%s\n\n", t.Name, t.Description)
		if t.Provider != "" {
			fmt.Fprintf(&b, "Provider: `%s` (uses the tenant's account; `account_id` picks another).\n\n", t.Provider)
		}
		b.WriteString("| action | category | mutating | destructive | description |\n|---|---|---|---|---|\n")
		for _, a := range t.Actions {
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", a.Name, a.Category, yesNo(a.Mutating), yesNo(a.Destructive), strings.ReplaceAll(a.Description, "|", `\|`))
		}
		schema, err := json.MarshalIndent(t.Schema, "", "  ")
		if err != nil {
			schema = []byte(`{"error": "schema could not be rendered"}`)
		}
		fmt.Fprintf(&b, "\nInput schema:\n\n```json\n%s\n```\n\n", schema)
	}
	return []byte(b.String())
}

// domainName is the short name of a domain: its title up to the colon.
func domainName(domain string) string {
	name, _, _ := strings.Cut(registry.DomainTitles[domain], ":")
	return name
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// anchor is goldmark's auto heading id for a tool name (lower case; "_" kept).
func anchor(name string) string { return strings.ToLower(name) }

func yamlQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
