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

// BuildSchema returns the tool's full input schema (JSON Schema 2020-12).
func BuildSchema(t *gtmgate.Tool) *jsonschema.Schema {
	props := map[string]*jsonschema.Schema{
		"rationale": {Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(2000),
			Description: "Why you are making this call, in one sentence. Required on every call; graders read it."},
		"account_id": {Type: "string", Description: "Provider account to act on; the tenant's default account when omitted."},
	}
	if t.Provider == "" {
		delete(props, "account_id")
	}
	required := []string{"rationale"}
	if len(t.Actions) > 1 {
		var names []any
		var desc []string
		for _, a := range t.Actions {
			names = append(names, a.Name)
			if a.Description != "" {
				desc = append(desc, a.Name+": "+a.Description)
			}
		}
		props["action"] = &jsonschema.Schema{Type: "string", Enum: names, Description: "Operation to perform. " + strings.Join(desc, "; ")}
		required = append(required, "action")
	} else {
		props["action"] = &jsonschema.Schema{Type: "string", Enum: []any{t.Actions[0].Name}, Description: "Optional: the tool's only operation."}
	}
	if slices.ContainsFunc(t.Actions, func(a gtmgate.Action) bool { return a.List }) {
		props["limit"] = &jsonschema.Schema{Type: "integer", Minimum: jsonschema.Ptr(1.0), Maximum: jsonschema.Ptr(float64(MaxLimit)),
			Description: "Page size for list actions (default 25, max 100)."}
		props["cursor"] = &jsonschema.Schema{Type: "string", Description: "Opaque cursor from a previous page's next_cursor."}
		ops := make([]any, len(FilterOperators))
		for i, o := range FilterOperators {
			ops[i] = o
		}
		props["filter"] = &jsonschema.Schema{Type: "object", Description: "Narrow a list action: property operator value.",
			Properties: map[string]*jsonschema.Schema{
				"property": {Type: "string", MinLength: jsonschema.Ptr(1)},
				"operator": {Type: "string", Enum: ops},
				"value": {Description: "Value to compare with: a string, number or boolean; a list for IN and NOT_IN, [low, high] for BETWEEN; omitted for HAS_PROPERTY.",
					AnyOf: []*jsonschema.Schema{{Type: "string"}, {Type: "number"}, {Type: "boolean"},
						{Type: "array", Items: &jsonschema.Schema{AnyOf: []*jsonschema.Schema{{Type: "string"}, {Type: "number"}}}}}},
			},
			Required: []string{"property", "operator"}, AdditionalProperties: noMore}
	}
	maps.Copy(props, t.Properties)
	// Clone so that a schema shared between properties or tools becomes a
	// tree, as the validator requires.
	return (&jsonschema.Schema{
		Schema:               "https://json-schema.org/draft/2020-12/schema",
		Type:                 "object",
		Title:                t.Title,
		Description:          t.Description,
		Properties:           props,
		Required:             required,
		AdditionalProperties: noMore,
	}).CloneSchemas()
}

// OutputSchema returns the schema of a tool's successful result envelope:
// {ok, tool, action, result, request_id, duration_ms}. result is the
// action's own object.
func OutputSchema(t *gtmgate.Tool) *jsonschema.Schema {
	actions := make([]any, len(t.Actions))
	for i, a := range t.Actions {
		actions[i] = a.Name
	}
	return &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"ok":          {Type: "boolean", Enum: []any{true}},
			"tool":        {Type: "string", Enum: []any{t.Name}},
			"action":      {Type: "string", Enum: actions, Description: "The action that ran."},
			"result":      {Type: "object", Description: "The action's result, an object whose fields depend on the action (items and next_cursor for list actions)."},
			"request_id":  {Type: "string", Description: "The call's request id, as in the audit log."},
			"duration_ms": {Type: "number", Minimum: jsonschema.Ptr(0.0), Description: "Time the call took in the gateway, in milliseconds."},
			"quota_warning": {Type: "string", Description: "Present when the call went ahead past a soft quota of the tenant's billing plan: " +
				"which quota, its use and when it resets."},
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
