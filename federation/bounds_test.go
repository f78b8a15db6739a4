package federation

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// nested is a schema whose properties nest depth objects deep.
func nested(depth int) map[string]any {
	s := map[string]any{"type": "string"}
	for range depth - 1 {
		s = map[string]any{"type": "object", "properties": map[string]any{"a": s}}
	}
	return s
}

func TestCheckListing(t *testing.T) {
	many := func(n int) []*mcp.Tool {
		out := make([]*mcp.Tool, n)
		for i := range out {
			out[i] = &mcp.Tool{Name: fmt.Sprintf("t%d", i), InputSchema: map[string]any{"type": "object"}}
		}
		return out
	}
	one := func(t *mcp.Tool) []*mcp.Tool { return []*mcp.Tool{t} }
	obj := map[string]any{"type": "object"}
	for _, tc := range []struct {
		name  string
		tools []*mcp.Tool
		want  string // "" when accepted
	}{
		{"none", nil, ""},
		{"at the tool bound", many(MaxTools), ""},
		{"over the tool bound", many(20000), "declares 20000 tools; at most 500"},
		{"long name", one(&mcp.Tool{Name: strings.Repeat("n", MaxToolNameLen+1), InputSchema: obj}), "tool name of 129 bytes"},
		{"long title", one(&mcp.Tool{Name: "t", Title: strings.Repeat("x", MaxTitleLen+1), InputSchema: obj}), "title of 1025 bytes"},
		{"description at the bound", one(&mcp.Tool{Name: "t", Description: strings.Repeat("d", MaxDescriptionLen), InputSchema: obj}), ""},
		{"long description", one(&mcp.Tool{Name: "t", Description: strings.Repeat("d", MaxDescriptionLen+1), InputSchema: obj}), `tool "t" with a description of 8193 bytes; at most 8192`},
		{"big input schema", one(&mcp.Tool{Name: "t", InputSchema: map[string]any{"type": "object", "description": strings.Repeat("s", MaxSchemaBytes)}}), `tool "t" with an input schema of`},
		{"big output schema", one(&mcp.Tool{Name: "t", InputSchema: obj, OutputSchema: map[string]any{"type": "object", "description": strings.Repeat("s", MaxSchemaBytes)}}), "output schema of"},
		{"deep schema at the bound", one(&mcp.Tool{Name: "t", InputSchema: nested(MaxSchemaDepth / 2)}), ""},
		{"deep schema", one(&mcp.Tool{Name: "t", InputSchema: nested(MaxSchemaDepth)}), "nested 63 deep; at most 32"},
		{"nil tool", []*mcp.Tool{nil}, "empty tool"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := checkListing("up", tc.tools)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want != "" && err == nil:
				t.Fatalf("accepted, want %q", tc.want)
			case tc.want != "" && !strings.Contains(err.Error(), tc.want):
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
}

// depthOf is the recursive measure jsonDepth must agree with.
func depthOf(v any) int {
	d := 0
	switch v := v.(type) {
	case map[string]any:
		for _, e := range v {
			d = max(d, depthOf(e))
		}
		return d + 1
	case []any:
		for _, e := range v {
			d = max(d, depthOf(e))
		}
		return d + 1
	}
	return 0
}

// FuzzSchemaBounds checks the depth and size measure over arbitrary input:
// it never panics, refuses what is not JSON, agrees with a recursive count
// where encoding/json can decode, and refuses whatever breaks a bound.
func FuzzSchemaBounds(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `1`, `"x"`, `{"a":[{"b":[]}]}`, `[[[[[[]]]]]]`, `{"a":"}"}`, `"[[["`,
		`{`, `]`, `{"a":1,}`, strings.Repeat("[", 40) + strings.Repeat("]", 40), "\xff"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		depth, err := jsonDepth(b)
		var v any
		uerr := json.Unmarshal(b, &v)
		if (err == nil) != (uerr == nil) && json.Valid(b) {
			t.Fatalf("jsonDepth err %v, Unmarshal err %v", err, uerr)
		}
		if err == nil && uerr == nil && depth != depthOf(v) {
			t.Fatalf("jsonDepth %d, recursive %d", depth, depthOf(v))
		}
		berr := schemaBounds(b)
		if err == nil && (depth > MaxSchemaDepth || len(b) > MaxSchemaBytes) && berr == nil {
			t.Fatalf("%d bytes %d deep accepted", len(b), depth)
		}
		if err != nil && len(b) <= MaxSchemaBytes && berr == nil {
			t.Fatalf("invalid JSON accepted: %v", err)
		}
	})
}
