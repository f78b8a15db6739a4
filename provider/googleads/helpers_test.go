package googleads

import (
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/provider/providertest"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// testNow pins the sandbox's clock so reports are reproducible.
var testNow = time.Date(2025, 6, 18, 15, 0, 0, 0, time.UTC)

type env struct {
	providertest.Kit
	sb  *Sandbox
	url string
}

// newEnv serves a fresh sandbox and returns the tools pointed at it.
func newEnv(t *testing.T) *env {
	t.Helper()
	psb := NewSandbox()
	sb := psb.Handler.(*Sandbox)
	sb.now = func() time.Time { return testNow }
	url := providertest.Serve(t, psb)
	opts := Options(url, "sandbox-dev-token", "")
	opts.Backoff = time.Millisecond
	return &env{Kit: providertest.NewKit(Tools(upstream.MustNew(opts)), psb.Accounts[0], SandboxToken), sb: sb, url: url}
}
