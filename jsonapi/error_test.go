package jsonapi_test

import (
	"encoding/json"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// TestErrorBodyField: an error's field is rendered beside its code,
// message and hint, and left out when the error names none.
func TestErrorBodyField(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"a field", gtmgate.Errorf(gtmgate.EValidation, "currency: %q is not an ISO 4217 code", "euro").WithHint("EUR").AtField("currency"),
			`{"error":{"code":"VALIDATION_ERROR","message":"currency: \"euro\" is not an ISO 4217 code","hint":"EUR","field":"currency"},"request_id":"r1"}`},
		{"none", gtmgate.Errorf(gtmgate.ENotFound, "no such gate"), `{"error":{"code":"NOT_FOUND","message":"no such gate"},"request_id":"r1"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(jsonapi.NewErrorBody(tc.err, "r1"))
			if err != nil || string(b) != tc.want {
				t.Errorf("body %s (%v), want %s", b, err, tc.want)
			}
		})
	}
}
