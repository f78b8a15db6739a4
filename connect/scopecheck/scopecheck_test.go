// Package scopecheck holds connect's scope tables to the providers' facts:
// the scopes connect asks for each tool action must admit every spec
// operation that action calls, and a read-only action must ask for no
// write scope. It is a package of its own so that connect itself depends
// on no adapter.
package scopecheck

import (
	"bufio"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/connect"
	"github.com/gtmgate/gtmgate/provider/apispec"
	"github.com/gtmgate/gtmgate/provider/bigquery"
	"github.com/gtmgate/gtmgate/provider/ga4"
	"github.com/gtmgate/gtmgate/provider/gcalendar"
	"github.com/gtmgate/gtmgate/provider/gmail"
	"github.com/gtmgate/gtmgate/provider/googleads"
	"github.com/gtmgate/gtmgate/provider/hubspot"
	"github.com/gtmgate/gtmgate/provider/linkedinads"
	"github.com/gtmgate/gtmgate/provider/metaads"
	"github.com/gtmgate/gtmgate/provider/searchconsole"
	"github.com/gtmgate/gtmgate/provider/sheets"
	"github.com/gtmgate/gtmgate/provider/upstream"
	"github.com/gtmgate/gtmgate/registry"
)

type family struct {
	key   string
	tools func(*upstream.Client) []gtmgate.Tool
	spec  func() *apispec.Spec
}

var families = []family{
	{googleads.Provider, googleads.Tools, googleads.Spec},
	{ga4.Provider, ga4.Tools, ga4.Spec},
	{searchconsole.Provider, searchconsole.Tools, searchconsole.Spec},
	{gmail.Provider, gmail.Tools, gmail.Spec},
	{gcalendar.Provider, gcalendar.Tools, gcalendar.Spec},
	{bigquery.Provider, func(c *upstream.Client) []gtmgate.Tool { return bigquery.Tools(c, nil) }, bigquery.Spec},
	{sheets.Provider, sheets.Tools, sheets.Spec},
	{hubspot.Provider, hubspot.Tools, hubspot.Spec},
	{metaads.Provider, metaads.Tools, metaads.Spec},
	{linkedinads.Provider, linkedinads.Tools, linkedinads.Spec},
}

// walked reads testdata/actions.txt: "tool.action checked against [op op…]".
func walked(t *testing.T) map[string][]string {
	t.Helper()
	f, err := os.Open("testdata/actions.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		action, ops, ok := strings.Cut(line, " checked against ")
		if strings.HasPrefix(line, "#") || !ok {
			continue
		}
		// HubSpot's operation ids are "METHOD /path": pair them up.
		fields := strings.Fields(strings.Trim(ops, "[]"))
		for i := 0; i < len(fields); i++ {
			op := fields[i]
			if i+1 < len(fields) && strings.HasPrefix(fields[i+1], "/") {
				op += " " + fields[i+1]
				i++
			}
			out[action] = append(out[action], op)
		}
	}
	return out
}

func TestScopesAdmitEveryWalkedOperation(t *testing.T) {
	walks := walked(t)
	var tools []gtmgate.Tool
	specs := map[string]*apispec.Spec{}
	for _, f := range families {
		tools = append(tools, f.tools(upstream.MustNew(upstream.Options{Provider: f.key, BaseURL: "http://127.0.0.1:1"}))...)
		specs[f.key] = f.spec()
	}
	reg := registry.MustNew(tools...)
	writes := map[string]bool{}
	for _, p := range connect.Providers() {
		for _, n := range connect.Needs(reg, nil, p, nil, false) {
			if n.Mutating {
				read := n
				read.Mutating = false
				base := connect.Scopes(p, []connect.ToolNeed{read}, nil)
				for _, s := range connect.Scopes(p, []connect.ToolNeed{n}, nil) {
					if !slices.Contains(base, s) {
						writes[s] = true
					}
				}
			}
		}
	}
	for _, p := range connect.Providers() {
		for _, n := range connect.Needs(reg, nil, p, nil, false) {
			name := n.Tool + "." + n.Action
			scopes := connect.Scopes(p, []connect.ToolNeed{n}, nil)
			ops, ok := walks[name]
			if !ok {
				t.Errorf("%s: not in testdata/actions.txt: regenerate it", name)
				continue
			}
			for _, id := range ops {
				op := findOp(specs[n.Provider], id)
				if op == nil {
					t.Errorf("%s: operation %q is not in the %s spec", name, id, n.Provider)
					continue
				}
				if len(op.Scopes) > 0 && !slices.ContainsFunc(scopes, func(s string) bool { return slices.Contains(op.Scopes, s) }) {
					t.Errorf("%s: %s needs one of %q; connect asks %q", name, id, op.Scopes, scopes)
				}
			}
			if n.Mutating {
				continue
			}
			// A read asks for no scope that only writes add.
			read := connect.Scopes(p, []connect.ToolNeed{{Provider: n.Provider, Tool: n.Tool, Action: n.Action}}, nil)
			for _, s := range read {
				if writes[s] {
					t.Errorf("%s (read-only) asks for %s, a write scope", name, s)
				}
			}
		}
	}
}

func findOp(s *apispec.Spec, id string) *apispec.Operation {
	for i := range s.Operations {
		if s.Operations[i].ID == id {
			return &s.Operations[i]
		}
	}
	return nil
}
