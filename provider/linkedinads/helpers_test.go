package linkedinads

import (
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/provider/apispec/spectest"
	"github.com/gtmgate/gtmgate/provider/providertest"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

var testNow = time.Date(2025, 6, 18, 15, 0, 0, 0, time.UTC)

type env struct {
	providertest.Kit
	sb *Sandbox
}

func newEnv(t *testing.T) *env {
	t.Helper()
	psb := NewSandbox()
	sb := psb.Handler.(*Sandbox)
	sb.now = func() time.Time { return testNow }
	opts := Options(providertest.Serve(t, psb), "")
	opts.Backoff = time.Millisecond
	return &env{Kit: providertest.NewKit(Tools(upstream.MustNew(opts)), psb.Accounts[0], SandboxToken), sb: sb}
}

func TestMain(m *testing.M) { spectest.Main(m) }
