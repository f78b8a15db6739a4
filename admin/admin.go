// Package admin is the operator's API under /admin: tenants, tokens, audit,
// usage, the error ledger and replay, approvals, the feedback inbox and named
// admin keys. Every call is authenticated with the break-glass admin key or a
// named admin key and audited before its response leaves the process.
package admin

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
	"github.com/gtmgate/gtmgate/refresh"
	"github.com/gtmgate/gtmgate/routes"
	"github.com/gtmgate/gtmgate/secret"
	"github.com/gtmgate/gtmgate/telemetry"
	"github.com/gtmgate/gtmgate/throttle"
	"github.com/gtmgate/gtmgate/toolrun"
)

// Options configures the admin API. Store, Recorder, Runner and KeyHash are required.
type Options struct {
	Store    gtmgate.Store
	Recorder gtmgate.Recorder
	Runner   *toolrun.Runner
	// KeyHash is the SHA-256 hex of the break-glass admin key. Named admin
	// keys are found in the Store.
	KeyHash string
	// Providers lists the provider keys tenants may configure accounts for.
	Providers    []string
	MaxBodyBytes int64
	Now          func() time.Time
	// Extra mounts routes of other features (OAuth seeding, schedules…) on the admin mux.
	Extra []func(mux gtmgate.Router)
	// RefreshAccounts describes a tenant's accounts whose tokens are
	// refreshed (refresh.Refresher.Accounts), for GET /admin/tenants/{id}'s
	// oauth_refresh; nil leaves it out.
	RefreshAccounts func(ctx context.Context, tenantID string) ([]refresh.AccountStatus, error)
	// KeyGuard throttles wrong admin keys per client address.
	KeyGuard *throttle.Guard
	// BillingChanged, when set, is told of every plan stored (quota checks
	// pick it up at once).
	BillingChanged func(tenantID string)
	// UsageEventsKept is GTMGATE_RETAIN_USAGE_EVENTS (zero: forever), so
	// usage says from when its latency percentiles count.
	UsageEventsKept time.Duration
	// CredentialsRevoked, when set, is told of every tenant token and OAuth
	// grant revoked, so the schedules and agent runs acting for it stop.
	CredentialsRevoked gtmgate.RevocationListener
}

// Handler serves /admin/.
type Handler struct {
	opts   Options
	mux    *http.ServeMux
	routes *routes.Recorder
}

// New returns the admin API handler.
func New(opts Options) *Handler {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = jsonapi.DefaultMaxBody
	}
	h := &Handler{opts: opts, mux: http.NewServeMux()}
	h.routes = routes.NewRecorder(guardedRouter{h.mux})
	h.register()
	return h
}

// Patterns lists the admin API's routes, those mounted through Extra included.
func (h *Handler) Patterns() []string { return h.routes.Patterns() }

// Route returns the pattern that serves r, or "" for the not-found fallback.
func (h *Handler) Route(r *http.Request) string {
	if _, pattern := h.mux.Handler(r); pattern != "/admin/" {
		return pattern
	}
	return ""
}

func (h *Handler) register() {
	m := h.routes
	m.HandleFunc("GET /admin/tenants", h.listTenants)
	m.HandleFunc("GET /admin/tenants/{tenant_id}", h.getTenant)
	m.HandleFunc("PUT /admin/tenants/{tenant_id}", h.putTenant)
	m.HandleFunc("GET /admin/tenants/{tenant_id}/toolsets", h.listToolsets)
	m.HandleFunc("GET /admin/tenants/{tenant_id}/toolsets/{name}", h.getToolset)
	m.HandleFunc("PUT /admin/tenants/{tenant_id}/toolsets/{name}", h.putToolset)
	m.HandleFunc("DELETE /admin/tenants/{tenant_id}/toolsets/{name}", h.deleteToolset)
	m.HandleFunc("POST /admin/auth", h.registerToken)
	m.HandleFunc("GET /admin/auth/{tenant_id}", h.listTokens)
	m.HandleFunc("DELETE /admin/auth/{tenant_id}/{token_id}", h.revokeToken)
	m.HandleFunc("PUT /admin/tokens/{tenant_id}/{provider}/{account_id}", h.putProviderToken)
	m.HandleFunc("GET /admin/tenants/{tenant_id}/provider-tokens", h.listProviderTokens)
	m.HandleFunc("GET /admin/tenants/{tenant_id}/oauth-grants", h.listOAuthGrants)
	m.HandleFunc("POST /admin/tenants/{tenant_id}/oauth-grants/revoke", h.revokeOAuthGrant)
	m.HandleFunc("GET /admin/usage/{tenant_id}", h.usage)
	m.HandleFunc("GET /admin/billing/{tenant_id}", h.getBilling)
	m.HandleFunc("PUT /admin/billing/{tenant_id}", h.putBilling)
	m.HandleFunc("GET /admin/audit", h.queryAudit)
	m.HandleFunc("GET /admin/audit/stats", h.auditStats)
	m.HandleFunc("GET /admin/errors", h.listLedger)
	m.HandleFunc("GET /admin/errors/{id}", h.getLedger)
	m.HandleFunc("POST /admin/replay", h.replay)
	m.HandleFunc("GET /admin/approvals", h.listApprovals)
	m.HandleFunc("GET /admin/approvals/{approval_id}", h.getApproval)
	m.HandleFunc("POST /admin/approvals/{approval_id}/approve", h.approve)
	m.HandleFunc("POST /admin/approvals/{approval_id}/reject", h.reject)
	m.HandleFunc("GET /admin/feedback", h.listFeedback)
	m.HandleFunc("POST /admin/feedback/{id}/resolve", h.resolveFeedback)
	m.HandleFunc("GET /admin/admin-keys", h.listAdminKeys)
	m.HandleFunc("POST /admin/admin-keys", h.createAdminKey)
	m.HandleFunc("DELETE /admin/admin-keys/{key_id}", h.revokeAdminKey)
	m.HandleFunc("GET /admin/tenants/{tenant_id}/tools", h.listTools)
	m.HandleFunc("POST /admin/tenants/{tenant_id}/tools/{tool}/call", h.callTool)
	for _, mount := range h.opts.Extra {
		mount(m)
	}
	h.mux.HandleFunc("/admin/", func(w http.ResponseWriter, r *http.Request) {
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.ENotFound, "no admin route %s %s", r.Method, r.URL.Path))
	})
}

// bearerAccepted lists the routes where the spec's examples send the admin key
// as a bearer token; both headers work there.
var bearerAccepted = map[string]bool{"/admin/feedback": true, "/admin/grader/verdicts": true}

// ServeHTTP authenticates, runs the route into a buffer, audits the call, and
// only then sends the response: an answered admin call is always audited.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := h.opts.Now()
	if err := h.opts.KeyGuard.Check(r); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	actor, err := h.authenticate(r, start)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	h.run(r, start, gtmgate.SourceAdmin, actor).writeTo(w)
}

// CallSignedIn runs an admin request for a surface that authenticated its
// actor itself (the console, after checking its session): the same routes,
// access checks, validation and audit as the API, recorded under source
// and the actor. It returns the answer's status and body once the call is
// audited.
func (h *Handler) CallSignedIn(r *http.Request, source string, actor *gtmgate.Actor) (status int, body []byte) {
	buf := h.run(r, h.opts.Now(), source, actor)
	return buf.status, buf.body.Bytes()
}

// run serves r as actor into a buffer and audits it; the buffer is the
// answer to send, the audit failure's when the audit could not be written.
func (h *Handler) run(r *http.Request, start time.Time, source string, actor *gtmgate.Actor) *bufferedResponse {
	buf := &bufferedResponse{header: http.Header{}}
	r = r.WithContext(withSource(gtmgate.WithActor(r.Context(), actor), source))
	h.mux.ServeHTTP(buf, r)
	if buf.status == 0 {
		buf.status = http.StatusOK
	}
	// The mux has set r.Pattern to the matched route; no need to route again.
	entry := gtmgate.AuditEntry{
		Time: start, TenantID: cmp.Or(buf.auditTenant, auditTenant(r)), Action: actionName(r.Method, r.Pattern), Source: source,
		Key: actor.AuditKey(), Via: actor.Via, Status: buf.status, Outcome: gtmgate.OutcomeOK, RequestID: gtmgate.RequestIDFromContext(r.Context()),
		DurationMS: float64(h.opts.Now().Sub(start).Microseconds()) / 1000, Detail: buf.auditDetail,
		TraceID: telemetry.TraceID(r.Context()), CorrelationID: gtmgate.CorrelationIDFromContext(r.Context()),
	}
	// A read that asked whether something optional exists (the console's
	// tenant page asks for a billing plan) is answered by its 404.
	absent := buf.status == http.StatusNotFound && r.Method == http.MethodGet && gtmgate.AbsenceExpected(r.Context())
	if buf.status >= 400 && !absent {
		entry.Outcome = gtmgate.OutcomeError
	}
	if err := h.opts.Recorder.Record(r.Context(), entry, nil); err != nil {
		failed := &bufferedResponse{header: http.Header{}}
		jsonapi.WriteError(failed, r, &gtmgate.Error{Code: gtmgate.EUnavailable, Message: "the audit log could not be written; the call's effect may have been applied", Err: err})
		return failed
	}
	return buf
}

// authenticate returns the actor of the admin key r presents: the
// break-glass key, compared first and in constant time, or else the named
// key stored under the presented key's hash. Only a missing or unknown key
// counts against the client's address; a revoked or expired key was real,
// and a store failure says nothing about the key.
func (h *Handler) authenticate(r *http.Request, now time.Time) (*gtmgate.Actor, error) {
	key := presentedKey(r)
	if key == "" {
		h.opts.KeyGuard.Fail(r)
		return nil, wrongKey()
	}
	hash := secret.HashToken(key)
	if secret.EqualHash(hash, h.opts.KeyHash) {
		return gtmgate.BreakGlass("x-admin-key"), nil
	}
	k, err := h.opts.Store.FindAdminKey(r.Context(), hash)
	switch {
	case errors.Is(err, gtmgate.ErrNotFound):
		h.opts.KeyGuard.Fail(r)
		return nil, wrongKey()
	case err != nil:
		return nil, &gtmgate.Error{Code: gtmgate.EUnavailable, Message: "named admin keys cannot be checked: the store is unavailable",
			Hint: "retry shortly; the break-glass admin key does not need the store", Err: err}
	case !secret.EqualHash(k.Hash, hash):
		// The actor is made from the stored key found by this exact hash,
		// never from anything else: a store answering another is refused.
		h.opts.KeyGuard.Fail(r)
		return nil, wrongKey()
	}
	switch k.Status(now) {
	case gtmgate.AdminKeyRevoked:
		return nil, gtmgate.Errorf(gtmgate.EUnauthorized, "admin key %s… was revoked", k.Prefix).
			WithHint(fmt.Sprintf("ask its owner (%s) or an operator admin for a new one", k.Owner))
	case gtmgate.AdminKeyExpired:
		return nil, gtmgate.Errorf(gtmgate.EUnauthorized, "admin key %s… expired at %s", k.Prefix, k.ExpiresAt.UTC().Format(time.RFC3339)).
			WithHint(fmt.Sprintf("ask its owner (%s) or an operator admin for a new one", k.Owner))
	}
	if k.LastUsedAt == nil || now.Sub(*k.LastUsedAt) >= gtmgate.AdminKeyTouchInterval {
		// Best effort: last_used_at is a hint for whoever reviews the
		// keys; a failed write must not refuse the call.
		_ = h.opts.Store.TouchAdminKey(r.Context(), k.ID, now.UTC())
	}
	return k.Actor("x-admin-key"), nil
}

// presentedKey is the admin key of r: the x-admin-key header, or a bearer
// token on the routes of bearerAccepted.
func presentedKey(r *http.Request) string {
	key := r.Header.Get("X-Admin-Key")
	if key == "" && bearerAccepted[r.URL.Path] {
		if scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " "); ok && strings.EqualFold(scheme, "Bearer") {
			key = strings.TrimSpace(tok)
		}
	}
	return key
}

// wrongKey is the answer to a missing or unknown admin key: the same for
// both kinds of key, so it tells a guesser nothing.
func wrongKey() error {
	return gtmgate.Errorf(gtmgate.EUnauthorized, "missing or wrong admin key").
		WithHint("send the admin key in the x-admin-key header")
}

// actionName turns "PUT /admin/tenants/{tenant_id}" into "admin.tenants.put".
func actionName(method, pattern string) string {
	_, path, _ := strings.Cut(pattern, " ")
	var parts []string
	for _, p := range strings.Split(strings.Trim(path, "/"), "/") {
		if p != "" && !strings.HasPrefix(p, "{") {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		parts = []string{"admin", "unknown"}
	}
	return strings.Join(parts, ".") + "." + strings.ToLower(method)
}

func auditTenant(r *http.Request) string {
	if t := r.PathValue("tenant_id"); t != "" {
		return t
	}
	return r.URL.Query().Get("tenant")
}

// bufferedResponse holds a response until the call is audited.
type bufferedResponse struct {
	header      http.Header
	status      int
	body        bytes.Buffer
	auditDetail string
	// auditTenant is the tenant a route found its object in (an
	// approval's), when its path and query name none.
	auditTenant string
}

func (b *bufferedResponse) Header() http.Header { return b.header }

// writeTo sends the held response.
func (b *bufferedResponse) writeTo(w http.ResponseWriter) {
	for k, v := range b.header {
		w.Header()[k] = v
	}
	w.WriteHeader(b.status)
	w.Write(b.body.Bytes())
}
func (b *bufferedResponse) WriteHeader(code int) {
	if b.status == 0 {
		b.status = code
	}
}
func (b *bufferedResponse) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.body.Write(p)
}

// SetAuditDetail attaches a short secret-free note to the audit entry of
// the admin call w answers; routes mounted through Options.Extra use it.
func SetAuditDetail(w http.ResponseWriter, detail string) { setAuditDetail(w, detail) }

// setAuditTenant records the tenant of the object the call acted on.
func setAuditTenant(w http.ResponseWriter, tenant string) {
	if b, ok := w.(*bufferedResponse); ok {
		b.auditTenant = tenant
	}
}

// setAuditDetail attaches a short secret-free note to the call's audit entry.
func setAuditDetail(w http.ResponseWriter, detail string) {
	if b, ok := w.(*bufferedResponse); ok {
		b.auditDetail = detail
	}
}
