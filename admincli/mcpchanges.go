package admincli

import (
	"encoding/json"
	"fmt"
	"strings"
)

// mcpChangesUsage is the pinned-tool-definitions part of the mcp-servers usage.
const mcpChangesUsage = `  mcp-servers changes NAME --tenant T
                                     tool definitions waiting for acceptance: new, changed or
                                     removed, the hash to accept, the gate, the flags
  mcp-servers accept NAME --tenant T (--tool TOOL[=HASH]... | --all) [--lift-gate TOOL]...
                                     serve the changes named (with =HASH: only if still the
                                     one listed, else CONFLICT); a change that makes a tool
                                     read-only keeps its gate unless --lift-gate names it
`

// mcpChanges runs `mcp-servers changes|accept`.
func (inv *invocation) mcpChanges(verb string, args []string) error {
	s := newSub("mcp-servers "+verb, "NAME")
	tenant := s.fs.String("tenant", "", "")
	all := s.fs.Bool("all", false, "")
	tools := &listFlag{split: true}
	s.fs.Var(tools, "tool", "")
	lift := &listFlag{split: true}
	s.fs.Var(lift, "lift-gate", "")
	p, err := s.parse(args)
	if err != nil {
		return err
	}
	if *tenant == "" {
		return usageError("mcp-servers " + verb + " needs --tenant")
	}
	path := mcpServerPath(*tenant, p[0]) + "/changes"
	if verb == "changes" {
		return inv.listMCPChanges(path)
	}
	body := map[string]any{}
	switch {
	case *all && len(tools.items) > 0:
		return usageError("mcp-servers accept takes --tool or --all, not both")
	case *all:
		body["all"] = true
	case len(tools.items) == 0:
		return usageError("mcp-servers accept needs --tool TOOL[=HASH] (see mcp-servers changes) or --all")
	default:
		hashes, names := map[string]string{}, []string{}
		for _, t := range tools.items {
			if name, hash, ok := strings.Cut(t, "="); ok {
				hashes[name] = hash
			} else {
				names = append(names, t)
			}
		}
		if len(hashes) > 0 && len(names) > 0 {
			return usageError("mcp-servers accept: give every --tool a hash (TOOL=HASH), or none")
		}
		body["tools"] = names
		if len(hashes) > 0 {
			body["tools"] = hashes
		}
	}
	if len(lift.items) > 0 {
		body["lift_gate"] = lift.items
	}
	b, err := inv.c.do(inv.ctx, "POST", path+"/accept", body)
	if err != nil {
		return err
	}
	if inv.json {
		return inv.printJSON(b)
	}
	var out struct {
		Accepted []struct {
			Tool       string `json:"tool"`
			Kind       string `json:"kind"`
			LiftedGate bool   `json:"lifted_gate"`
			GateKept   bool   `json:"gate_kept"`
		} `json:"accepted"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return fmt.Errorf("the gateway's answer is not an acceptance: %w", err)
	}
	if len(out.Accepted) == 0 {
		fmt.Fprintf(inv.opts.Stdout, "No change was waiting on MCP server %s.\n", p[0])
		return nil
	}
	for _, a := range out.Accepted {
		note := ""
		switch {
		case a.LiftedGate:
			note = "; the gate is lifted"
		case a.GateKept:
			note = "; the gate is kept"
		}
		fmt.Fprintf(inv.opts.Stdout, "%s (%s) accepted%s\n", a.Tool, a.Kind, note)
	}
	return nil
}

// listMCPChanges prints the changes waiting as a table.
func (inv *invocation) listMCPChanges(path string) error {
	b, err := inv.c.do(inv.ctx, "GET", path, nil)
	if err != nil {
		return err
	}
	if inv.json {
		return inv.printJSON(b)
	}
	var out struct {
		Changes []struct {
			Tool      string `json:"tool"`
			Kind      string `json:"kind"`
			Hash      string `json:"hash"`
			LiftsGate bool   `json:"lifts_gate"`
			Flags     []struct {
				Kind string `json:"kind"`
			} `json:"flags"`
		} `json:"changes"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return fmt.Errorf("the gateway's answer is not a list of changes: %w", err)
	}
	if len(out.Changes) == 0 {
		fmt.Fprintln(inv.opts.Stdout, "No changes waiting: every tool listed is served as accepted.")
		return nil
	}
	items := make([]map[string]any, 0, len(out.Changes))
	for _, c := range out.Changes {
		var kinds []string
		for _, f := range c.Flags {
			kinds = append(kinds, f.Kind)
		}
		gate := ""
		if c.LiftsGate {
			gate = "would lift"
		}
		items = append(items, map[string]any{"tool": c.Tool, "kind": c.Kind, "hash": c.Hash, "gate": gate, "flags": strings.Join(kinds, ",")})
	}
	writeTable(inv.opts.Stdout, []column{col("TOOL", "tool"), col("CHANGE", "kind"), col("GATE", "gate"), col("FLAGS", "flags"),
		col("HASH", "hash")}, items)
	return nil
}
