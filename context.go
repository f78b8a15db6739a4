package gtmgate

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
)

// Principal is an authenticated caller of the gateway.
type Principal struct {
	TenantID string
	// KeyID names the credential in audit entries (token id, never the secret).
	KeyID string
	// Kind is "token" for tenant bearer tokens, "oauth" for OAuth access tokens.
	Kind     string
	ClientID string
	Scopes   []string
	// RunID is set on the calls of an agent run: a gate one of them creates
	// belongs to the run.
	RunID string
	// GrantID is an OAuth principal's grant (the family of its token).
	GrantID string
	// OnBehalfOf is, for an agent run's calls, the credential the run acts
	// for: the one that started it or created its schedule.
	OnBehalfOf *Credential
	// ConsentedBy is, for an OAuth principal, the person who consented to
	// its grant ("person:<id>"), "" when a tenant token or code did.
	ConsentedBy string
	// Toolset is the tenant toolset of a token or OAuth principal ("" none).
	Toolset string
	// Person is the person ("p_…") a token's or OAuth grant's agent acts
	// for, whose own accounts it reaches; for an approved call's principal,
	// the person the held call acted for, whose upstream grant it uses
	// (GrantPerson) but whose accounts it does not reach; "" for none.
	Person string
}

// AuditVia is what a call's audit entry says of who it acts for beyond
// its key: the consenting person of an OAuth grant ("consent:person:<id>").
func (p *Principal) AuditVia() string {
	if p == nil || p.ConsentedBy == "" {
		return ""
	}
	return "consent:" + p.ConsentedBy
}

// OAuthAgentKey is the key an OAuth grant's calls carry in audit entries,
// usage events, the error ledger and verdicts: "oauth:<grant id>", the
// same through every refresh of the grant's tokens.
func OAuthAgentKey(grantID string) string { return "oauth:" + grantID }

// ConsentingPerson is the person id ("p_…") of an OAuth grant's
// consented_by ("person:p_…"): the person its agent acts for; "" when a
// tenant token or a connect code consented.
func ConsentingPerson(consentedBy string) string {
	id, ok := strings.CutPrefix(consentedBy, ActorPerson+":")
	if !ok {
		return ""
	}
	return id
}

// PrincipalToken is the Kind of principals authenticated by a tenant bearer token.
const PrincipalToken = "token"

// Credential is the credential p acts for, read from the fields set when
// p was authenticated: a tenant token (KeyID), an OAuth grant (GrantID), a
// run's OnBehalfOf. Operators' principals (approvals, replays) and a nil
// principal, which only operator paths have, act for the admin key.
func (p *Principal) Credential() Credential {
	switch {
	case p == nil:
	case p.OnBehalfOf != nil:
		return *p.OnBehalfOf
	case p.Kind == PrincipalToken:
		return Credential{Kind: CredentialToken, ID: p.KeyID, Toolset: p.Toolset, Person: p.Person}
	case p.Kind == PrincipalOAuth:
		return Credential{Kind: CredentialOAuth, ID: p.GrantID, ClientID: p.ClientID, Toolset: p.Toolset, Person: p.Person}
	}
	return Credential{Kind: CredentialAdmin}
}

// Scopes of OAuth access tokens. tools:read allows listing tools and calling
// read-only actions; tools:write allows every call and implies tools:read.
const (
	ScopeToolsRead  = "tools:read"
	ScopeToolsWrite = "tools:write"
)

// PrincipalOAuth is the Kind of principals authenticated by an OAuth access token.
const PrincipalOAuth = "oauth"

// ErrInsufficientScope marks a FORBIDDEN error raised because an OAuth access
// token lacks the scope a call needs, so the MCP transport can answer with a
// step-up challenge.
var ErrInsufficientScope = errors.New("insufficient scope")

// MayCall reports whether p may make a call, mutating or not. Tenant bearer
// tokens carry every right; OAuth principals need tools:write for a mutating
// call and tools:read or tools:write otherwise.
func (p *Principal) MayCall(mutating bool) bool {
	if p == nil {
		return false
	}
	if p.Kind != PrincipalOAuth || slices.Contains(p.Scopes, ScopeToolsWrite) {
		return true
	}
	return !mutating && slices.Contains(p.Scopes, ScopeToolsRead)
}

type principalKey struct{}
type requestIDKey struct{}

// NewContextWithPrincipal returns ctx carrying p.
func NewContextWithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFromContext returns the caller, or nil when unauthenticated.
func PrincipalFromContext(ctx context.Context) *Principal {
	p, _ := ctx.Value(principalKey{}).(*Principal)
	return p
}

// NewContextWithRequestID returns ctx carrying the request id.
func NewContextWithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// RequestIDFromContext returns the request id, or "".
func RequestIDFromContext(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// Recorder persists a finished call's audit entry and usage event. Record
// returns once both are durable, so a caller that responds afterwards never
// loses them; durable may mean in a local journal that reaches the store
// moments later, so readers of the audit log call Flush first.
type Recorder interface {
	Record(ctx context.Context, a AuditEntry, u *UsageEvent) error
	// Flush returns once every call recorded before it is in the store.
	Flush(ctx context.Context) error
	// Check reports, before a call runs, whether its record could be made
	// durable now; an error (UNAVAILABLE) means the call must not run.
	Check() error
}

// Router is what route-mounting functions need of a mux. *http.ServeMux has
// it; so does the recorder that lists a surface's routes for its API
// description.
type Router interface {
	Handle(pattern string, handler http.Handler)
	HandleFunc(pattern string, handler func(http.ResponseWriter, *http.Request))
}

// ProgressFunc receives a long call's progress: done so far, the total when
// known (0 otherwise), and a message. The MCP endpoint sets one when the
// client asked for progress; an upstream MCP server's progress reaches it.
type ProgressFunc func(progress, total float64, message string)

type progressKey struct{}

// NewContextWithProgress returns ctx carrying f.
func NewContextWithProgress(ctx context.Context, f ProgressFunc) context.Context {
	return context.WithValue(ctx, progressKey{}, f)
}

// ProgressFromContext returns the ProgressFunc of ctx, nil when the caller
// did not ask for progress.
func ProgressFromContext(ctx context.Context) ProgressFunc {
	f, _ := ctx.Value(progressKey{}).(ProgressFunc)
	return f
}
