package gateway

import (
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// FuzzToolCallBody feeds the REST proxy's body decoder arbitrary bytes: it
// either decodes or answers VALIDATION_ERROR, never panics or another code.
func FuzzToolCallBody(f *testing.F) {
	for _, s := range []string{
		`{"tool":"crm_contacts","input":{"rationale":"r"}}`, `{"tool":1}`, `{"tool":"x","input":[]}`,
		`{"tool":"x","input":{}} trailing`, `{"tool":"x","extra":true}`, "\xef\xbb\xbf{}", `{"input":{"a":` + "\x00" + `}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var body ToolCallBody
		err := jsonapi.Unmarshal(b, &body)
		if err != nil && gtmgate.ErrorCode(err) != gtmgate.EValidation {
			t.Fatalf("code %s for %q", gtmgate.ErrorCode(err), b)
		}
	})
}
