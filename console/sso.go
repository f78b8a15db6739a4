package console

import (
	"errors"
	"net/http"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/formtoken"
	"github.com/gtmgate/gtmgate/jsonapi"
	"github.com/gtmgate/gtmgate/secret"
	"github.com/gtmgate/gtmgate/sso"
)

// ssoStateCookie binds a sign-in to the browser that started it. It is
// SameSite=Lax, unlike the console's other cookies: the IdP's redirect
// back is a cross-site navigation, on which a Strict cookie is not sent.
const ssoStateCookie = "gtmgate_console_sso"

// startSSO serves GET /console/sso/start?idp&next: a sign-in button. It is
// a link, not a form: the console's CSP (form-action 'self') would stop a
// form's redirect to the IdP's origin. Starting a sign-in changes nothing
// but a short-lived sign-in record, and the state it sets is bound to this
// browser, so no CSRF token is needed.
func (c *Console) startSSO(w http.ResponseWriter, r *http.Request) {
	if c.opts.SSO == nil {
		c.renderSignIn(w, r, http.StatusNotFound, "Single sign-on is not configured on this gateway.")
		return
	}
	q := r.URL.Query()
	authURL, state, err := c.opts.SSO.Start(r.Context(), q.Get("idp"), safeNext(q.Get("next")))
	if err != nil {
		c.opts.Logger.Warn("console: start sign-in", "idp", q.Get("idp"), "error", err)
		c.renderSignIn(w, r, jsonapi.Status(gtmgate.AsError(err).Code), explain(err))
		return
	}
	http.SetCookie(w, &http.Cookie{Name: c.cookieName(ssoStateCookie), Value: state, Path: "/console/sso/", MaxAge: int(sso.SignInLifetime / time.Second),
		HttpOnly: true, Secure: c.sessionForms.Secure, SameSite: http.SameSiteLaxMode})
	http.Redirect(w, r, authURL, http.StatusSeeOther)
}

// ssoCallback serves GET /console/sso/callback: the IdP sends the person
// back; a verified person with a role gets a session.
func (c *Console) ssoCallback(w http.ResponseWriter, r *http.Request) {
	start := c.opts.Now()
	if c.opts.SSO == nil {
		c.renderSignIn(w, r, http.StatusNotFound, "Single sign-on is not configured on this gateway.")
		return
	}
	browserState := ""
	if ck, err := r.Cookie(c.cookieName(ssoStateCookie)); err == nil {
		browserState = ck.Value
	}
	http.SetCookie(w, &http.Cookie{Name: c.cookieName(ssoStateCookie), Value: "", Path: "/console/sso/", MaxAge: -1,
		HttpOnly: true, Secure: c.sessionForms.Secure, SameSite: http.SameSiteLaxMode})
	res, err := c.opts.SSO.Finish(r.Context(), sso.ParseCallback(r.URL.Query(), browserState))
	if err != nil {
		c.opts.Logger.Warn("console: sign-in refused", "error", err)
		c.auditSignIn(r, start, "console.signin", gtmgate.OutcomeDenied, jsonapi.Status(gtmgate.AsError(err).Code), "", "", "sso: "+gtmgate.AsError(err).Message)
		c.renderSignIn(w, r, jsonapi.Status(gtmgate.AsError(err).Code), explain(err))
		return
	}
	value := formtoken.NewValue()
	s := &gtmgate.ConsoleSession{Hash: secret.HashToken(value), PersonID: res.Person.ID, IdP: res.IdP.Name, Identity: res.Identity,
		Address: c.opts.Client(r), CreatedAt: start.UTC(), ExpiresAt: start.Add(SessionLifetime).UTC()}
	if err := c.opts.Sessions.CreateConsoleSession(r.Context(), s); err != nil {
		c.opts.Logger.Error("console: store session", "error", err)
		c.renderSignIn(w, r, http.StatusServiceUnavailable, "The session could not be stored. Try again in a moment.")
		return
	}
	actor := sso.PersonActor(res.Person.ID, res.Identity, res.IdP.Name, res.Grants)
	c.auditSignIn(r, start, "console.signin", gtmgate.OutcomeOK, http.StatusOK, actor.AuditKey(), actor.Via, "signed in as "+actor.Name+" from "+s.Address)
	http.SetCookie(w, c.cookie("session", value, int(SessionLifetime/time.Second)))
	http.SetCookie(w, c.cookie("presession", "", -1))
	// A page, not a redirect: the console's cookies are SameSite=Strict,
	// and a redirect at the end of the IdP's cross-site chain would not
	// send the new session cookie. The page's own navigation does.
	c.render(w, r, http.StatusOK, "signedin", &page{Title: "Signed in", Data: map[string]string{"next": safeNext(res.Next), "name": actor.Name}})
}

// explain is the sign-in page's message for a refused sign-in: what
// happened and what to do about it.
func explain(err error) string {
	var e *gtmgate.Error
	if !errors.As(err, &e) || e.Code == gtmgate.EInternal || e.Code == gtmgate.EUnavailable && e.Hint == "" {
		return "Signing in failed: the gateway could not complete it. Try again in a moment."
	}
	if e.Hint != "" {
		return e.Message + ". " + e.Hint + "."
	}
	return e.Message + "."
}
