package registry

import (
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// Limits of the common list parameters.
const (
	DefaultLimit = 25
	MaxLimit     = 100
)

// FilterOperators are the filter operators every list action accepts.
var FilterOperators = []string{"EQ", "NEQ", "LT", "LTE", "GT", "GTE", "BETWEEN", "IN", "NOT_IN", "HAS_PROPERTY", "NOT_HAS_PROPERTY", "CONTAINS_TOKEN", "NOT_CONTAINS_TOKEN"}

// Closed is the schema that matches nothing (written as false): an object's
// additionalProperties when it lists every property it takes.
func Closed() *jsonschema.Schema { return &jsonschema.Schema{Not: &jsonschema.Schema{}} }

var noMore = Closed()

// BuildSchema returns the tool's full input schema (JSON Schema 2020-12,
// the dialect MCP and the validator assume when a schema names none).
//
// Every tool repeats the common parameters, and tools/list is read into
// each agent's context, so the schema carries only what its names and
// keywords do not say: no "$schema", no title or description of its own
// (every consumer shows the tool's beside it), none on rationale,
// account_id, limit, cursor or filter. The server's instructions and each
// refusal's hint say the rest. Action descriptions stay in the docs' action
// table; the tool description says what the actions do, and the action
// property which properties each one requires.
func BuildSchema(t *gtmgate.Tool) *jsonschema.Schema {
	props := map[string]*jsonschema.Schema{
		"rationale":  {Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(2000)},
		"account_id": {Type: "string"},
	}
	if t.Provider == "" {
		delete(props, "account_id")
	}
	required := []string{"rationale"}
	names := make([]any, len(t.Actions))
	for i, a := range t.Actions {
		names[i] = a.Name
	}
	// A tool with one action takes "action" but needs none: the enum says
	// which.
	props["action"] = &jsonschema.Schema{Type: "string", Enum: names}
	if len(t.Actions) > 1 {
		required = append(required, "action")
		props["action"].Description = actionRequirements(t.Actions)
	}
	if slices.ContainsFunc(t.Actions, func(a gtmgate.Action) bool { return a.List }) {
		props["limit"] = &jsonschema.Schema{Type: "integer", Minimum: jsonschema.Ptr(1.0), Maximum: jsonschema.Ptr(float64(MaxLimit))}
		props["cursor"] = &jsonschema.Schema{Type: "string"}
		ops := make([]any, len(FilterOperators))
		for i, o := range FilterOperators {
			ops[i] = o
		}
		props["filter"] = &jsonschema.Schema{Type: "object",
			Properties: map[string]*jsonschema.Schema{
				"property": {Type: "string", MinLength: jsonschema.Ptr(1)},
				"operator": {Type: "string", Enum: ops},
				"value": {
					AnyOf: []*jsonschema.Schema{{Type: "string"}, {Type: "number"}, {Type: "boolean"},
						{Type: "array", Items: &jsonschema.Schema{AnyOf: []*jsonschema.Schema{{Type: "string"}, {Type: "number"}}}}}},
			},
			Required: []string{"property", "operator"}, AdditionalProperties: noMore}
	}
	maps.Copy(props, t.Properties)
	// Clone so that a schema shared between properties or tools becomes a
	// tree, as the validator requires.
	return (&jsonschema.Schema{
		Type:                 "object",
		Properties:           props,
		Required:             required,
		AdditionalProperties: noMore,
	}).CloneSchemas()
}

// actionRequirements says which properties each action requires beyond
// the schema's own required list (Validate checks them), so that a caller
// need not learn them from a refusal: "Required per action: get: id;
// update: id, properties." Empty when no action requires any.
func actionRequirements(actions []gtmgate.Action) string {
	var parts []string
	for _, a := range actions {
		if len(a.Required) > 0 {
			parts = append(parts, a.Name+": "+strings.Join(a.Required, ", "))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Required per action: " + strings.Join(parts, "; ") + "."
}

// OutputSchema returns the schema of a tool's successful result envelope:
// {ok, tool, action, result, request_id, duration_ms}, and quota_warning
// when the call went past a soft quota. result is the action's own object.
// It has no descriptions: the envelope's names say what they hold, and
// every tool repeats it in tools/list.
func OutputSchema(t *gtmgate.Tool) *jsonschema.Schema {
	actions := make([]any, len(t.Actions))
	for i, a := range t.Actions {
		actions[i] = a.Name
	}
	return &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"ok":            {Type: "boolean", Enum: []any{true}},
			"tool":          {Type: "string", Enum: []any{t.Name}},
			"action":        {Type: "string", Enum: actions},
			"result":        {Type: "object"},
			"request_id":    {Type: "string"},
			"duration_ms":   {Type: "number", Minimum: jsonschema.Ptr(0.0)},
			"quota_warning": {Type: "string"},
		},
		Required:             []string{"ok", "tool", "action", "result", "request_id", "duration_ms"},
		AdditionalProperties: Closed(),
	}
}

// CheckOutput validates a successful call's structured result (decoded from
// JSON) against the tool's output schema.
func (e *Entry) CheckOutput(structured any) error {
	if e.output == nil {
		return nil
	}
	return e.output.Validate(structured)
}

var (
	propPath   = regexp.MustCompile(`/properties/([A-Za-z0-9_.-]+)`)
	noisePrefx = regexp.MustCompile(`^(validating [^:]*: )+`)
	wantType   = regexp.MustCompile(`want "([a-z]+)"`)
)

// Validate checks input against the tool's schema and per-action requirements.
// It returns the decoded input and the action, or a VALIDATION_ERROR naming the field.
func (e *Entry) Validate(input json.RawMessage) (map[string]any, gtmgate.Action, error) {
	var m map[string]any
	if err := json.Unmarshal(input, &m); err != nil || m == nil {
		return nil, gtmgate.Action{}, gtmgate.Errorf(gtmgate.EValidation, "input must be a JSON object").
			WithHint("send the tool parameters as an object, for example {\"rationale\": \"…\"}")
	}
	// The map keeps the last of duplicate names while an adapter binding the
	// same bytes to a struct matches names case-insensitively: refuse input
	// that the two could read differently.
	if err := jsonapi.CheckMemberNames(input); err != nil {
		return nil, gtmgate.Action{}, err
	}
	if r, ok := m["rationale"].(string); !ok || strings.TrimSpace(r) == "" {
		return nil, gtmgate.Action{}, gtmgate.Errorf(gtmgate.EValidation, "rationale is required").
			WithHint("add rationale to the tool parameters")
	}
	if err := e.resolved.Validate(m); err != nil {
		return nil, gtmgate.Action{}, validationError(err)
	}
	name, _ := m["action"].(string)
	if e.federated != nil {
		// An upstream tool has one action; "action" is its own property, if any.
		name = ""
	}
	action, ok := e.Tool.Action(name)
	if !ok {
		return nil, gtmgate.Action{}, gtmgate.Errorf(gtmgate.EValidation, "action is required: one of %s", strings.Join(e.actionNames(), ", "))
	}
	for _, req := range action.Required {
		if v, ok := m[req]; !ok || v == nil || v == "" {
			return nil, gtmgate.Action{}, gtmgate.Errorf(gtmgate.EValidation, "%s is required for action %s", req, action.Name)
		}
	}
	return m, action, nil
}

func (e *Entry) actionNames() []string {
	var out []string
	for _, a := range e.Actions {
		out = append(out, a.Name)
	}
	return out
}

// validationError rewrites a schema validator message so it names the field
// the way a caller wrote it ("filter.property") instead of a schema path, and
// folds an anyOf failure into the types it accepts.
func validationError(err error) error {
	msg := err.Error()
	first, rest, _ := strings.Cut(msg, "\n")
	field := ""
	if ms := propPath.FindAllStringSubmatch(lastPath(first), -1); len(ms) > 0 {
		parts := make([]string, len(ms))
		for i, m := range ms {
			parts[i] = m[1]
		}
		field = strings.Join(parts, ".")
	}
	if strings.Contains(lastPath(first), "/additionalProperties") {
		field += ".*"
	}
	if strings.Contains(first, "anyOf: did not validate") {
		var wants []string
		for _, m := range wantType.FindAllStringSubmatch(rest, -1) {
			if !slices.Contains(wants, m[1]) {
				wants = append(wants, m[1])
			}
		}
		msg = "must be one of the types " + strings.Join(wants, ", ")
	} else {
		msg = noisePrefx.ReplaceAllString(msg, "")
		msg = propPath.ReplaceAllString(msg, "")
		msg = strings.TrimLeft(msg, ": ")
	}
	if field != "" {
		msg = strings.TrimPrefix(field, ".") + ": " + msg
	}
	return &gtmgate.Error{Code: gtmgate.EValidation, Message: "invalid input: " + msg, Err: err}
}

// lastPath returns the deepest "validating /path" of a validator message line.
func lastPath(line string) string {
	i := strings.LastIndex(line, "validating /")
	if i < 0 {
		return ""
	}
	p, _, _ := strings.Cut(line[i+len("validating "):], ":")
	return p
}

// ListParams reads the common list parameters from validated input.
func ListParams(m map[string]any) (limit int, cursor string, filter *gtmgate.Filter) {
	limit = DefaultLimit
	if v, ok := m["limit"].(float64); ok {
		limit = int(v)
	}
	cursor, _ = m["cursor"].(string)
	if f, ok := m["filter"].(map[string]any); ok {
		prop, _ := f["property"].(string)
		op, _ := f["operator"].(string)
		filter = &gtmgate.Filter{Property: prop, Operator: op, Value: f["value"]}
	}
	return limit, cursor, filter
}
