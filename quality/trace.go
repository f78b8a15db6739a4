package quality

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gtmgate/gtmgate"
)

// maxExcerpt bounds the result excerpt a trace carries, in bytes of JSON.
const maxExcerpt = 8 << 10

// NewTrace builds the trace of a finished call that was sampled.
func NewTrace(c *gtmgate.FinishedCall) *gtmgate.Trace {
	t := &gtmgate.Trace{
		ID: gtmgate.NewID("trc_"), Time: c.Time, TenantID: c.TenantID, Tool: c.Tool, Action: c.Action.Name,
		Expected: c.Action.Category, Mutating: c.Action.Mutating, Source: c.Source, RequestID: c.RequestID,
		ParentRequestID: c.ParentRequestID, Key: c.Key, LatencyMS: c.DurationMS, Sample: c.Sample, ToolDescription: c.ToolDescription,
	}
	clean := Redact(c.Input)
	t.Input, _ = json.Marshal(clean)
	t.InputShape = c.Tool + "." + c.Action.Name + Shape(clean)
	if c.Err != nil {
		t.Error = &gtmgate.TraceError{Code: gtmgate.ErrorCode(c.Err), Message: excerptText(gtmgate.AsError(c.Err).Message, 2<<10)}
		return t
	}
	raw, err := json.Marshal(c.Result)
	if err != nil {
		raw, _ = json.Marshal(fmt.Sprintf("result not encodable: %v", err))
	}
	if len(raw) > maxExcerpt {
		t.Truncated = true
		raw, _ = json.Marshal(excerptText(string(raw), maxExcerpt))
	}
	t.Result = raw
	return t
}

func excerptText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}

// secretNames are parts of property names whose values never reach a trace.
var secretNames = []string{"token", "secret", "password", "passwd", "apikey", "api_key", "authorization", "credential", "cookie", "private_key"}

// Redacted replaces a secret value in a trace's input.
const Redacted = "[redacted]"

// Redact returns a copy of v with the values of secret-looking properties
// replaced, at any depth. Tool inputs carry no credentials by design (tokens
// live in the store); this guards against an agent pasting one into a field.
func Redact(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			if secretName(k) {
				out[k] = Redacted
				continue
			}
			out[k] = Redact(val)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, val := range x {
			out[i] = Redact(val)
		}
		return out
	}
	return v
}

func secretName(k string) bool {
	k = strings.ToLower(k)
	for _, s := range secretNames {
		if strings.Contains(k, s) {
			return true
		}
	}
	return false
}

// Shape describes a value's structure without its values: object keys in
// order with their shapes, arrays by their first element. Two inputs of the
// same shape are one input class.
func Shape(v any) string {
	var b strings.Builder
	shape(&b, v)
	return b.String()
}

func shape(b *strings.Builder, v any) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(k)
			b.WriteByte(':')
			shape(b, x[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		if len(x) > 0 {
			shape(b, x[0])
		}
		b.WriteByte(']')
	case string:
		b.WriteString("string")
	case float64, json.Number, int, int64:
		b.WriteString("number")
	case bool:
		b.WriteString("bool")
	case nil:
		b.WriteString("null")
	default:
		fmt.Fprintf(b, "%T", v)
	}
}
