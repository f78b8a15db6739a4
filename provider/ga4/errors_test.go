package ga4

import (
	"testing"

	"github.com/gtmgate/gtmgate/provider/googleapi/googleapitest"
)

func TestUpstreamFaults(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	inputs := map[string]string{
		"ga4_report":   `{"rationale":"r","dimensions":["country"],"metrics":["sessions"]}`,
		"ga4_realtime": `{"rationale":"r","dimensions":["country"]}`,
		"ga4_metadata": `{"rationale":"r"}`,
	}
	for tool, input := range inputs {
		t.Run(tool+"/bad token", func(t *testing.T) {
			googleapitest.CheckBadToken(t, f.tools[tool], f.account, input)
		})
		t.Run(tool+"/read retried after 500", func(t *testing.T) {
			googleapitest.CheckReadRetried(t, f.sandbox, f.tools[tool], f.account, SandboxToken, input)
		})
	}
	t.Run("400 carries Google's message", func(t *testing.T) {
		googleapitest.CheckBadRequest(t, f.tools["ga4_report"], f.account, SandboxToken,
			`{"rationale":"r","metrics":["sessionz"]}`, "sessionz is not a valid metric")
	})
}
