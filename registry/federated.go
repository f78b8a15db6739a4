package registry

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
)

// FederatedAction is the one action of a tool brought from an upstream MCP
// server: audit entries and approval policies name it "server__tool.call".
const FederatedAction = "call"

// Federated describes one upstream MCP server's tool as a tenant's agents
// see it.
type Federated struct {
	// Server is the tenant's name for the upstream server; Upstream the
	// tool's own name there.
	Server, Upstream string
	Title            string
	Description      string
	// Input is the upstream's input schema, Output its output schema (nil
	// when it has none).
	Input, Output *jsonschema.Schema
	Category      gtmgate.Category
	Mutating      bool
	Destructive   bool
	// Idempotent and OpenWorld are the upstream's own hints.
	Idempotent, OpenWorld bool
	Run                   func(ctx context.Context, call *gtmgate.Call) (any, error)
}

// FederatedName is the name a tenant's agents call an upstream tool by.
func FederatedName(server, tool string) string {
	return server + gtmgate.FederatedSeparator + tool
}

// FederatedDomain is the REST domain of an upstream server's tools.
func FederatedDomain(server string) string { return gtmgate.FederatedDomainPrefix + server }

// NewFederated builds the entry of an upstream tool: its input schema made
// portable (see ServeUpstreamSchema) with the rationale every call carries
// added, and its output schema served as the upstream gave it. It fails,
// with a reason fit to show an operator, when the tool cannot be served.
func NewFederated(f Federated) (*Entry, error) {
	name := FederatedName(f.Server, f.Upstream)
	if !toolName.MatchString(name) {
		return nil, fmt.Errorf("its gateway name %q is not within [A-Za-z0-9_.-]{1,64}", name)
	}
	if f.Run == nil {
		return nil, fmt.Errorf("no way to run it")
	}
	if !f.Mutating && f.Destructive {
		f.Destructive = false
	}
	schema, err := ServeUpstreamSchema(f.Input)
	if err != nil {
		return nil, err
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("its input schema does not resolve: %w", err)
	}
	t := &gtmgate.Tool{
		Name: name, Domain: FederatedDomain(f.Server), Title: f.Title, Description: f.Description,
		OpenWorld: f.OpenWorld,
		Actions: []gtmgate.Action{{Name: FederatedAction, Description: f.Description, Category: f.Category,
			Mutating: f.Mutating, Destructive: f.Destructive, Additive: f.Mutating && !f.Destructive}},
		Run: f.Run,
	}
	e := &Entry{Tool: t, Schema: schema, resolved: resolved, federated: &f,
		hints: Hints{ReadOnly: !f.Mutating, Destructive: f.Destructive, Idempotent: !f.Mutating || f.Idempotent, OpenWorld: f.OpenWorld}}
	if f.Output != nil {
		out, err := f.Output.Resolve(nil)
		if err != nil {
			return nil, fmt.Errorf("its output schema does not resolve: %w", err)
		}
		e.Output, e.output = f.Output, out
	}
	return e, nil
}

// Federated returns what the entry was built from when it is an upstream
// MCP server's tool, nil for a built-in tool.
func (e *Entry) Federated() *Federated { return e.federated }

// ServeUpstreamSchema returns the schema gtmgate serves for an upstream
// tool's input: a copy of it in the portable subset, with "rationale" added
// and required. Only changes that keep every input the agent can be told
// about valid upstream are made:
//
//   - a root "$schema" (draft-07 and others) is dropped: the schema is
//     served as 2020-12, the dialect MCP assumes when none is named;
//   - "default" moves into the description ("Default: …"), as it only
//     annotates;
//   - an object that lists its properties and leaves additionalProperties
//     unset is closed (additionalProperties false), so a call cannot carry
//     fields the agent was never shown.
//
// Anything else outside the portable subset refuses the tool, with the
// place and the keyword named.
func ServeUpstreamSchema(input *jsonschema.Schema) (*jsonschema.Schema, error) {
	s := &jsonschema.Schema{Type: "object"}
	if input != nil {
		s = input.CloneSchemas()
	}
	s.Schema = ""
	if s.Type == "" && len(s.Types) == 0 && len(s.AnyOf) == 0 {
		s.Type = "object"
	}
	if s.Type != "object" {
		return nil, fmt.Errorf("its input schema is not an object (type %q)", s.Type)
	}
	if _, taken := s.Properties["rationale"]; taken {
		return nil, fmt.Errorf("its input has a property named rationale, which gtmgate reserves for the reason every call gives")
	}
	if err := portableCopy(s, true); err != nil {
		return nil, err
	}
	props := map[string]*jsonschema.Schema{}
	maps.Copy(props, s.Properties)
	props["rationale"] = &jsonschema.Schema{Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(2000)}
	s.Properties = props
	s.Required = append([]string{"rationale"}, s.Required...)
	if s.AdditionalProperties == nil {
		s.AdditionalProperties = Closed()
	}
	if err := CheckPortable(s); err != nil {
		return nil, fmt.Errorf("its input %w", err)
	}
	return s, nil
}

// portableCopy makes s's harmless departures from the portable subset
// portable, in place (s is already a copy).
func portableCopy(s *jsonschema.Schema, root bool) error {
	if s == nil {
		return nil
	}
	if s.Default != nil {
		d := strings.TrimSpace(string(s.Default))
		if len(d) > 200 {
			d = d[:200] + "…"
		}
		s.Description = strings.TrimSpace(strings.TrimSuffix(s.Description, ".") + ". Default: " + d + ".")
		s.Description = strings.TrimPrefix(s.Description, ". ")
		s.Default = nil
	}
	if !root && s.Schema != "" {
		return fmt.Errorf("its input schema has a nested $schema")
	}
	if s.Type == "object" && len(s.Properties) > 0 && s.AdditionalProperties == nil {
		s.AdditionalProperties = Closed()
	}
	for _, p := range s.Properties {
		if err := portableCopy(p, false); err != nil {
			return err
		}
	}
	for _, b := range s.AnyOf {
		if err := portableCopy(b, false); err != nil {
			return err
		}
	}
	if err := portableCopy(s.Items, false); err != nil {
		return err
	}
	if ap := s.AdditionalProperties; ap != nil && !isFalse(ap) {
		return portableCopy(ap, false)
	}
	return nil
}

// UpstreamArguments returns the validated input of a federated call as the
// upstream takes it: without the rationale, which is gtmgate's own.
func UpstreamArguments(input map[string]any) (json.RawMessage, error) {
	args := make(map[string]any, len(input))
	for k, v := range input {
		if k != "rationale" {
			args[k] = v
		}
	}
	return json.Marshal(args)
}
