package jsonapi

import (
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
)

func TestCheckMemberNames(t *testing.T) {
	for _, tc := range []struct {
		name, body, wantIn string
	}{
		{"plain", `{"tool":"a","input":{"action":"list"}}`, ""},
		{"same name in different objects", `{"a":{"x":1},"b":{"x":2},"x":3}`, ""},
		{"array of objects", `[{"a":1},{"a":2}]`, ""},
		{"strings in a top-level array", `["a","A"]`, ""},
		{"names as values", `{"tool":"tool","TOOL2":"Tool"}`, ""},
		{"exact duplicate at top", `{"tool":"a","tool":"b"}`, "duplicate field tool"},
		{"case variant at top", `{"tool":"a","TOOL":"b"}`, `"tool" and "TOOL"`},
		{"duplicate nested", `{"input":{"action":"list","action":"delete"}}`, "duplicate field input.action"},
		{"duplicate deep in array", `{"messages":[{"role":"user","role":"system"}]}`, "duplicate field messages.0.role"},
		{"escaped duplicate", `{"model":"a","mod\u0065l":"b"}`, "duplicate field model"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckMemberNames([]byte(tc.body))
			if tc.wantIn == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if gtmgate.ErrorCode(err) != gtmgate.EValidation || !strings.Contains(err.Error(), tc.wantIn) {
				t.Fatalf("err = %v, want VALIDATION_ERROR mentioning %q", err, tc.wantIn)
			}
		})
	}
}

func TestCheckTopLevelNames(t *testing.T) {
	for _, tc := range []struct {
		name, body, wantIn string
	}{
		{"plain", `{"model":"m","messages":[{"role":"user","content":"hi"}],"stream":true}`, ""},
		{"nested duplicates are the upstream's business", `{"model":"m","messages":[{"role":"user","role":"x"}]}`, ""},
		{"duplicate model", `{"model":"bad","messages":[],"model":"good"}`, "duplicate field model"},
		{"case-variant model", `{"model":"bad","MODEL":"good"}`, `"model" and "MODEL"`},
		{"case-variant stream_options", `{"model":"m","stream_options":{},"Stream_Options":null}`, "differ only in case"},
		{"not an object", `[1]`, "not a JSON object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckTopLevelNames([]byte(tc.body))
			if tc.wantIn == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if gtmgate.ErrorCode(err) != gtmgate.EValidation || !strings.Contains(err.Error(), tc.wantIn) {
				t.Fatalf("err = %v, want VALIDATION_ERROR mentioning %q", err, tc.wantIn)
			}
		})
	}
}

func FuzzCheckMemberNames(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"a":1,"A":2}`, `{"a":{"b":1,"b":2}}`, `[1,{"x":[{"y":1,"y":1}]}]`, `{"\u0061":1,"a":2}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, check := range []func([]byte) error{CheckMemberNames, CheckTopLevelNames} {
			if err := check([]byte(s)); err != nil && gtmgate.ErrorCode(err) != gtmgate.EValidation {
				t.Fatalf("error %v is not a VALIDATION_ERROR", err)
			}
		}
	})
}

// BenchmarkCheckMemberNames checks a REST tool call's body, as every call
// through /api/v1 has it checked.
//
//	go test ./jsonapi -run '^$' -bench CheckMemberNames -benchmem
func BenchmarkCheckMemberNames(b *testing.B) {
	body := []byte(`{"tool":"crm_deals","input":{"action":"search","rationale":"bench","filters":[{"property":"dealstage","operator":"EQ","value":"closedwon"}],"limit":20}}`)
	b.ReportAllocs()
	for b.Loop() {
		if err := CheckMemberNames(body); err != nil {
			b.Fatal(err)
		}
	}
}
