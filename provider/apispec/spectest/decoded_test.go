package spectest

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/provider/apispec"
)

// recorder is a testing.TB that keeps what Decoded reports.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// TestDecoded: a field the response schema lacks fails, unless it is
// allowed; an allowed path the schema declares fails too, as does an
// operation the facts do not have.
func TestDecoded(t *testing.T) {
	spec := apispec.MustParse([]byte(`{"provider": "x", "source": "https://example.com", "retrieved": "2026-11-27",
		"operations": [{"id": "items.list", "method": "GET", "path": "/items", "response": {"type": "object",
			"properties": {"nextPageToken": {"type": "string"}}}}]}`))
	type page struct {
		Next  string `json:"nextPageToken"`
		Total int    `json:"total"`
	}
	tests := []struct {
		name, op string
		allowed  []string
		want     []string
	}{
		{"undeclared", "items.list", nil, []string{"total: not declared by the schema"}},
		{"allowed", "items.list", []string{"total"}, nil},
		{"allowed but declared", "items.list", []string{"total", "nextPageToken"}, []string{"nextPageToken is allowed as undeclared"}},
		{"no such operation", "items.get", nil, []string{"has no operation items.get"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{TB: t}
			Decoded(r, spec, tt.op, reflect.TypeFor[page](), tt.allowed...)
			if len(r.errors) != len(tt.want) {
				t.Fatalf("errors %q, want %d", r.errors, len(tt.want))
			}
			for i, w := range tt.want {
				if !strings.Contains(r.errors[i], w) {
					t.Errorf("error %q, want it to say %q", r.errors[i], w)
				}
			}
		})
	}
}
