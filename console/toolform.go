package console

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Kinds of playground form fields, one per way a value is typed in.
const (
	fieldText     = "text"     // a one-line string
	fieldLong     = "textarea" // a long string
	fieldNumber   = "number"   // a number or an integer
	fieldCheckbox = "checkbox" // a boolean
	fieldSelect   = "select"   // one of an enum
	fieldLines    = "lines"    // an array of strings, one a line
	fieldJSON     = "json"     // anything else, typed as JSON
)

// longString is the maxLength past which a string gets a textarea.
const longString = 200

// formField is one input of a tool's playground form, built from its
// input schema's property.
type formField struct {
	Name, Kind string
	// Type is an <input>'s type: text, email, url, date, number.
	Type     string
	Help     string
	Required bool
	// Integer makes a number field take whole numbers only.
	Integer bool
	Options []fieldOption
	// Value is what the field shows: the value typed, kept across a
	// failed run; Checked a checkbox's.
	Value   string
	Checked bool
	// Error is why the value typed could not be read.
	Error string
}

// fieldOption is one choice of a select.
type fieldOption struct {
	Value, Label string
}

// actionMarks are what the action select says of each action: "held for
// approval", "destructive".
type actionMarks map[string][]string

// formFields builds the playground form of a tool's input schema (as the
// admin API answers it): "action" first, then the required properties in
// the schema's order, then the rest by name. marks labels the actions.
func formFields(schema map[string]any, marks actionMarks) []formField {
	props, _ := schema["properties"].(map[string]any)
	required := stringsOf(schema["required"])
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	rank := func(name string) int {
		switch i := slices.Index(required, name); {
		case name == "action":
			return -1
		case i >= 0:
			return i
		}
		return len(required)
	}
	slices.SortFunc(names, func(a, b string) int { return cmp.Or(cmp.Compare(rank(a), rank(b)), strings.Compare(a, b)) })
	out := make([]formField, 0, len(names))
	for _, name := range names {
		p, _ := props[name].(map[string]any)
		out = append(out, fieldOf(name, p, slices.Contains(required, name), marks))
	}
	return out
}

// fieldOf is the field of property name with schema p.
func fieldOf(name string, p map[string]any, required bool, marks actionMarks) formField {
	f := formField{Name: name, Kind: fieldJSON, Required: required, Help: anyString(p["description"])}
	typ := schemaType(p)
	if enum := stringsOf(p["enum"]); len(enum) > 0 && (typ == "string" || typ == "") {
		f.Kind = fieldSelect
		if !required && name != "action" {
			f.Options = append(f.Options, fieldOption{"", "—"})
		}
		for _, v := range enum {
			label := v
			if m := marks[v]; name == "action" && len(m) > 0 {
				label += " (" + strings.Join(m, ", ") + ")"
			}
			f.Options = append(f.Options, fieldOption{v, label})
		}
		return f
	}
	switch typ {
	case "string":
		f.Kind, f.Type = fieldText, "text"
		switch anyString(p["format"]) {
		case "email":
			f.Type = "email"
		case "uri":
			f.Type = "url"
		case "date":
			f.Type = "date"
		case "date-time":
			f.Help = strings.TrimSpace(f.Help + " An RFC 3339 time, e.g. 2026-01-31T09:00:00Z.")
		}
		if n, ok := p["maxLength"].(float64); ok && n > longString || name == "rationale" {
			f.Kind, f.Type = fieldLong, ""
		}
	case "integer", "number":
		f.Kind, f.Type, f.Integer = fieldNumber, "number", typ == "integer"
	case "boolean":
		f.Kind = fieldCheckbox
	case "array":
		if items, _ := p["items"].(map[string]any); schemaType(items) == "string" && items["enum"] == nil {
			f.Kind = fieldLines
		}
	}
	return f
}

// schemaType is a schema's one type, the non-null one of ["T", "null"]; ""
// when it has none or several.
func schemaType(p map[string]any) string {
	switch t := p["type"].(type) {
	case string:
		return t
	case []any:
		var types []string
		for _, v := range t {
			if s, _ := v.(string); s != "null" {
				types = append(types, s)
			}
		}
		if len(types) == 1 {
			return types[0]
		}
	}
	return ""
}

func stringsOf(v any) []string {
	l, _ := v.([]any)
	out := make([]string, 0, len(l))
	for _, x := range l {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// inputOf reads a posted playground form into a tool's input, typed as the
// fields say: a field left empty is left out. It returns the fields with
// the values typed (to show again) and, on those that could not be read,
// why; ok is false when any could not.
func inputOf(fields []formField, form url.Values) (input map[string]any, shown []formField, ok bool) {
	input, ok = map[string]any{}, true
	shown = slices.Clone(fields)
	for i := range shown {
		f := &shown[i]
		raw := form.Get("in." + f.Name)
		f.Value = raw
		if f.Kind == fieldCheckbox {
			f.Checked = raw != ""
			if f.Checked {
				input[f.Name] = true
			}
			continue
		}
		if strings.TrimSpace(raw) == "" {
			continue
		}
		v, err := typed(f, raw)
		if err != nil {
			f.Error, ok = err.Error(), false
			continue
		}
		input[f.Name] = v
	}
	return input, shown, ok
}

// typed reads raw, a non-empty value typed into f.
func typed(f *formField, raw string) (any, error) {
	switch f.Kind {
	case fieldNumber:
		s := strings.TrimSpace(raw)
		if f.Integer {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%q is not a whole number", s)
			}
			return n, nil
		}
		n, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", s)
		}
		return n, nil
	case fieldLines:
		var lines []string
		for _, l := range strings.Split(raw, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				lines = append(lines, l)
			}
		}
		return lines, nil
	case fieldJSON:
		var v any
		if err := json.Unmarshal([]byte(raw), &v); err != nil {
			return nil, fmt.Errorf("not JSON: %v", err)
		}
		return v, nil
	}
	return raw, nil
}

// withValues fills fields with the values of input (a decoded tool input),
// as a form shows a call to run again.
func withValues(fields []formField, input map[string]any) []formField {
	out := slices.Clone(fields)
	for i := range out {
		f := &out[i]
		v, ok := input[f.Name]
		if !ok {
			continue
		}
		switch f.Kind {
		case fieldCheckbox:
			f.Checked = v == true
		case fieldLines:
			f.Value = strings.Join(stringsOf(v), "\n")
		case fieldJSON:
			b, _ := json.Marshal(v)
			f.Value = string(b)
		default:
			if s, ok := v.(string); ok {
				f.Value = s
			} else {
				b, _ := json.Marshal(v)
				f.Value = string(b)
			}
		}
	}
	return out
}
