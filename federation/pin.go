package federation

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Pinned tool definitions (#42): only a definition someone accepted is
// served. A tool listed but never accepted is not served; a changed one
// keeps serving its accepted definition; a gate (mutating, destructive)
// once accepted is only lowered by a person who says so.

// Kinds of pending change.
const (
	ChangeNew     = "new"
	ChangeChanged = "changed"
	ChangeRemoved = "removed"
)

// ActionToolChanged is the audit action of a detected or accepted change.
const ActionToolChanged = "federation.tool_changed"

// definitionParts are the members of an MCP tool the hash covers.
var definitionParts = []string{"name", "title", "description", "inputSchema", "outputSchema", "annotations"}

// DefinitionHash is "sha256:" and the hex digest of a canonical JSON of
// the tool's name, title, description, input and output schemas and
// annotations: member order, whitespace and other members do not count.
func DefinitionHash(tool json.RawMessage) (string, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(tool, &members); err != nil {
		return "", fmt.Errorf("federation: tool definition: %w", err)
	}
	canon := make(map[string]any, len(definitionParts))
	for _, k := range definitionParts {
		raw, ok := members[k]
		if !ok || string(raw) == "null" {
			continue
		}
		d := json.NewDecoder(strings.NewReader(string(raw)))
		d.UseNumber()
		var v any
		if err := d.Decode(&v); err != nil {
			return "", fmt.Errorf("federation: tool definition %s: %w", k, err)
		}
		canon[k] = v
	}
	// encoding/json writes map keys sorted, so the encoding is canonical.
	b, err := json.Marshal(canon)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// Definition is one definition of a tool: as accepted or as listed.
type Definition struct {
	Hash string          `json:"hash"`
	Tool json.RawMessage `json:"tool"`
	// Mutating and Destructive are what the definition's annotations make
	// of it (contradictory ones count as destructive), before overrides;
	// for an accepted definition, the gate its acceptance set.
	Mutating    bool       `json:"mutating"`
	Destructive bool       `json:"destructive"`
	AcceptedBy  string     `json:"accepted_by,omitempty"`
	AcceptedAt  *time.Time `json:"accepted_at,omitempty"`
}

// Change is a tool whose listed definition differs from the accepted one.
type Change struct {
	Tool string `json:"tool"`
	// Kind is new, changed or removed.
	Kind     string      `json:"kind"`
	Accepted *Definition `json:"accepted,omitempty"`
	Listed   *Definition `json:"listed,omitempty"`
	// Hash is what an acceptance names: the listed hash, or the accepted
	// one for a removed tool.
	Hash string `json:"hash"`
	// LiftsGate says the listed definition does less than the accepted
	// gate (read-only where it was mutating, or no longer destructive):
	// accepting it keeps the gate unless the acceptance lifts it.
	LiftsGate bool   `json:"lifts_gate"`
	Flags     []Flag `json:"flags"`
}

// listed reads a server's last listing: each tool's JSON by name.
func listed(s *gtmgate.MCPServer) (map[string]json.RawMessage, error) {
	out := map[string]json.RawMessage{}
	if len(s.State.Tools) == 0 {
		return out, nil
	}
	var tools []json.RawMessage
	if err := json.Unmarshal(s.State.Tools, &tools); err != nil {
		return out, err
	}
	for _, t := range tools {
		var head struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(t, &head) == nil && head.Name != "" {
			out[head.Name] = t
		}
	}
	return out, nil
}

// gateOf is what a tool's annotations make it do, overrides aside: the
// MCP defaults when absent (mutating, destructive), and destructive when
// they contradict themselves (readOnlyHint with destructiveHint true).
func gateOf(a *mcp.ToolAnnotations) (mutating, destructive bool) {
	if a == nil {
		return true, true
	}
	mutating, destructive = !a.ReadOnlyHint, true
	if a.DestructiveHint != nil {
		destructive = *a.DestructiveHint
	}
	if a.ReadOnlyHint && a.DestructiveHint != nil && *a.DestructiveHint {
		return true, true
	}
	return mutating, destructive && mutating
}

// definitionOf reads a listed tool as a Definition.
func definitionOf(raw json.RawMessage) (*Definition, error) {
	h, err := DefinitionHash(raw)
	if err != nil {
		return nil, err
	}
	var t mcp.Tool
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, err
	}
	d := &Definition{Hash: h, Tool: raw}
	d.Mutating, d.Destructive = gateOf(t.Annotations)
	return d, nil
}

// acceptedDefinition shows an accepted tool.
func acceptedDefinition(a gtmgate.MCPAcceptedTool) *Definition {
	at := a.At
	return &Definition{Hash: a.Hash, Tool: a.Tool, Mutating: a.Mutating, Destructive: a.Destructive, AcceptedBy: a.By, AcceptedAt: &at}
}

// Changes are the server's pending changes by tool name. A server that
// predates pinning (Accepted nil) has none until its next listing pins it.
func Changes(s *gtmgate.MCPServer) ([]Change, error) {
	if s.Accepted == nil {
		return []Change{}, nil
	}
	list, err := listed(s)
	if err != nil {
		return nil, fmt.Errorf("federation: %s's stored tool list: %w", s.Name, err)
	}
	host := hostOfURL(s.URL)
	out := []Change{}
	for _, name := range slices.Sorted(maps.Keys(list)) {
		d, err := definitionOf(list[name])
		if err != nil {
			continue // an unreadable tool is never served nor offered
		}
		a, ok := s.Accepted[name]
		if ok && a.Hash == d.Hash {
			continue
		}
		c := Change{Tool: name, Kind: ChangeNew, Listed: d, Hash: d.Hash, Flags: FlagsOf(d.Tool, host)}
		if ok {
			c.Kind, c.Accepted = ChangeChanged, acceptedDefinition(a)
			c.LiftsGate = a.Mutating && !d.Mutating || a.Destructive && !d.Destructive
		}
		out = append(out, c)
	}
	for _, name := range slices.Sorted(maps.Keys(s.Accepted)) {
		if _, ok := list[name]; !ok {
			a := s.Accepted[name]
			out = append(out, Change{Tool: name, Kind: ChangeRemoved, Accepted: acceptedDefinition(a), Hash: a.Hash, Flags: []Flag{}})
		}
	}
	slices.SortStableFunc(out, func(a, b Change) int { return strings.Compare(a.Tool, b.Tool) })
	return out, nil
}

// AcceptRequest says which pending changes to accept.
type AcceptRequest struct {
	// All accepts every pending change as listed now.
	All bool
	// Names accepts these tools' pending changes as listed now.
	Names []string
	// Hashes accepts these tools' pending changes, each only if its hash
	// is still the one given (CONFLICT otherwise).
	Hashes map[string]string
	// LiftGate names the tools whose acceptance may lower their gate.
	LiftGate []string
}

// Accepted is one acceptance made.
type Accepted struct {
	Change
	// LiftedGate says the acceptance lowered the tool's gate; GateKept
	// that the definition says less but the gate was kept.
	LiftedGate bool `json:"lifted_gate"`
	GateKept   bool `json:"gate_kept"`
}

// Accept accepts the requested pending changes of the tenant's server as
// by: CONFLICT when a named tool has no pending change, or when a
// hash given is not the one listed now. Only a person lifts a gate.
func (c *Catalog) Accept(ctx context.Context, tenantID, name string, req AcceptRequest, by string) ([]Accepted, error) {
	s, err := c.opts.Store.GetMCPServer(ctx, tenantID, name)
	if err != nil {
		return nil, err
	}
	done, err := c.accept(ctx, s, req, by)
	c.Changed(tenantID, "")
	return done, err
}

func (c *Catalog) accept(ctx context.Context, s *gtmgate.MCPServer, req AcceptRequest, by string) ([]Accepted, error) {
	if s.Accepted == nil {
		s.Accepted = map[string]gtmgate.MCPAcceptedTool{}
	}
	changes, err := Changes(s)
	if err != nil {
		return nil, err
	}
	byName := map[string]Change{}
	for _, ch := range changes {
		byName[ch.Tool] = ch
	}
	var chosen []Change
	switch {
	case req.All:
		chosen = changes
	default:
		names := slices.Clone(req.Names)
		for n := range req.Hashes {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range slices.Compact(names) {
			ch, ok := byName[n]
			if !ok {
				return nil, gtmgate.Errorf(gtmgate.EConflict, "tool %s of MCP server %s has no change waiting", n, s.Name).
					WithHint("GET …/mcp-servers/" + s.Name + "/changes lists the changes waiting; it may have been accepted already")
			}
			if h, ok := req.Hashes[n]; ok && h != ch.Hash {
				return nil, gtmgate.Errorf(gtmgate.EConflict, "tool %s of MCP server %s changed since it was shown (%s, now %s)", n, s.Name, h, ch.Hash).
					WithHint("look at the change again and accept what is listed now")
			}
			chosen = append(chosen, ch)
		}
	}
	if len(chosen) == 0 {
		return []Accepted{}, nil
	}
	tools := map[string]*gtmgate.MCPAcceptedTool{}
	done := make([]Accepted, 0, len(chosen))
	for _, ch := range chosen {
		a := Accepted{Change: ch}
		if ch.Kind == ChangeRemoved {
			tools[ch.Tool] = nil
			done = append(done, a)
			continue
		}
		rec := &gtmgate.MCPAcceptedTool{Tool: ch.Listed.Tool, Hash: ch.Listed.Hash, Mutating: ch.Listed.Mutating, Destructive: ch.Listed.Destructive}
		if ch.LiftsGate {
			if by != gtmgate.MCPAcceptedByAuto && slices.Contains(req.LiftGate, ch.Tool) {
				a.LiftedGate = true
			} else {
				rec.Mutating = rec.Mutating || ch.Accepted.Mutating
				rec.Destructive = rec.Destructive || ch.Accepted.Destructive
				a.GateKept = true
			}
		}
		tools[ch.Tool] = rec
		done = append(done, a)
	}
	if err := c.opts.Store.AcceptMCPTools(ctx, s.TenantID, s.Name, tools, by); err != nil {
		return nil, fmt.Errorf("federation: accept %s's tools: %w", s.Name, err)
	}
	for n, t := range tools {
		if t == nil {
			delete(s.Accepted, n)
		} else {
			s.Accepted[n] = *t
		}
	}
	return done, nil
}

// AcceptedNote is a line for the audit on one acceptance.
func AcceptedNote(a Accepted) string {
	note := a.Tool + " " + a.Kind
	if a.Hash != "" {
		note += " " + shortHash(a.Hash)
	}
	switch {
	case a.LiftedGate:
		note += ", lifts the gate"
	case a.GateKept:
		note += ", gate kept"
	}
	if len(a.Flags) > 0 {
		note += fmt.Sprintf(", %d flags", len(a.Flags))
	}
	return note
}

func shortHash(h string) string {
	h = strings.TrimPrefix(h, "sha256:")
	if len(h) > 12 {
		h = h[:12]
	}
	return h
}

// afterListing runs once a listing of s was stored as st: a server that
// predates pinning gets what it was serving pinned ("upgrade"); each tool
// whose definition changed since the last listing and is not the accepted
// one is logged and audited (federation.tool_changed); with auto-accept,
// the listing is accepted as "auto", gates kept.
func (c *Catalog) afterListing(ctx context.Context, s *gtmgate.MCPServer, st gtmgate.MCPServerState, listErr error) {
	if listErr != nil {
		return
	}
	before := *s
	after := *s
	after.State = st
	if s.Accepted == nil {
		pin := before
		if len(pin.State.Tools) == 0 {
			pin.State = st
		}
		pin.Accepted = map[string]gtmgate.MCPAcceptedTool{}
		if _, err := c.accept(ctx, &pin, AcceptRequest{All: true}, "upgrade"); err != nil {
			c.opts.Logger.Error("federation: pinning a server's tools failed", "tenant", s.TenantID, "server", s.Name, "err", err)
			return
		}
		after.Accepted = pin.Accepted
	}
	prev, _ := listed(&before)
	changes, err := Changes(&after)
	if err != nil {
		return
	}
	// A server's first listing is no change: what it lists waits for the
	// person who created it (their PUT accepts it), or for auto-accept.
	first := before.State.ToolsRefreshedAt == nil
	var fresh []Change
	for _, ch := range changes {
		if first {
			break
		}
		if p, ok := prev[ch.Tool]; ok && ch.Listed != nil {
			if h, err := DefinitionHash(p); err == nil && h == ch.Listed.Hash {
				continue // already waiting since an earlier listing
			}
		} else if !ok && ch.Kind == ChangeRemoved {
			continue
		}
		fresh = append(fresh, ch)
	}
	if len(fresh) == 0 && !after.AutoAcceptChanges {
		return
	}
	auto := map[string]Accepted{}
	if after.AutoAcceptChanges && len(changes) > 0 {
		done, err := c.accept(ctx, &after, AcceptRequest{All: true}, gtmgate.MCPAcceptedByAuto)
		if err != nil {
			c.opts.Logger.Error("federation: auto-accept failed", "tenant", s.TenantID, "server", s.Name, "err", err)
		}
		for _, a := range done {
			auto[a.Tool] = a
		}
	}
	for _, ch := range fresh {
		detail := fmt.Sprintf("MCP server %s: tool %s %s", s.Name, ch.Tool, ch.Kind)
		if ch.Listed != nil {
			detail += " (" + shortHash(ch.Listed.Hash) + ")"
		}
		if a, ok := auto[ch.Tool]; ok {
			detail += ", accepted by auto"
			if a.GateKept {
				detail += ", gate kept"
			}
		} else {
			detail += ", waiting for acceptance"
			if ch.LiftsGate {
				detail += "; it would lift the gate"
			}
		}
		if len(ch.Flags) > 0 {
			detail += "; flags: " + flagKinds(ch.Flags)
		}
		c.opts.Logger.Warn("federation: tool definition changed", "tenant", s.TenantID, "server", s.Name, "tool", ch.Tool,
			"kind", ch.Kind, "lifts_gate", ch.LiftsGate, "flags", len(ch.Flags))
		c.record(ctx, s.TenantID, detail)
		if c.opts.ToolChanged != nil {
			c.opts.ToolChanged(ctx, s.TenantID, s.Name, ch)
		}
	}
}

// record audits a detected change through the recorder, when there is one.
func (c *Catalog) record(ctx context.Context, tenantID, detail string) {
	if c.opts.Recorder == nil {
		return
	}
	e := gtmgate.AuditEntry{Time: c.opts.Now(), TenantID: tenantID, Action: ActionToolChanged, Source: gtmgate.SourceCron,
		Key: gtmgate.ActorKeyFromContext(ctx), Outcome: gtmgate.OutcomeOK, Status: 200,
		RequestID: gtmgate.RequestIDFromContext(ctx), Detail: detail}
	if gtmgate.ActorFromContext(ctx) == nil {
		e.Key = "federation"
	}
	if len(e.Detail) > 500 {
		e.Detail = e.Detail[:500]
	}
	if err := c.opts.Recorder.Record(ctx, e, nil); err != nil {
		c.opts.Logger.Warn("federation: tool change not audited", "tenant", tenantID, "err", err)
	}
}

func flagKinds(fs []Flag) string {
	var kinds []string
	for _, f := range fs {
		if !slices.Contains(kinds, f.Kind) {
			kinds = append(kinds, f.Kind)
		}
	}
	return strings.Join(kinds, ", ")
}

// pinnedTool is one tool as build shows it: the definition to describe,
// the accepted gate, whether it may be served, and why it waits.
type pinnedTool struct {
	tool     *mcp.Tool
	floor    *gtmgate.MCPAcceptedTool
	servable bool
	pending  string
	hash     string
}

// pinnedTools are a server's tools by name: for each, the accepted
// definition when there is one (served when the upstream still lists the
// tool), else the listed one, shown as waiting. A server that predates
// pinning (Accepted nil) serves its listing until the next one pins it.
func pinnedTools(s *gtmgate.MCPServer) ([]pinnedTool, error) {
	list, err := listed(s)
	names := slices.Collect(maps.Keys(list))
	for n := range s.Accepted {
		if _, ok := list[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	out := make([]pinnedTool, 0, len(names))
	for _, n := range names {
		raw, isListed := list[n]
		a, isAccepted := s.Accepted[n]
		p := pinnedTool{servable: true}
		var hash string
		if isListed {
			hash, _ = DefinitionHash(raw)
		}
		switch {
		case s.Accepted == nil:
			p.hash = hash
		case isListed && isAccepted && a.Hash == hash:
			p.floor, p.hash = &a, hash
		case isListed && isAccepted:
			raw, p.floor, p.hash, p.pending = a.Tool, &a, a.Hash, ChangeChanged+": waiting for acceptance"
		case isListed:
			p.servable, p.hash, p.pending = false, hash, ChangeNew+": waiting for acceptance"
		default:
			raw, p.servable, p.hash, p.pending = a.Tool, false, a.Hash, ChangeRemoved+": no longer listed, waiting for acceptance"
		}
		t := new(mcp.Tool)
		if err := json.Unmarshal(raw, t); err != nil || t.Name == "" {
			continue
		}
		p.tool = t
		out = append(out, p)
	}
	return out, err
}
