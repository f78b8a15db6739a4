package admincli

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
)

// toolsetsUsage is the toolsets part of Usage.
const toolsetsUsage = `  toolsets list TENANT               the tenant's toolsets: what each lets an agent call
  toolsets get TENANT NAME
  toolsets put TENANT NAME FILE      FILE: the toolset as JSON or YAML ("-": stdin), e.g.
                                     {"allow": ["crm_*"], "read_only": true}; what get
                                     prints can be put back as is
  toolsets delete TENANT NAME        refused while an unrevoked token uses it
`

// toolsets runs `toolsets list|get|put|delete`: a tenant's named cuts of
// its tools and accounts, which tokens issued with --toolset are limited to.
func (inv *invocation) toolsets(verb string, args []string) error {
	switch verb {
	case "list":
		s := newSub("toolsets list", "TENANT")
		p, err := s.parse(args)
		if err != nil {
			return err
		}
		return inv.listToolsets(p[0])
	case "get":
		s := newSub("toolsets get", "TENANT", "NAME")
		p, err := s.parse(args)
		if err != nil {
			return err
		}
		return inv.send("GET", toolsetPath(p[0], p[1]), nil)
	case "put":
		return inv.putToolset(args)
	case "delete":
		s := newSub("toolsets delete", "TENANT", "NAME")
		p, err := s.parse(args)
		if err != nil {
			return err
		}
		if _, err := inv.c.do(inv.ctx, "DELETE", toolsetPath(p[0], p[1]), nil); err != nil {
			return err
		}
		if inv.json {
			out, _ := json.Marshal(map[string]any{"tenant_id": p[0], "name": p[1], "deleted": true})
			return inv.printJSON(out)
		}
		fmt.Fprintf(inv.opts.Stdout, "toolset %s of tenant %s deleted.\n", p[1], p[0])
		return nil
	}
	return usageError(fmt.Sprintf("unknown command %q", strings.TrimSpace("toolsets "+verb)))
}

func toolsetPath(tenant, name string) string {
	return "/admin/tenants/" + url.PathEscape(tenant) + "/toolsets/" + url.PathEscape(name)
}

// toolsetView is what the CLI reads of a toolset.
type toolsetView struct {
	Description string              `json:"description"`
	Allow       []string            `json:"allow"`
	Deny        []string            `json:"deny"`
	ReadOnly    bool                `json:"read_only"`
	Accounts    map[string][]string `json:"accounts"`
}

// listToolsets prints the tenant's toolsets by name, one line each.
func (inv *invocation) listToolsets(tenant string) error {
	b, err := inv.c.do(inv.ctx, "GET", "/admin/tenants/"+url.PathEscape(tenant)+"/toolsets", nil)
	if err != nil {
		return err
	}
	if inv.json {
		return inv.printJSON(b)
	}
	var page struct {
		Toolsets map[string]toolsetView `json:"toolsets"`
	}
	if err := json.Unmarshal(b, &page); err != nil {
		return fmt.Errorf("the gateway's answer is not a toolset list: %w", err)
	}
	items := make([]map[string]any, 0, len(page.Toolsets))
	for _, name := range slices.Sorted(maps.Keys(page.Toolsets)) {
		ts := page.Toolsets[name]
		mode := "read-write"
		if ts.ReadOnly {
			mode = "read-only"
		}
		items = append(items, map[string]any{"name": name, "mode": mode, "allow": strings.Join(ts.Allow, " "),
			"deny": strings.Join(ts.Deny, " "), "accounts": accountsCell(ts.Accounts)})
	}
	// The descriptions are left to get and --output json: beside the
	// rules they would leave each column too narrow to read.
	writeTable(inv.opts.Stdout, []column{col("NAME", "name"), col("MODE", "mode"), col("ALLOW", "allow"), col("DENY", "deny"),
		col("ACCOUNTS", "accounts")}, items)
	return nil
}

// accountsCell is "provider:id,id provider:id", by provider; empty when
// the toolset keeps every account.
func accountsCell(accounts map[string][]string) string {
	var parts []string
	for _, p := range slices.Sorted(maps.Keys(accounts)) {
		parts = append(parts, p+":"+strings.Join(accounts[p], ","))
	}
	return strings.Join(parts, " ")
}

// putToolset creates or replaces a toolset from a JSON or YAML file.
func (inv *invocation) putToolset(args []string) error {
	s := newSub("toolsets put", "TENANT", "NAME", "FILE")
	p, err := s.parse(args)
	if err != nil {
		return err
	}
	b, err := inv.readInput(p[2])
	if err != nil {
		return inputError("toolsets put: " + err.Error())
	}
	name := p[2]
	if name == "-" {
		name = "stdin"
	}
	body, err := decodeObject(name, b)
	if err != nil {
		return inputError("toolsets put: " + err.Error())
	}
	// What `toolsets get` (or a put) answers wraps the toolset with its
	// name: it goes back as is, under the name on the command line.
	if ts, ok := body["toolset"].(map[string]any); ok && onlyToolsetView(body) {
		body = ts
	}
	return inv.send("PUT", toolsetPath(p[0], p[1]), body)
}

// onlyToolsetView reports whether body holds nothing but what `toolsets
// get` or `toolsets put` answers.
func onlyToolsetView(body map[string]any) bool {
	for k := range body {
		switch k {
		case "name", "toolset", "created":
		default:
			return false
		}
	}
	return true
}
