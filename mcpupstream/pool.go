// Package mcpupstream is the client side of MCP federation: a Pool of
// sessions to the upstream MCP servers tenants bring (streamable HTTP), with
// which the gateway lists and calls their tools.
//
// It uses the go-sdk's client. What the go-sdk does, and this package
// relies on:
//   - A call whose context is done is retired at once and the upstream is
//     sent notifications/cancelled for its request id (asynchronously,
//     mcp.call in shared.go).
//   - A 404 answer to a request carrying a session id fails the session
//     with mcp.ErrSessionMissing; requests on a failed or closed session
//     fail with mcp.ErrConnectionClosed.
//   - After initialize, the client opens the standalone GET stream when the
//     server offers one (or, on 2026-07-28 with a stateless server,
//     subscriptions/listen), on which notifications/tools/list_changed comes.
//     A stateless server on an earlier revision sends none: its tools are
//     seen at the catalogue's scheduled refresh.
//
// Whether a failed tool call may be sent again is decided from what its
// HTTP requests did (see attempt), not from the go-sdk's error text.
package mcpupstream

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	gtmgate "github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/egress"
)

// Defaults of Options.
const (
	DefaultIdleTimeout      = 5 * time.Minute
	DefaultDialTimeout      = 10 * time.Second
	DefaultMaxResponseBytes = 16 << 20
	// tokenTimeout bounds a client-credentials token request.
	tokenTimeout = 10 * time.Second
	// maxPages bounds a tools/list pagination that never ends.
	maxPages = 1000
	// maxIdlePerUpstream is far above any concurrency one upstream sees,
	// so that idle connections follow the calls in flight (see NewPool).
	maxIdlePerUpstream = 4096
)

// Options configures a Pool.
type Options struct {
	Policy  egress.Policy // vets every dialled address (token endpoint included)
	Version string        // gtmgate's version, in the client Implementation
	// OnToolsChanged, when set, is called (on its own goroutine, never
	// blocking the session) when an upstream session sends
	// notifications/tools/list_changed.
	OnToolsChanged func(tenantID, server string)
	// IdleTimeout closes a session unused this long (default 5m).
	IdleTimeout time.Duration
	// DialTimeout bounds connecting and initializing (default 10s).
	DialTimeout time.Duration
	// MaxResponseBytes bounds a JSON response body and one event of an
	// event stream read from an upstream (default 16 MiB).
	MaxResponseBytes int64
	// Grants gives the access tokens of servers of auth kind oauth; without
	// it such a server cannot be reached.
	Grants GrantSource
	// ProtocolVersion is the MCP revision proposed to every upstream: ""
	// means DefaultProtocolVersion, LatestProtocolVersion the newest the
	// go-sdk knows. A server answers with the revision it speaks.
	ProtocolVersion string
	Logger          *slog.Logger
}

// DefaultProtocolVersion is the revision gtmgate proposes to upstream MCP
// servers unless told otherwise: the one its own /mcp is specified against.
// The go-sdk's newest, 2026-07-28, sends the client's info and
// capabilities in _meta with every request, which the go-sdk server decodes
// and checks against the Mcp-Method and Mcp-Name headers on each call: an
// upstream spent about 1.5 times the CPU on a call made that way (bench/README.md).
const DefaultProtocolVersion = "2025-11-25"

// LatestProtocolVersion, as Options.ProtocolVersion, proposes the newest
// revision the go-sdk knows (server/discover, subscriptions/listen).
const LatestProtocolVersion = "latest"

// ValidProtocolVersion reports whether v may be Options.ProtocolVersion:
// LatestProtocolVersion or a revision the go-sdk speaks.
func ValidProtocolVersion(v string) bool {
	return v == LatestProtocolVersion || slices.Contains(mcp.SupportedProtocolVersions(), v)
}

// GrantSource keeps the OAuth grants people made, through connect links,
// for tenants' upstream MCP servers of auth kind oauth. A grant is kept
// under an account: gtmgate.MCPGrantTenant, or a person's id.
type GrantSource interface {
	// GrantToken returns the access token of the grant kept under account
	// at the tenant's server, refreshed when it has expired or equals
	// stale. Errors: REAUTH_REQUIRED when there is no such grant or it
	// lapsed or was refused.
	GrantToken(ctx context.Context, tenantID, server, account, stale string) (string, error)
	// GrantRejected is told that the upstream answered token, of the grant
	// kept under account, with a 401 challenge: the grant is marked for
	// re-authorisation.
	GrantRejected(ctx context.Context, tenantID, server, account, token string)
	// ListingAccount returns the person whose grant lists the tools of a
	// server whose calls use each person's own grant. Errors:
	// REAUTH_REQUIRED when no person's grant holds.
	ListingAccount(ctx context.Context, tenantID, server string) (string, error)
}

// Pool keeps one client session per (tenant, server, grant account),
// reused across calls: two people never share a session of a per-person
// oauth server, nor its token. It is safe for concurrent use.
type Pool struct {
	opts        Options
	base        http.RoundTripper
	tokenClient *http.Client
	log         *slog.Logger
	// sessionOptions propose Options.ProtocolVersion (nil: the go-sdk's newest).
	sessionOptions *mcp.ClientSessionOptions

	mu       sync.Mutex
	sessions map[string]*session
	closed   bool

	progressMu sync.Mutex
	progress   map[string]func(*mcp.ProgressNotificationParams)

	stop    chan struct{}
	closing sync.WaitGroup // sessions being closed, the janitor
}

// session is one client session, established once (ready closes when cs or
// err is set).
type session struct {
	key, fp      string
	tenant, name string
	// account is whose grant the session sends (oauth only, else "").
	account string
	ready   chan struct{}
	cs      *mcp.ClientSession
	err     *gtmgate.Error

	rt        atomic.Pointer[authTransport]
	inflight  atomic.Int32
	lastUsed  atomic.Int64 // unix nanoseconds
	closeOnce sync.Once
}

// NewPool returns a Pool; Close it to end its sessions.
func NewPool(opts Options) *Pool {
	if opts.IdleTimeout <= 0 {
		opts.IdleTimeout = DefaultIdleTimeout
	}
	if opts.DialTimeout <= 0 {
		opts.DialTimeout = DefaultDialTimeout
	}
	if opts.MaxResponseBytes <= 0 {
		opts.MaxResponseBytes = DefaultMaxResponseBytes
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	t := egress.NewTransport(opts.Policy, opts.DialTimeout)
	// A tool call answers when it is done; the caller's context bounds it.
	t.ResponseHeaderTimeout = 0
	// Keep every connection a burst of calls opened: with the default four
	// idle per host, calls above four in flight closed their connection and
	// the next ones dialled anew. Idle connections never outnumber the calls
	// that were in flight at once, and close after IdleConnTimeout.
	t.MaxIdleConns, t.MaxIdleConnsPerHost = 0, maxIdlePerUpstream
	p := &Pool{
		opts:        opts,
		base:        t,
		tokenClient: &http.Client{Transport: t, Timeout: tokenTimeout},
		log:         log,
		sessions:    map[string]*session{},
		progress:    map[string]func(*mcp.ProgressNotificationParams){},
		stop:        make(chan struct{}),
	}
	switch opts.ProtocolVersion {
	case LatestProtocolVersion:
	case "":
		p.sessionOptions = &mcp.ClientSessionOptions{ProtocolVersion: DefaultProtocolVersion}
	default:
		p.sessionOptions = &mcp.ClientSessionOptions{ProtocolVersion: opts.ProtocolVersion}
	}
	p.closing.Add(1)
	go p.janitor()
	return p
}

func sessionKey(tenantID, name, account string) string {
	return tenantID + "\x00" + name + "\x00" + account
}

// fingerprint identifies a configuration: a change of URL, auth or
// UpdatedAt needs a new session.
func fingerprint(s *gtmgate.MCPServer) string {
	h := sha256.New()
	a := s.Auth
	for _, f := range []string{s.URL, a.Kind, a.Header, a.Secret, a.TokenURL, a.ClientID, strings.Join(a.Scopes, " "), a.Grant, s.UpdatedAt.UTC().Format(time.RFC3339Nano)} {
		h.Write([]byte(strconv.Itoa(len(f))))
		h.Write([]byte{':'})
		h.Write([]byte(f))
	}
	return hex.EncodeToString(h.Sum(nil))
}

var errPoolClosed = errors.New("the upstream MCP pool is closed")

// acquire returns the session of s sending account's grant, establishing
// it when there is none (or the configuration changed), and counts the
// caller in until release.
func (p *Pool) acquire(ctx context.Context, s *gtmgate.MCPServer, account string) (*session, error) {
	key, fp := sessionKey(s.TenantID, s.Name, account), fingerprint(s)
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		e := gtmgate.Errorf(gtmgate.EUnavailable, "upstream MCP server %q: the gateway is shutting down", s.Name)
		e.Err = errPoolClosed
		return nil, e
	}
	e := p.sessions[key]
	if e != nil && e.fp != fp {
		delete(p.sessions, key)
		p.closeLocked(e)
		e = nil
	}
	if e == nil {
		e = &session{key: key, fp: fp, tenant: s.TenantID, name: s.Name, account: account, ready: make(chan struct{})}
		p.sessions[key] = e
		cfg := *s // the caller may reuse s
		go p.connect(e, &cfg)
	}
	e.inflight.Add(1)
	e.lastUsed.Store(time.Now().UnixNano())
	p.mu.Unlock()

	select {
	case <-e.ready:
	case <-ctx.Done():
		e.release()
		return nil, ctx.Err()
	}
	if e.err != nil {
		e.release()
		p.drop(e)
		err := *e.err // each caller its own copy
		return nil, &err
	}
	return e, nil
}

func (e *session) release() {
	e.lastUsed.Store(time.Now().UnixNano())
	e.inflight.Add(-1)
}

// connect establishes e's session, bounded by DialTimeout and not by any
// one caller: several may be waiting for it.
func (p *Pool) connect(e *session, s *gtmgate.MCPServer) {
	defer close(e.ready)
	start := time.Now()
	a := &attempt{}
	ctx, cancel := context.WithTimeout(withAttempt(context.Background(), a), p.opts.DialTimeout)
	defer cancel()
	sc := newScrubber(s)
	tenant, name := s.TenantID, s.Name
	client := mcp.NewClient(&mcp.Implementation{Name: "gtmgate", Version: p.opts.Version}, &mcp.ClientOptions{
		Logger:       p.log.With("tenant_id", tenant, "mcp_server", name),
		Capabilities: &mcp.ClientCapabilities{},
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			if f := p.opts.OnToolsChanged; f != nil {
				go f(tenant, name)
			}
		},
	})
	rt := newAuthTransport(p.base, p.tokenClient, s.Auth, p.opts.MaxResponseBytes)
	rt.grants, rt.tenant, rt.server, rt.account = p.opts.Grants, s.TenantID, s.Name, e.account
	e.rt.Store(rt)
	rt.progress = p.routeProgress // see progressBody
	transport := &mcp.StreamableClientTransport{
		Endpoint: s.URL,
		HTTPClient: &http.Client{
			Transport: rt,
			// Redirects are followed by the egress-checked transport; a
			// POST redirected loses its body, so refuse them.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		MaxEventSize: int(p.opts.MaxResponseBytes),
	}
	cs, err := client.Connect(ctx, transport, p.sessionOptions)
	if err != nil {
		e.err = classify(ctx, s, sc, err, a.snapshot(), phaseConnect, start)
		p.log.Warn("upstream MCP session failed", "tenant_id", tenant, "mcp_server", name,
			"url", redactedURL(s.URL), "code", e.err.Code, "error", e.err.Err)
		return
	}
	e.cs = cs
	p.log.Info("upstream MCP session opened", "tenant_id", tenant, "mcp_server", name,
		"url", redactedURL(s.URL), "protocol", cs.InitializeResult().ProtocolVersion)
}

// drop removes e from the pool, if it is still there, and closes it.
func (p *Pool) drop(e *session) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sessions[e.key] == e {
		delete(p.sessions, e.key)
	}
	p.closeLocked(e)
}

// closeLocked closes e in the background (the go-sdk's Close waits for the
// calls in flight); Close waits for it. p.mu is held.
func (p *Pool) closeLocked(e *session) {
	e.closeOnce.Do(func() {
		p.closing.Add(1)
		go func() {
			defer p.closing.Done()
			<-e.ready
			if e.cs != nil {
				_ = e.cs.Close()
				p.log.Debug("upstream MCP session closed", "tenant_id", e.tenant, "mcp_server", e.name)
			}
		}()
	})
}

// Forget closes and drops the sessions of (tenantID, name), every grant
// account's, after its configuration changed or it was removed. Calls in
// flight on them finish; the next call establishes a new session.
func (p *Pool) Forget(tenantID, name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for k, e := range p.sessions {
		if e.tenant == tenantID && e.name == name {
			delete(p.sessions, k)
			p.closeLocked(e)
		}
	}
}

// AccessTokens returns the access tokens (client credentials or OAuth
// grants) last sent to the server (tenantID, name) on its current
// sessions, one per grant account: the caller scrubs them from what the
// upstream says (an upstream may echo its Authorization header in an
// isError text).
func (p *Pool) AccessTokens(tenantID, name string) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, e := range p.sessions {
		if e.tenant != tenantID || e.name != name {
			continue
		}
		if rt := e.rt.Load(); rt != nil {
			if tok := rt.lastToken.Load(); tok != nil && *tok != "" {
				out = append(out, *tok)
			}
		}
	}
	return out
}

// Close closes every session and waits for them to end: the go-sdk lets
// the calls in flight finish first (their contexts bound them).
func (p *Pool) Close() error {
	p.mu.Lock()
	if !p.closed {
		p.closed = true
		close(p.stop)
		for k, e := range p.sessions {
			delete(p.sessions, k)
			p.closeLocked(e)
		}
	}
	p.mu.Unlock()
	p.closing.Wait()
	return nil
}

// janitor closes sessions idle longer than IdleTimeout.
func (p *Pool) janitor() {
	defer p.closing.Done()
	every := min(max(p.opts.IdleTimeout/2, time.Second), time.Minute)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case now := <-t.C:
			p.closeIdle(now)
		}
	}
}

// closeIdle closes the sessions no call used since now-IdleTimeout.
func (p *Pool) closeIdle(now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for k, e := range p.sessions {
		if e.inflight.Load() == 0 && now.Sub(time.Unix(0, e.lastUsed.Load())) >= p.opts.IdleTimeout {
			delete(p.sessions, k)
			p.closeLocked(e)
		}
	}
}

// do runs op on the session of s (for an oauth server, the session
// sending the grant grantAccount picks; listing says op lists or pings).
// When op fails because the session is gone (the upstream forgot it, the
// connection broke) the session is re-established and op run once more;
// for an op that is not idempotent only when the upstream cannot have
// received it.
func (p *Pool) do(ctx context.Context, s *gtmgate.MCPServer, idempotent, listing bool, op func(context.Context, *mcp.ClientSession) error) error {
	start := time.Now()
	sc := newScrubber(s)
	account, err := p.grantAccount(ctx, s, listing)
	if err != nil {
		return classify(ctx, s, sc, err, outcome{}, phaseCall, start)
	}
	for try := 0; ; try++ {
		e, err := p.acquire(ctx, s, account)
		if err != nil {
			var ge *gtmgate.Error
			if errors.As(err, &ge) && ctx.Err() == nil {
				return ge
			}
			return classify(ctx, s, sc, err, outcome{}, phaseCall, start)
		}
		a := &attempt{}
		err = op(withAttempt(ctx, a), e.cs)
		e.release()
		if err == nil {
			return nil
		}
		got := a.snapshot()
		if ctx.Err() == nil && sessionGone(err, got) {
			p.drop(e)
			if try == 0 && (idempotent || !got.reached) {
				p.log.Debug("re-establishing upstream MCP session", "tenant_id", s.TenantID, "mcp_server", s.Name, "error", sc.wrap(err))
				continue
			}
		}
		return classify(ctx, s, sc, err, got, phaseCall, start)
	}
}

// grantAccount is whose grant an operation on s sends: none for a server
// of another auth kind; the tenant's; or, for a per-person server, the
// person the call acts for (gtmgate.GrantPerson), and for a listing or a
// ping, which act for no one, the person GrantSource.ListingAccount names.
// A call that acts for no person is refused: it never falls back to
// another person's grant or the tenant's.
func (p *Pool) grantAccount(ctx context.Context, s *gtmgate.MCPServer, listing bool) (string, error) {
	switch {
	case s.Auth.Kind != gtmgate.MCPAuthOAuth:
		return "", nil
	case !s.Auth.PerPerson():
		return gtmgate.MCPGrantTenant, nil
	case !listing:
		if person := gtmgate.GrantPerson(ctx); person != "" {
			return person, nil
		}
		return "", &grantError{err: errNoPerson}
	case p.opts.Grants == nil:
		return "", &configError{"this gateway keeps no OAuth grants for upstream MCP servers"}
	}
	account, err := p.opts.Grants.ListingAccount(ctx, s.TenantID, s.Name)
	if err != nil {
		return "", &grantError{err: err, listing: true}
	}
	return account, nil
}

// sessionGone reports whether err means the session is no longer usable,
// rather than an answer (an error answer, a refused credential, an
// overloaded upstream) on a session that still works.
func sessionGone(err error, a outcome) bool {
	var st *statusError
	var tok *tokenError
	var refused *egress.RefusedError
	var cfg *configError
	switch {
	case errors.As(err, &cfg):
		return false
	case errors.Is(err, mcp.ErrSessionMissing), errors.Is(err, mcp.ErrConnectionClosed):
		return true
	case errors.As(err, &st), errors.As(err, &tok), errors.As(err, &refused), a.auth != 0:
		return false
	case upstreamError(err) != nil:
		return false
	case a.status >= 500 || a.status == http.StatusTooManyRequests:
		return false
	}
	return true
}

// ListTools returns every tool of s, following nextCursor pagination, as
// the upstream described them.
func (p *Pool) ListTools(ctx context.Context, s *gtmgate.MCPServer) ([]*mcp.Tool, error) {
	var tools []*mcp.Tool
	err := p.do(ctx, s, true, true, func(ctx context.Context, cs *mcp.ClientSession) error {
		tools = nil
		params := &mcp.ListToolsParams{}
		seen := map[string]bool{}
		for range maxPages {
			res, err := cs.ListTools(ctx, params)
			if err != nil {
				return err
			}
			tools = append(tools, res.Tools...)
			if res.NextCursor == "" {
				return nil
			}
			if seen[res.NextCursor] {
				return errCursorLoop
			}
			seen[res.NextCursor] = true
			params = &mcp.ListToolsParams{Cursor: res.NextCursor}
		}
		return errCursorLoop
	})
	if errors.Is(err, errCursorLoop) {
		ge := gtmgate.Errorf(gtmgate.EUpstream, "upstream MCP server %q: its tools/list pagination does not end", s.Name)
		ge.Err = errCursorLoop
		return nil, ge
	}
	if err != nil {
		return nil, err
	}
	return tools, nil
}

var errCursorLoop = &cursorLoopError{}

type cursorLoopError struct{}

func (*cursorLoopError) Error() string { return "tools/list pagination repeats a cursor or never ends" }

// CallTool calls the upstream tool with args (a JSON object). progress,
// when not nil, receives the upstream's progress notifications for this
// call (the call then sends a progressToken); it runs on the session's
// reading goroutine and must not block. An upstream result with isError is
// returned as a result, not an error.
func (p *Pool) CallTool(ctx context.Context, s *gtmgate.MCPServer, tool string, args json.RawMessage, readOnly bool, progress func(*mcp.ProgressNotificationParams)) (*mcp.CallToolResult, error) {
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	if !json.Valid(args) || firstByte(args) != '{' {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "the arguments of %s%s%s must be a JSON object", s.Name, gtmgate.FederatedSeparator, tool)
	}
	params := &mcp.CallToolParams{Name: tool, Arguments: args}
	if progress != nil {
		// Unguessable: progress is routed by token across every session, so
		// one upstream must not be able to name another call's.
		token := "gtmgate-" + rand.Text()
		p.progressMu.Lock()
		p.progress[token] = progress
		p.progressMu.Unlock()
		defer func() {
			p.progressMu.Lock()
			delete(p.progress, token)
			p.progressMu.Unlock()
		}()
		params.SetProgressToken(token)
	}
	var res *mcp.CallToolResult
	err := p.do(ctx, s, readOnly, false, func(ctx context.Context, cs *mcp.ClientSession) error {
		var err error
		res, err = cs.CallTool(ctx, params)
		return err
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

func firstByte(b []byte) byte {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c
	}
	return 0
}

// routeProgress hands a progress notification to the call owning its token.
func (p *Pool) routeProgress(params *mcp.ProgressNotificationParams) {
	if params == nil {
		return
	}
	token, ok := params.ProgressToken.(string)
	if !ok {
		return
	}
	p.progressMu.Lock()
	f := p.progress[token]
	p.progressMu.Unlock()
	if f != nil {
		f(params)
	}
}

// Ping checks the upstream answers (used by health); returns the round
// trip of the ping itself (establishing a session is not counted).
func (p *Pool) Ping(ctx context.Context, s *gtmgate.MCPServer) (time.Duration, error) {
	var rtt time.Duration
	err := p.do(ctx, s, true, true, func(ctx context.Context, cs *mcp.ClientSession) error {
		start := time.Now()
		err := cs.Ping(ctx, nil)
		rtt = time.Since(start)
		return err
	})
	if err != nil {
		return 0, err
	}
	return rtt, nil
}

func (p *Pool) String() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return fmt.Sprintf("mcpupstream.Pool{%d sessions}", len(p.sessions))
}
