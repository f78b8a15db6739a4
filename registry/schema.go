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

var noMore = &jsonschema.Schema{Not: &jsonschema.Schema{}}

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
				"value":    {Description: "Value to compare with; omitted for HAS_PROPERTY."},
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

var (
	propPath   = regexp.MustCompile(`/properties/([A-Za-z0-9_.-]+)`)
	noisePrefx = regexp.MustCompile(`^(validating [^:]*: )+`)
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
// the way a caller wrote it ("filter.property") instead of a schema path.
func validationError(err error) error {
	msg := err.Error()
	field := ""
	if ms := propPath.FindAllStringSubmatch(msg, -1); len(ms) > 0 {
		parts := make([]string, len(ms))
		for i, m := range ms {
			parts[i] = m[1]
		}
		field = strings.Join(parts, ".")
	}
	msg = noisePrefx.ReplaceAllString(msg, "")
	msg = propPath.ReplaceAllString(msg, "")
	msg = strings.TrimLeft(msg, ": ")
	if field != "" {
		msg = field + ": " + msg
	}
	return &gtmgate.Error{Code: gtmgate.EValidation, Message: "invalid input: " + msg, Err: err}
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
