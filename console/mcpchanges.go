package console

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode"

	"github.com/gtmgate/gtmgate"
)

// Pinned tool definitions (#42) on a server's page: the changes waiting,
// each a side-by-side diff of what was accepted and what is listed, its
// flags, and a checkbox to accept it with the hash the person saw.

// mcpChange is one change waiting, as the page shows it.
type mcpChange struct {
	Tool, Kind, Hash string
	// Gate says what the accepted and the listed definitions do;
	// LiftsGate that accepting would lower the gate, unless kept.
	Gate      string
	LiftsGate bool
	Flags     []mcpFlag
	Parts     []diffPart
	// AcceptedBy and AcceptedAt say who accepted the definition served.
	AcceptedBy, AcceptedAt string
	// Verdict is the jury's on this change, once graded.
	Verdict *changeVerdict
}

type mcpFlag struct{ Kind, Text string }

// diffPart is one part of a definition (description, annotations,
// schemas) compared line by line; Same says it did not change.
type diffPart struct {
	Name string
	Same bool
	Rows []diffRow
}

// diffRow is one line of a side-by-side diff: Op is "" (same), "del"
// (accepted only), "add" (listed only) or "mod" (both, different).
type diffRow struct {
	Left, Right string
	Op          string
	Flagged     bool
}

// apiChange is a change as GET …/changes answers it.
type apiChange struct {
	Tool      string `json:"tool"`
	Kind      string `json:"kind"`
	Hash      string `json:"hash"`
	LiftsGate bool   `json:"lifts_gate"`
	Flags     []struct {
		Kind string `json:"kind"`
		Text string `json:"text"`
	} `json:"flags"`
	Accepted, Listed *struct {
		Tool        json.RawMessage `json:"tool"`
		Mutating    bool            `json:"mutating"`
		Destructive bool            `json:"destructive"`
		AcceptedBy  string          `json:"accepted_by"`
		AcceptedAt  string          `json:"accepted_at"`
	}
}

// mcpChanges reads the server's changes waiting for its page.
func (c *Console) mcpChanges(r *http.Request, tenant, name string) ([]mcpChange, error) {
	var out struct {
		Changes []apiChange `json:"changes"`
	}
	if err := c.call(r, http.MethodGet, mcpServerPath(tenant, name)+"/changes", nil, &out); err != nil {
		return nil, err
	}
	changes := make([]mcpChange, 0, len(out.Changes))
	for _, a := range out.Changes {
		changes = append(changes, changeView(a))
	}
	c.gradedChanges(r, tenant, name, changes)
	return changes, nil
}

// changeView lays a change out for the page.
func changeView(a apiChange) mcpChange {
	ch := mcpChange{Tool: a.Tool, Kind: a.Kind, Hash: a.Hash, LiftsGate: a.LiftsGate}
	var texts []string
	for _, f := range a.Flags {
		ch.Flags = append(ch.Flags, mcpFlag{Kind: strings.ReplaceAll(f.Kind, "_", " "), Text: visible(f.Text)})
		if f.Kind != "hidden_characters" {
			texts = append(texts, f.Text)
		}
	}
	var left, right map[string]json.RawMessage
	gate := func(m, d bool) string {
		switch {
		case d:
			return "destructive"
		case m:
			return "mutating"
		}
		return "read-only"
	}
	if a.Accepted != nil {
		_ = json.Unmarshal(a.Accepted.Tool, &left)
		ch.AcceptedBy, ch.AcceptedAt = a.Accepted.AcceptedBy, a.Accepted.AcceptedAt
	}
	if a.Listed != nil {
		_ = json.Unmarshal(a.Listed.Tool, &right)
	}
	switch {
	case a.Accepted != nil && a.Listed != nil:
		ch.Gate = "accepted as " + gate(a.Accepted.Mutating, a.Accepted.Destructive) + ", listed as " + gate(a.Listed.Mutating, a.Listed.Destructive)
	case a.Listed != nil:
		ch.Gate = "listed as " + gate(a.Listed.Mutating, a.Listed.Destructive)
	case a.Accepted != nil:
		ch.Gate = "accepted as " + gate(a.Accepted.Mutating, a.Accepted.Destructive) + ", no longer listed"
	}
	for _, p := range []struct{ key, name string }{{"title", "Title"}, {"description", "Description"},
		{"annotations", "Annotations"}, {"inputSchema", "Input schema"}, {"outputSchema", "Output schema"}} {
		l, r := partLines(left[p.key]), partLines(right[p.key])
		if len(l) == 0 && len(r) == 0 {
			continue
		}
		rows := sideBySide(l, r)
		same := true
		for i := range rows {
			same = same && rows[i].Op == ""
			for _, t := range texts {
				if strings.Contains(rows[i].Left, t) || strings.Contains(rows[i].Right, t) {
					rows[i].Flagged = true
				}
			}
			if hasHidden(rows[i].Left) || hasHidden(rows[i].Right) {
				rows[i].Flagged = true
			}
			rows[i].Left, rows[i].Right = visible(rows[i].Left), visible(rows[i].Right)
		}
		ch.Parts = append(ch.Parts, diffPart{Name: p.name, Same: same, Rows: rows})
	}
	return ch
}

// partLines are a definition part's lines: a text as written, anything
// else as indented JSON.
func partLines(raw json.RawMessage) []string {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.Split(s, "\n")
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return []string{string(raw)}
	}
	b, _ := json.MarshalIndent(v, "", "  ")
	return strings.Split(string(b), "\n")
}

// maxDiffLines bounds the lines compared; longer parts are shown whole.
const maxDiffLines = 600

// sideBySide pairs two versions' lines by their longest common
// subsequence: a run of removed lines beside a run of added ones is one
// run of modified rows.
func sideBySide(a, b []string) []diffRow {
	if len(a) > maxDiffLines || len(b) > maxDiffLines {
		var rows []diffRow
		for i := 0; i < max(len(a), len(b)); i++ {
			r := diffRow{Op: "mod"}
			if i < len(a) {
				r.Left = a[i]
			}
			if i < len(b) {
				r.Right = b[i]
			}
			rows = append(rows, r)
		}
		return rows
	}
	// lcs[i][j] is the longest common subsequence of a[i:] and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var rows []diffRow
	var dels, adds []string
	flush := func() {
		for k := 0; k < max(len(dels), len(adds)); k++ {
			r := diffRow{}
			switch {
			case k < len(dels) && k < len(adds):
				r.Left, r.Right, r.Op = dels[k], adds[k], "mod"
			case k < len(dels):
				r.Left, r.Op = dels[k], "del"
			default:
				r.Right, r.Op = adds[k], "add"
			}
			rows = append(rows, r)
		}
		dels, adds = nil, nil
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			flush()
			rows = append(rows, diffRow{Left: a[i], Right: b[j]})
			i, j = i+1, j+1
		case j < len(b) && (i == len(a) || lcs[i][j+1] >= lcs[i+1][j]):
			adds = append(adds, b[j])
			j++
		default:
			dels = append(dels, a[i])
			i++
		}
	}
	flush()
	return rows
}

// hasHidden reports a character a reader cannot see (a format control:
// zero-width, bidi, tag characters).
func hasHidden(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.Is(unicode.Cf, r) }) >= 0
}

// visible shows each hidden character as its code point, "⟦U+200B⟧".
func visible(s string) string {
	if !hasHidden(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unicode.Is(unicode.Cf, r) {
			fmt.Fprintf(&b, "⟦U+%04X⟧", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// acceptMCPChanges accepts the checked changes, each with the hash shown
// beside it, lifting the gate only where its own box is checked. A change
// listed again since the page was shown is refused (CONFLICT): the page
// shows it again to look at.
func (c *Console) acceptMCPChanges(w http.ResponseWriter, r *http.Request, _ *session) {
	id, name := r.PathValue("id"), r.PathValue("name")
	to := "/console/tenants/" + esc(id) + "/mcp-servers/" + esc(name) + "#changes"
	p := r.PostForm
	hashes := map[string]string{}
	var lift []string
	for _, tool := range p["accept"] {
		hashes[tool] = p.Get("hash." + tool)
		if p.Get("lift."+tool) != "" {
			lift = append(lift, tool)
		}
	}
	if len(hashes) == 0 {
		c.done(w, r, to, "Nothing accepted: check the changes to accept.")
		return
	}
	body := obj{"tools": hashes}
	if len(lift) > 0 {
		body["lift_gate"] = lift
	}
	var out struct {
		Accepted []struct {
			Tool       string `json:"tool"`
			LiftedGate bool   `json:"lifted_gate"`
			GateKept   bool   `json:"gate_kept"`
		} `json:"accepted"`
	}
	if err := c.call(r, http.MethodPost, mcpServerPath(id, name)+"/changes/accept", body, &out); err != nil {
		var ae *apiError
		if errors.As(err, &ae) && ae.Code == gtmgate.EConflict {
			c.done(w, r, to, "Not accepted: "+ae.Message+". Look at the change again below.")
			return
		}
		c.done(w, r, to, "Refused: "+err.Error())
		return
	}
	var notes []string
	for _, a := range out.Accepted {
		note := a.Tool
		switch {
		case a.LiftedGate:
			note += " (gate lifted)"
		case a.GateKept:
			note += " (gate kept)"
		}
		notes = append(notes, note)
	}
	c.done(w, r, to, fmt.Sprintf("Accepted for MCP server %s: %s. Agents get these definitions now.", name, strings.Join(notes, ", ")))
}
