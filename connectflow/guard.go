package connectflow

import (
	"crypto/subtle"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/formtoken"
)

// The start of a flow (POST /connect/{secret}) is taken only from the
// link's own page in the same browser, as the console takes its forms: the
// request must be same-origin (http.CrossOriginProtection: Sec-Fetch-Site,
// else Origin against Host and GATEWAY_URL), and carry in its "csrf" field
// the HMAC of the nonce the link's page set in this browser's cookie for
// that link. Another site cannot read the cookie nor compute the field, so
// it cannot make a visitor's browser consent to a link it holds.
//
// Each link has its own cookies, named after its id (not a secret): two
// links open in one browser never overwrite each other's nonce or state.

// formCookiePrefix and stateCookiePrefix name a link's two cookies.
const (
	formCookiePrefix  = "gtmgate_connect_form_"
	stateCookiePrefix = "gtmgate_connect_"
)

// formField is the link page's hidden field.
const formField = "csrf"

// formMaxAge bounds how long a link's page may stay open before Continue:
// the link's own lifetime, at most a day.
const formMaxAge = 24 * time.Hour

// newGuard builds the signer and the origin check of opts.
func newGuard(opts Options) (formtoken.Signer, *http.CrossOriginProtection) {
	key := opts.FormKey
	if len(key) == 0 {
		// One process only: replicas behind one address need a shared key.
		key = []byte(formtoken.NewValue())
	}
	signer := formtoken.Signer{Key: key, Label: "gtmgate connect link start", Secure: strings.HasPrefix(opts.GatewayURL, "https://")}
	cop := http.NewCrossOriginProtection()
	if u, err := url.Parse(opts.GatewayURL); err == nil && u.Host != "" && !strings.HasSuffix(u.Host, ":0") {
		// Behind a proxy the Host may not be GATEWAY_URL's; its origin is ours.
		cop.AddTrustedOrigin(u.Scheme + "://" + u.Host)
	}
	return signer, cop
}

// formToken sets (or keeps) the nonce of l's page in this browser and
// returns the token its form carries.
func (f *Flow) formToken(w http.ResponseWriter, r *http.Request, l *gtmgate.ConnectLink) string {
	maxAge := min(l.ExpiresAt.Sub(f.now()), formMaxAge)
	nonce := f.forms.Nonce(w, r, formCookiePrefix+l.ID, max(int(maxAge/time.Second), 1))
	return f.forms.Token(l.ID + "\x00" + nonce)
}

// startAllowed reports whether a start of l came from l's own page in
// this browser. An accepted start deletes the page's nonce; a refused one
// keeps it, so the page reloaded works.
func (f *Flow) startAllowed(w http.ResponseWriter, r *http.Request, l *gtmgate.ConnectLink) bool {
	if err := f.crossOrigin.Check(r); err != nil {
		return false
	}
	if err := r.ParseForm(); err != nil {
		return false
	}
	c, err := r.Cookie(f.forms.CookieName(formCookiePrefix + l.ID))
	if err != nil || len(c.Value) != formtoken.ValueLength {
		return false
	}
	if !f.forms.Check(l.ID+"\x00"+c.Value, r.PostForm.Get(formField)) {
		return false
	}
	http.SetCookie(w, f.forms.Cookie(formCookiePrefix+l.ID, "", -1))
	return true
}

// refuseStart is the page of a start that did not come from the link's page.
func (f *Flow) refuseStart(w http.ResponseWriter) {
	f.render(w, http.StatusForbidden, "refused", page{Title: "Press Continue on the link's page",
		Message: "gtmgate starts a connection only from the connect link's own page, opened in this browser. " +
			"This request came from elsewhere, or the page was open too long. Nothing was started, and the link still works.",
		Retry: true})
}

// stateCookie binds the browser that started l to its state, for the
// provider's answer (Lax: that answer is a navigation from the provider).
func (f *Flow) stateCookie(l *gtmgate.ConnectLink, state string, maxAge int) *http.Cookie {
	return &http.Cookie{Name: stateCookiePrefix + l.ID, Value: state, Path: "/connect/", MaxAge: maxAge,
		HttpOnly: true, Secure: f.secure, SameSite: http.SameSiteLaxMode}
}

// sameBrowser reports whether r carries l's state cookie holding state.
func (f *Flow) sameBrowser(r *http.Request, l *gtmgate.ConnectLink, state string) bool {
	c, err := r.Cookie(stateCookiePrefix + l.ID)
	return err == nil && subtle.ConstantTimeCompare([]byte(c.Value), []byte(state)) == 1
}

// forget deletes l's state cookie once the link is done.
func (f *Flow) forget(w http.ResponseWriter, l *gtmgate.ConnectLink) {
	http.SetCookie(w, f.stateCookie(l, "", -1))
}
