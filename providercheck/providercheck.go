// Package providercheck checks a tenant's provider accounts against the real
// providers: for each account, one harmless read through the provider's own
// adapter, reporting whether the provider answered, whether it took the
// stored credential, the API version in use and its sunset. It is what
// `gtmgate providers check` and POST /admin/providers/check run before an
// operator trusts an account with agents.
package providercheck

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/apiversion"
	"github.com/gtmgate/gtmgate/registry"
)

// Probe is the harmless read that checks one provider: a read action of one
// of its tools, with the input it runs (the account is added per account).
type Probe struct {
	Tool  string
	Input string
}

// Options configures a Checker. Every field but Now and Timeout is required.
type Options struct {
	Store    gtmgate.Store
	Registry *registry.Registry
	// Tokens gives an account's credential, as tool calls get it.
	Tokens interface {
		TokenSource(ctx context.Context, tenantID, provider, accountID string) (gtmgate.TokenSource, error)
	}
	// Probes are the reads by provider key.
	Probes map[string]Probe
	// Scopes are what each provider's tools need of a credential, by provider key.
	Scopes map[string]ScopeFacts
	// Version is the configured API version of a provider key.
	Version func(key string) string
	// Timeout bounds one account's read (default 20s).
	Timeout time.Duration
	Now     func() time.Time
}

// Checker runs checks.
type Checker struct{ opts Options }

// New returns a Checker.
func New(opts Options) *Checker {
	if opts.Timeout <= 0 {
		opts.Timeout = 20 * time.Second
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Checker{opts: opts}
}

// Outcome values of an account's check.
const (
	OK            = "ok"             // the read succeeded
	Unreachable   = "unreachable"    // the provider did not answer
	Unauthorized  = "unauthorized"   // the provider refused the credential, or there is none
	Forbidden     = "forbidden"      // the provider took the credential but refuses it this account or read
	RateLimited   = "rate_limited"   // the provider took the credential but is rate-limiting it: wait, do not re-authorise
	Failed        = "failed"         // the provider answered with another error
	NotCheckable  = "not_checkable"  // gtmgate has no harmless read for the provider (not a failure)
	VersionSunset = "version_sunset" // the configured version is past its sunset (the read failed, or still worked)
	MissingScopes = "missing_scopes" // the read worked, but the credential lacks scopes some tools need
)

// Account is one account's result.
type Account struct {
	TenantID  string `json:"tenant_id"`
	Provider  string `json:"provider"`
	AccountID string `json:"account_id"`
	// Outcome is one of the outcome values; OK only when the account works.
	Outcome string `json:"outcome"`
	// Reachable: the provider answered (with anything).
	Reachable bool `json:"reachable"`
	// Authenticated: the provider took the stored credential.
	Authenticated bool `json:"authenticated"`
	// Probe is the read run, as tool.action.
	Probe   string            `json:"probe,omitempty"`
	Version apiversion.Status `json:"version"`
	// Scopes compares the credential's granted scopes with what the tools
	// need; nil for providers that use no OAuth scopes (an API key).
	Scopes     *ScopeReport `json:"scopes,omitempty"`
	DurationMS float64      `json:"duration_ms"`
	// ErrorCode and Message say what failed (the gateway's error, secrets removed).
	ErrorCode string `json:"error_code,omitempty"`
	Message   string `json:"message"`
	Hint      string `json:"hint,omitempty"`
}

// Report is one check's results.
type Report struct {
	CheckedAt time.Time `json:"checked_at"`
	Accounts  []Account `json:"accounts"`
	// OK is true when every account checked works.
	OK bool `json:"ok"`
}

// Check checks every account of tenantID, or of every tenant when empty.
func (c *Checker) Check(ctx context.Context, tenantID string) (*Report, error) {
	var tenants []*gtmgate.Tenant
	if tenantID != "" {
		t, err := c.opts.Store.GetTenant(ctx, tenantID)
		if errors.Is(err, gtmgate.ErrNotFound) {
			return nil, gtmgate.Errorf(gtmgate.ETenantNotFound, "tenant %q is not provisioned", tenantID)
		} else if err != nil {
			return nil, fmt.Errorf("provider check: tenant %s: %w", tenantID, err)
		}
		tenants = []*gtmgate.Tenant{t}
	} else {
		list, err := c.opts.Store.ListTenants(ctx)
		if err != nil {
			return nil, fmt.Errorf("provider check: tenants: %w", err)
		}
		tenants = list
	}
	type job struct {
		t        *gtmgate.Tenant
		provider string
		acct     gtmgate.Account
	}
	var todo []job
	for _, t := range tenants {
		providers := make([]string, 0, len(t.Providers))
		for p := range t.Providers {
			providers = append(providers, p)
		}
		sort.Strings(providers)
		for _, p := range providers {
			for _, acct := range t.Providers[p].Accounts {
				todo = append(todo, job{t, p, acct})
			}
		}
	}
	r := &Report{CheckedAt: c.opts.Now().UTC(), Accounts: make([]Account, len(todo)), OK: true}
	// Accounts are checked side by side, a few at a time, so that one slow
	// provider does not hold up the report for the time-out of each account.
	var g errgroup.Group
	g.SetLimit(parallelChecks)
	for i, j := range todo {
		g.Go(func() error {
			r.Accounts[i] = c.checkAccount(ctx, j.t, j.provider, j.acct)
			return nil
		})
	}
	g.Wait()
	for _, a := range r.Accounts {
		r.OK = r.OK && a.works()
	}
	return r, nil
}

// parallelChecks bounds the accounts checked at once.
const parallelChecks = 8

func (c *Checker) checkAccount(ctx context.Context, t *gtmgate.Tenant, provider string, acct gtmgate.Account) Account {
	ctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	a := Account{TenantID: t.ID, Provider: provider, AccountID: acct.ID}
	if cat, ok := apiversion.Of(provider); ok {
		a.Version = cat.Status(c.opts.Version(provider), c.opts.Now())
	}
	ts, err := c.opts.Tokens.TokenSource(ctx, t.ID, provider, acct.ID)
	if err != nil {
		c.classify(&a, err)
		return a
	}
	c.read(ctx, &a, acct, ts)
	// Past its sunset, the version is the cause to fix first, whether the
	// provider still answered (some upgrade old calls for a while) or not.
	if a.Version.Level == apiversion.LevelSunset && (a.Outcome == OK || a.Outcome == Failed) {
		if a.Outcome == OK {
			a.Message = a.Version.Message
		}
		a.Outcome = VersionSunset
	}
	if facts, ok := c.opts.Scopes[provider]; ok && (a.Outcome == OK || a.Outcome == NotCheckable) {
		a.Scopes = c.checkScopes(ctx, facts, ts)
		if n := len(a.Scopes.Missing); n > 0 {
			a.Outcome = MissingScopes
			a.Message = fmt.Sprintf("the credential lacks the scopes of %d operation(s) the tools call; first: %s needs one of %s",
				n, a.Scopes.Missing[0].Operation, strings.Join(a.Scopes.Missing[0].AnyOf, ", "))
			a.Hint = "grant the account the scopes listed under scopes.missing, then store its new token"
		}
	}
	return a
}

// read runs the provider's probe read for the account.
func (c *Checker) read(ctx context.Context, a *Account, acct gtmgate.Account, ts gtmgate.TokenSource) {
	probe, ok := c.opts.Probes[a.Provider]
	entry, found := c.opts.Registry.Tool(probe.Tool)
	if !ok || !found {
		a.Outcome, a.Message = NotCheckable, "gtmgate has no harmless read for "+a.Provider+" without naming a resource; call one of its tools to check it"
		return
	}
	input, action, err := c.probeInput(entry, probe, acct)
	if err != nil {
		a.Outcome, a.Message = Failed, "the probe's input is invalid: "+err.Error()
		return
	}
	a.Probe = entry.Name + "." + action.Name
	start := time.Now()
	err = c.run(ctx, a.TenantID, entry, action, input, acct, ts)
	a.DurationMS = float64(time.Since(start).Microseconds()) / 1000
	c.classify(a, err)
}

// probeInput adds the account and a rationale to the probe's input and
// validates it as a call would be.
func (c *Checker) probeInput(entry *registry.Entry, probe Probe, acct gtmgate.Account) (json.RawMessage, gtmgate.Action, error) {
	var in map[string]any
	if err := json.Unmarshal([]byte(probe.Input), &in); err != nil {
		return nil, gtmgate.Action{}, err
	}
	in["account_id"] = acct.ID
	in["rationale"] = "gtmgate providers check: one harmless read to see that the account works"
	raw, err := json.Marshal(in)
	if err != nil {
		return nil, gtmgate.Action{}, err
	}
	_, action, err := entry.Validate(raw)
	if err != nil {
		return nil, gtmgate.Action{}, err
	}
	if action.Mutating {
		return nil, gtmgate.Action{}, fmt.Errorf("%s.%s changes data; a check only reads", entry.Name, action.Name)
	}
	return raw, action, nil
}

func (c *Checker) run(ctx context.Context, tenantID string, entry *registry.Entry, action gtmgate.Action, input json.RawMessage, acct gtmgate.Account, ts gtmgate.TokenSource) error {
	var in map[string]any
	if err := json.Unmarshal(input, &in); err != nil {
		return err
	}
	limit, cursor, filter := registry.ListParams(in)
	_, err := entry.Run(ctx, &gtmgate.Call{RequestID: "check", TenantID: tenantID, Tool: entry.Tool, Action: action, Input: input,
		Account: acct, Token: ts, Limit: limit, Cursor: cursor, Filter: filter})
	return err
}

// classify turns the read's error into the account's outcome.
func (c *Checker) classify(a *Account, err error) {
	if err == nil {
		a.Outcome, a.Reachable, a.Authenticated, a.Message = OK, true, true, "the provider answered the read"
		return
	}
	var ge *gtmgate.Error
	if !errors.As(err, &ge) {
		a.Outcome, a.ErrorCode, a.Message = Failed, gtmgate.EInternal, "the check failed inside gtmgate"
		return
	}
	a.ErrorCode, a.Message, a.Hint = ge.Code, ge.Message, ge.Hint
	status := 0
	if d, ok := ge.Detail.(gtmgate.UpstreamDetail); ok {
		status = d.Status
	}
	switch {
	case ge.Code == gtmgate.EUpstreamTimeout || ge.Code == gtmgate.EUnavailable || (ge.Code == gtmgate.EUpstream && status == 0):
		a.Outcome = Unreachable
	case ge.Code == gtmgate.ERateLimited:
		// Google sends its rate limits as 403s: they say nothing against the
		// credential or the account, only that the check came at a busy time.
		a.Outcome, a.Reachable, a.Authenticated = RateLimited, status != 0, status != 0
	case ge.Code == gtmgate.EReauthRequired || ge.Code == gtmgate.EUnauthorized:
		a.Outcome, a.Reachable = Unauthorized, status != 0
	case status == 401:
		a.Outcome, a.Reachable = Unauthorized, true
	case status == 403:
		a.Outcome, a.Reachable, a.Authenticated = Forbidden, true, true
	default:
		// The provider answered and took the credential, but refused the read.
		a.Outcome, a.Reachable, a.Authenticated = Failed, status != 0, status != 0
	}
}

// works reports whether nothing shows the account cannot work.
func (a Account) works() bool {
	return a.Outcome == OK || a.Outcome == NotCheckable || a.Outcome == RateLimited
}

// Failing lists the accounts that cannot work.
func (r *Report) Failing() []Account {
	return slices.DeleteFunc(slices.Clone(r.Accounts), Account.works)
}
