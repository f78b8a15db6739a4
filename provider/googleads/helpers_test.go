package googleads

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/provider/apispec/spectest"
	"github.com/gtmgate/gtmgate/provider/providertest"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// TestMain fails the package when a sandbox saw a request or sent an answer
// the v25 protos do not allow and no test took it.
func TestMain(m *testing.M) { spectest.Main(m) }

// testNow pins the sandbox's clock so reports are reproducible.
var testNow = time.Date(2025, 6, 18, 15, 0, 0, 0, time.UTC)

// lateNow is a day after v21's sunset and after Google stopped requiring
// developer tokens.
var lateNow = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

type env struct {
	providertest.Kit
	sb  *Sandbox
	url string
	log *requestLog
}

// envOptions vary the fixture; the zero value is the default sandbox on testNow.
type envOptions struct {
	now      time.Time
	version  string // "" for the default
	devToken string // "" for "sandbox-dev-token"; "none" sends none
	account  int    // index into the sandbox's accounts
}

// requestLog records what the sandbox received.
type requestLog struct {
	mu      sync.Mutex
	paths   []string
	logins  []string
	devToks []string
}

func (l *requestLog) add(r *http.Request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.paths = append(l.paths, r.URL.Path)
	l.logins = append(l.logins, r.Header.Get("login-customer-id"))
	l.devToks = append(l.devToks, r.Header.Get("developer-token"))
}

// newEnv serves a fresh sandbox and returns the tools pointed at it.
func newEnv(t *testing.T) *env {
	t.Helper()
	return newEnvWith(t, envOptions{})
}

func newEnvWith(t *testing.T, o envOptions) *env {
	t.Helper()
	if o.now.IsZero() {
		o.now = testNow
	}
	switch o.devToken {
	case "":
		o.devToken = "sandbox-dev-token"
	case "none":
		o.devToken = ""
	}
	psb := NewSandbox()
	sb := psb.Handler.(*Sandbox)
	sb.now = func() time.Time { return o.now }
	log := &requestLog{}
	psb.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.add(r)
		sb.ServeHTTP(w, r)
	})
	url := providertest.Serve(t, psb)
	opts := Options(url, o.devToken, o.version)
	opts.Backoff = time.Millisecond
	return &env{Kit: providertest.NewKit(Tools(upstream.MustNew(opts)), psb.Accounts[o.account], SandboxToken), sb: sb, url: url, log: log}
}
