package jsonapi

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
)

type sample struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

func TestUnmarshal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body, code, contains string
	}{
		{"ok", `{"name":"a","count":2}`, "", ""},
		{"empty", `  `, gtmgate.EValidation, "empty"},
		{"syntax", "{\n \"name\": }", gtmgate.EValidation, "line 2, column"},
		{"truncated", `{"name":"a"`, gtmgate.EValidation, "unexpected end"},
		{"unknown field", `{"name":"a","bogus":1}`, gtmgate.EValidation, `unknown field "bogus"`},
		{"wrong type", `{"count":"x"}`, gtmgate.EValidation, "count: expected int"},
		{"trailing", `{"name":"a"} {}`, gtmgate.EValidation, "after the JSON value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var s sample
			err := Unmarshal([]byte(tt.body), &s)
			if tt.code == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if got := gtmgate.ErrorCode(err); got != tt.code {
				t.Fatalf("code = %q, want %q (%v)", got, tt.code, err)
			}
			if msg := gtmgate.AsError(err).Message; !strings.Contains(msg, tt.contains) {
				t.Fatalf("message %q does not contain %q", msg, tt.contains)
			}
		})
	}
}

func TestDecodeTooLarge(t *testing.T) {
	t.Parallel()
	r := httptest.NewRequest("POST", "/", strings.NewReader(`{"name":"`+strings.Repeat("x", 100)+`"}`))
	r.ContentLength = -1
	var s sample
	err := Decode(httptest.NewRecorder(), r, 32, &s)
	if gtmgate.ErrorCode(err) != gtmgate.EPayloadTooLarge {
		t.Fatalf("got %v, want PAYLOAD_TOO_LARGE", err)
	}
}

func TestStatusCoversEveryCode(t *testing.T) {
	t.Parallel()
	for _, code := range []string{gtmgate.EValidation, gtmgate.EUnauthorized, gtmgate.EForbidden, gtmgate.ETenantNotFound,
		gtmgate.EToolNotFound, gtmgate.EApprovalRequired, gtmgate.ERateLimited, gtmgate.EQuotaExceeded,
		gtmgate.EUpstream, gtmgate.EUpstreamTimeout} {
		if _, ok := statuses[code]; !ok {
			t.Errorf("no status for %s", code)
		}
	}
	if Status(gtmgate.EApprovalRequired) != 202 || Status(gtmgate.EUpstream) != 502 {
		t.Fatal("DESIGN.md statuses changed")
	}
}

func FuzzUnmarshal(f *testing.F) {
	for _, s := range []string{`{"name":"a"}`, `{`, `[]`, `{"count":1e400}`, "{\"name\":\"\xff\"}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var s sample
		err := Unmarshal(b, &s)
		if err != nil && gtmgate.ErrorCode(err) != gtmgate.EValidation {
			t.Fatalf("non-validation error %v", err)
		}
	})
}
