package connectflow

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/connect"
	"github.com/gtmgate/gtmgate/mcpoauth"
)

// cookieMaxAge leaves time to sign in and consent at the provider.
const cookieMaxAge = 30 * time.Minute

// Mount adds the public pages to the gateway's mux. They take no
// credential: the link's secret, then the state and the browser's cookie,
// are the credential.
//
//	GET  /connect/{secret}   what the link grants, and a Continue button
//	POST /connect/{secret}   start, from that page only: the provider's consent page
//	GET  /connect/callback   the provider's answer
//	POST /connect/choose     the accounts picked
//	GET  /connect/mcp-client.json  gtmgate's client ID metadata document
func (f *Flow) Mount(mux gtmgate.Router) {
	mux.Handle("GET /connect/callback", f.limit(http.HandlerFunc(f.callback)))
	mux.Handle("POST /connect/choose", f.limit(http.HandlerFunc(f.choose)))
	mux.Handle("GET "+mcpoauth.ClientMetadataPath, f.limit(http.HandlerFunc(f.clientMetadata)))
	mux.Handle("GET /connect/{secret}", f.limit(http.HandlerFunc(f.show)))
	mux.Handle("POST /connect/{secret}", f.limit(http.HandlerFunc(f.start)))
	// Any other method is refused here rather than by the gateway's
	// fallback, so that the access log names the path by this route's
	// pattern, with no secret (routes.LoggedPath).
	mux.Handle("/connect/{secret}", f.limit(http.HandlerFunc(f.otherMethod)))
}

// otherMethod refuses a method a link's address does not take.
func (f *Flow) otherMethod(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Allow", "GET, HEAD, POST")
	f.render(w, http.StatusMethodNotAllowed, "refused", page{Title: "Open the link in a browser",
		Message: "A connect link is opened in a browser, and started with its page's Continue button.", Retry: true})
}

// limit bounds every request body.
func (f *Flow) limit(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, f.opts.MaxBodyBytes)
		h.ServeHTTP(w, r)
	})
}

// link finds the link of the path's secret, usable (created, not
// expired), or writes the refusal page.
func (f *Flow) link(w http.ResponseWriter, r *http.Request) (*gtmgate.ConnectLink, *gtmgate.Tenant, bool) {
	secret := r.PathValue("secret")
	if len(secret) < 20 || len(secret) > 100 {
		f.refuse(w, http.StatusNotFound, "Unknown link", "This connect link does not exist.")
		return nil, nil, false
	}
	l, err := f.opts.Store.GetConnectLink(r.Context(), hash(secret))
	if errors.Is(err, gtmgate.ErrNotFound) {
		f.refuse(w, http.StatusNotFound, "Unknown link", "This connect link does not exist.")
		return nil, nil, false
	} else if err != nil {
		f.internal(w, r, err)
		return nil, nil, false
	}
	switch {
	case l.Status != gtmgate.ConnectCreated:
		f.refuse(w, http.StatusGone, "Link already used", "This connect link was already used; each link works once.")
		return nil, nil, false
	case !f.now().Before(l.ExpiresAt):
		f.refuse(w, http.StatusGone, "Link expired", "This connect link expired at "+l.ExpiresAt.Format(time.RFC1123)+".")
		return nil, nil, false
	}
	t, err := f.opts.Store.GetTenant(r.Context(), l.TenantID)
	if err != nil {
		if errors.Is(err, gtmgate.ErrNotFound) {
			f.refuse(w, http.StatusGone, "Tenant removed", "The tenant this link was made for no longer exists.")
		} else {
			f.internal(w, r, err)
		}
		return nil, nil, false
	}
	return l, t, true
}

// show serves GET /connect/{secret}.
func (f *Flow) show(w http.ResponseWriter, r *http.Request) {
	l, t, ok := f.link(w, r)
	if !ok {
		return
	}
	if isMCP(l.Provider) {
		f.showMCP(w, r, l, t)
		return
	}
	p, _ := connect.Lookup(l.Provider)
	// The form has no action: it posts to this page's own URL, so the
	// link's secret is not written into the page.
	title := p.LinkTitle(l.Products)
	pg := page{Title: "Connect " + title, TenantID: t.ID, TenantName: t.Name, Provider: title, Consent: p.Title,
		Scopes: scopeLines(l.Scopes), Expires: l.ExpiresAt.Format(time.RFC1123), CSRF: f.formToken(w, r, l),
		provider: origin(p.Authorize.URL(f.opts.Client.Bases, ""))}
	// A link to several products names them, in the family's order.
	needed := keys(connect.Needs(f.opts.Registry, t, p, l.Products, false))
	var names []string
	for _, key := range p.Covers {
		if slices.Contains(needed, key) {
			names = append(names, connect.ProductTitle(key))
		}
	}
	if len(names) > 1 {
		pg.Products = sayList(names)
	}
	f.render(w, http.StatusOK, "link", pg)
}

// start serves POST /connect/{secret}: from the link's own page in this
// browser only (guard.go), it opens the link (state, PKCE verifier, this
// browser's cookie for the link) and sends the browser to the provider.
func (f *Flow) start(w http.ResponseWriter, r *http.Request) {
	l, t, ok := f.link(w, r)
	if !ok {
		return
	}
	if !f.startAllowed(w, r, l) {
		f.audit(r, l, "connect.start_refused", gtmgate.OutcomeDenied, http.StatusForbidden,
			"a start not sent from the link's own page in the same browser; the link is unchanged")
		f.refuseStart(w)
		return
	}
	if isMCP(l.Provider) {
		f.startMCP(w, r, l)
		return
	}
	p, _ := connect.Lookup(l.Provider)
	app, err := f.app(r.Context(), l.TenantID, l.Provider)
	if err != nil {
		f.refuse(w, http.StatusServiceUnavailable, "Not set up", "This gateway has no "+p.Title+" app registered any more.")
		return
	}
	state, verifier := newSecret(), newSecret()
	target, err := f.opts.Client.AuthorizeURL(p, app, f.redirectURI, state, connect.Challenge(verifier), l.Scopes,
		f.haveRefreshToken(r.Context(), t, p))
	if err != nil {
		f.internal(w, r, err)
		return
	}
	now := f.now()
	l.Status, l.StateHash, l.Secret, l.OpenedAt = gtmgate.ConnectOpened, hash(state), verifier, &now
	if !f.claim(w, r, gtmgate.ConnectCreated, l, http.StatusGone, "This connect link was already used; each link works once.") {
		return
	}
	f.audit(r, l, "connect.opened", gtmgate.OutcomeOK, http.StatusSeeOther, "sent to "+p.Title+" consent")
	http.SetCookie(w, f.stateCookie(l, state, int(cookieMaxAge/time.Second)))
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	http.Redirect(w, r, target, http.StatusSeeOther)
}

// haveRefreshToken reports whether the tenant holds a refresh record for
// one of its accounts of p's keys: Google then need not force consent.
func (f *Flow) haveRefreshToken(ctx context.Context, t *gtmgate.Tenant, p connect.Provider) bool {
	for key, pa := range t.Providers {
		if !p.Covering(key) {
			continue
		}
		for _, a := range pa.Accounts {
			if _, err := f.opts.Store.GetProviderOAuth(ctx, t.ID, key, a.ID); err == nil {
				return true
			}
		}
	}
	return false
}

// internal logs err with the request and shows a page without it.
func (f *Flow) internal(w http.ResponseWriter, r *http.Request, err error) {
	f.opts.Logger.Error("connect flow", "err", err, "request_id", gtmgate.RequestIDFromContext(r.Context()))
	f.refuse(w, http.StatusInternalServerError, "Something went wrong", "gtmgate could not finish this step; nothing was connected.")
}

// audit records one step of a link's flow, with no secret.
func (f *Flow) audit(r *http.Request, l *gtmgate.ConnectLink, action, outcome string, status int, detail string) {
	e := gtmgate.AuditEntry{Time: f.now(), TenantID: l.TenantID, Action: action, Source: Source, Outcome: outcome,
		Status: status, RequestID: gtmgate.RequestIDFromContext(r.Context()),
		Detail: "provider " + l.Provider + ", link " + l.ID + ": " + detail}
	if err := f.opts.Recorder.Record(r.Context(), e, nil); err != nil {
		f.opts.Logger.Error("connect flow: audit", "err", err, "link", l.ID)
	}
}

// Source is the audit source of the public connect pages.
const Source = "connect"
