package ga4

import (
	"testing"

	"github.com/gtmgate/gtmgate/provider/apispec/spectest"

	"github.com/gtmgate/gtmgate/provider/googleapi/googleapitest"
)

// TestUsageLimits: the Data API's errors are Google's JSON error body; its
// usage limits sent as 403 are RATE_LIMITED, not a refused token.
func TestUsageLimits(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	googleapitest.CheckUsageLimits(t, f.sandbox, f.Tools["ga4_report"], f.Account, SandboxToken,
		`{"rationale":"r","dimensions":["country"],"metrics":["sessions"]}`)
}

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
			googleapitest.CheckBadToken(t, f.Tools[tool], f.Account, input)
		})
		t.Run(tool+"/read retried after 500", func(t *testing.T) {
			googleapitest.CheckReadRetried(t, f.sandbox, f.Tools[tool], f.Account, SandboxToken, input)
		})
	}
	t.Run("400 carries Google's message", func(t *testing.T) {
		googleapitest.CheckBadRequest(t, f.Tools["ga4_report"], f.Account, SandboxToken,
			`{"rationale":"r","metrics":["sessionz"]}`, "sessionz is not a valid metric")
	})
}

func TestMain(m *testing.M) { spectest.Main(m) }
