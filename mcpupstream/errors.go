package mcpupstream

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/oauth2"

	gtmgate "github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/egress"
)

// AllowHint is the hint of an upstream refused by the egress policy.
const AllowHint = "allow the range with GTMGATE_MCP_UPSTREAM_ALLOW"

// maxMessage bounds the upstream's own words quoted in an error.
const maxMessage = 500

// codeRejected is the go-sdk's "rejected by transport" (jsonrpc2.ErrRejected),
// which wraps failures of the transport, not answers of the upstream.
const codeRejected = -32005

// redactedURL is u without userinfo, query and fragment: what an error or
// a log line may show.
func redactedURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	u.User = nil
	u.RawQuery, u.ForceQuery = "", false
	u.Fragment, u.RawFragment = "", ""
	return u.String()
}

// scrubber removes what must never be shown (the secret, the URL's query
// and userinfo) from a text.
type scrubber struct{ old []string }

func newScrubber(s *gtmgate.MCPServer) *scrubber {
	sc := &scrubber{}
	if u, err := url.Parse(s.URL); err == nil {
		if red := redactedURL(s.URL); red != s.URL {
			sc.old = append(sc.old, s.URL, red)
		}
		if u.RawQuery != "" {
			sc.old = append(sc.old, u.RawQuery, "[query]")
		}
		if u.User != nil {
			sc.old = append(sc.old, u.User.String(), "[userinfo]")
		}
	}
	if sec := s.Auth.Secret; sec != "" {
		sc.old = append(sc.old, sec, "[secret]")
		if esc := url.QueryEscape(sec); esc != sec {
			sc.old = append(sc.old, esc, "[secret]")
		}
	}
	return sc
}

func (sc *scrubber) text(s string) string {
	if len(sc.old) == 0 {
		return s
	}
	return strings.NewReplacer(sc.old...).Replace(s)
}

// wrap returns err with its message scrubbed; errors.Is and errors.As still
// see the original chain.
func (sc *scrubber) wrap(err error) error {
	if err == nil {
		return nil
	}
	return &scrubbedError{msg: sc.text(err.Error()), err: err}
}

type scrubbedError struct {
	msg string
	err error
}

func (e *scrubbedError) Error() string { return e.msg }
func (e *scrubbedError) Unwrap() error { return e.err }

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// upstreamError returns the JSON-RPC error the upstream answered, if err
// carries one (and not the go-sdk's own "rejected by transport").
func upstreamError(err error) *jsonrpc.Error {
	var found *jsonrpc.Error
	var walk func(error) bool
	walk = func(err error) bool {
		if err == nil {
			return false
		}
		if we, ok := err.(*jsonrpc.Error); ok && we.Code != codeRejected {
			found = we
			return true
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			return walk(u.Unwrap())
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if walk(e) {
					return true
				}
			}
		}
		return false
	}
	walk(err)
	return found
}

// phase says what failed: establishing the session or using it.
type phase int

const (
	phaseCall phase = iota
	phaseConnect
)

// classify turns a failure talking to s into a *gtmgate.Error naming the
// server. ctx is the context of the failed operation, started at start.
func classify(ctx context.Context, s *gtmgate.MCPServer, sc *scrubber, err error, a outcome, ph phase, start time.Time) *gtmgate.Error {
	name := fmt.Sprintf("upstream MCP server %q", s.Name)
	detail := &gtmgate.UpstreamDetail{Provider: gtmgate.FederatedDomainPrefix + s.Name}
	cause := sc.wrap(err)
	mk := func(code, format string, args ...any) *gtmgate.Error {
		e := gtmgate.Errorf(code, name+format, args...)
		e.Err, e.Detail = cause, detail
		return e
	}

	var refused *egress.RefusedError
	var tokErr *tokenError
	var stErr *statusError
	var dnsErr *net.DNSError
	var cfgErr *configError
	var grErr *grantError
	ctxErr := ctx.Err()
	switch {
	case errors.Is(ctxErr, context.Canceled):
		code := gtmgate.EClientClosed
		if errors.Is(context.Cause(ctx), gtmgate.ErrShuttingDown) {
			code = gtmgate.EUnavailable
		}
		e := gtmgate.Errorf(code, "%s: the call was cancelled", name)
		e.Err = withCtxErr(ctxErr, cause)
		return e
	case errors.Is(ctxErr, context.DeadlineExceeded) && ph == phaseConnect:
		return mk(gtmgate.EUnavailable, " is unreachable: no MCP session within %s", roundedSince(ctx, start))
	case errors.Is(ctxErr, context.DeadlineExceeded):
		e := mk(gtmgate.EUpstreamTimeout, " did not answer")
		if d := roundedSince(ctx, start); d > 0 {
			e.Message += " within " + d.String()
		}
		e.Err = withCtxErr(ctxErr, cause)
		return e
	case errors.As(err, &grErr):
		page := "/console/tenants/" + s.TenantID + "/mcp-servers/" + s.Name
		hint := "an owner connects it again: Connect on the server's console page " + page
		if ge := gtmgate.AsError(grErr.err); !grErr.rejected && ge.Code != gtmgate.EReauthRequired && !errors.Is(grErr.err, errNoPerson) {
			return mk(gtmgate.EUnavailable, ": its OAuth grant could not be read or refreshed").WithHint("retry later")
		}
		if s.Auth.PerPerson() {
			return personGrantError(s, grErr, mk, detail)
		}
		if grErr.rejected {
			detail.Status = http.StatusUnauthorized
			return mk(gtmgate.EReauthRequired, " refused its OAuth grant (HTTP 401): it must be connected again").WithHint(hint)
		}
		return mk(gtmgate.EReauthRequired, " is not connected: connect it at %s", page).WithHint(hint)
	case errors.As(err, &cfgErr):
		return mk(gtmgate.EValidation, ": %s", cfgErr.msg).WithHint("update the server's auth")
	case errors.As(err, &tokErr):
		if errors.As(err, &refused) {
			return mk(gtmgate.EUnavailable, ": the address of its token endpoint is not allowed (only public internet addresses are)").WithHint(AllowHint)
		}
		var re *oauth2.RetrieveError
		if errors.As(err, &re) && re.Response != nil {
			detail.Status = re.Response.StatusCode
			return mk(gtmgate.EUpstream, ": its token endpoint rejected gtmgate's client credentials (HTTP %d)", re.Response.StatusCode).
				WithHint("update the server's auth: client_id, client secret, token_url and scopes")
		}
		return mk(gtmgate.EUnavailable, ": its token endpoint is unreachable")
	case errors.As(err, &refused):
		return mk(gtmgate.EUnavailable, ": its address is not allowed (only public internet addresses are)").WithHint(AllowHint)
	case errors.As(err, &stErr) || a.auth != 0:
		code := a.auth
		if stErr != nil {
			code = stErr.code
		}
		detail.Status = code
		return mk(gtmgate.EUpstream, " rejected gtmgate's credential (HTTP %d)", code).
			WithHint("update the server's auth with a valid credential")
	case a.tooLarge:
		return mk(gtmgate.EUpstream, " answered with a response too large to read")
	}
	if we := upstreamError(err); we != nil {
		if ph == phaseConnect {
			return mk(gtmgate.EUnavailable, " is unreachable: it refused to start an MCP session: %s", truncate(sc.text(we.Message), maxMessage))
		}
		return mk(gtmgate.EUpstream, ": %s", truncate(sc.text(we.Message), maxMessage))
	}
	if a.status >= 500 || a.status == http.StatusTooManyRequests {
		detail.Status = a.status
		return mk(gtmgate.EUpstream, " answered HTTP %d %s", a.status, http.StatusText(a.status))
	}
	var opErr *net.OpError
	if ph == phaseConnect || errors.As(err, &dnsErr) || (errors.As(err, &opErr) && opErr.Op == "dial") ||
		errors.Is(err, mcp.ErrSessionMissing) || errors.Is(err, mcp.ErrConnectionClosed) || a.posts > 0 && !a.reached {
		if a.status != 0 && !errors.Is(err, mcp.ErrSessionMissing) {
			detail.Status = a.status
			return mk(gtmgate.EUnavailable, " is unreachable (its URL answered HTTP %d)", a.status)
		}
		return mk(gtmgate.EUnavailable, " is unreachable")
	}
	if a.status >= 300 && a.status < 400 {
		detail.Status = a.status
		return mk(gtmgate.EUpstream, " answered with a redirect (HTTP %d), which gtmgate does not follow", a.status).
			WithHint("set the server's URL to the MCP endpoint itself")
	}
	return mk(gtmgate.EUpstream, " lost the connection before answering (the call may have run)")
}

// withCtxErr returns cause, made to wrap ctxErr when it does not already.
func withCtxErr(ctxErr, cause error) error {
	if errors.Is(cause, ctxErr) {
		return cause
	}
	return fmt.Errorf("%w: %w", ctxErr, cause)
}

// roundedSince is how long the operation had: from start to ctx's deadline
// when there is one, else until now.
func roundedSince(ctx context.Context, start time.Time) time.Duration {
	end := time.Now()
	if dl, ok := ctx.Deadline(); ok {
		end = dl
	}
	d := end.Sub(start)
	switch {
	case d >= time.Second:
		return d.Round(100 * time.Millisecond)
	case d > 0:
		return d.Round(time.Millisecond)
	}
	return 0
}

// personGrantError is the REAUTH_REQUIRED of a per-person server's call or
// listing that has no grant to send, naming whose grant is missing (never
// a token) and where that person connects their own: the console's
// connect page, which makes a connect link for the signed-in person.
func personGrantError(s *gtmgate.MCPServer, grErr *grantError, mk func(code, format string, args ...any) *gtmgate.Error,
	detail *gtmgate.UpstreamDetail) *gtmgate.Error {
	provider := gtmgate.MCPGrantProvider(s.Name)
	connect := gtmgate.ConnectPagePath(s.TenantID, provider)
	switch {
	case errors.Is(grErr.err, errNoPerson):
		return mk(gtmgate.EReauthRequired, " uses each person's own OAuth grant, and this call acts for no person").
			WithHint("call it with the token or OAuth grant of an agent that acts for a person who has connected the server; " +
				"the admin key and agents acting for the tenant have no grant of their own there")
	case grErr.listing:
		return mk(gtmgate.EReauthRequired, " is not connected: no person has connected their own account yet; connect yours at %s", connect).
			WithHint("each person connects their own account: Connect your account on the server's console page, or " + connect)
	case grErr.rejected:
		detail.Status = http.StatusUnauthorized
		e := mk(gtmgate.EReauthRequired, " refused the OAuth grant of person %s (HTTP 401): they connect their account again at %s", grErr.account, connect)
		e.Detail = gtmgate.UnconnectedAccount{Provider: provider, Person: grErr.account}
		return e.WithHint("person " + grErr.account + " signs in to the console and presses Connect your account on " + connect)
	}
	e := mk(gtmgate.EReauthRequired, " has no usable OAuth grant of person %s (never connected, or lapsed): they connect their own account at %s",
		grErr.account, connect)
	// The MCP gateway asks a client that takes URL elicitation to open it.
	e.Detail = gtmgate.UnconnectedAccount{Provider: provider, Person: grErr.account}
	return e.WithHint("person " + grErr.account + " signs in to the console and presses Connect your account on " + connect)
}
