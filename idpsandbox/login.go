package idpsandbox

import (
	_ "embed"
	"errors"
	"html/template"
	"net/http"
)

//go:embed login.html
var pagesHTML string

var pages = template.Must(template.New("pages").Parse(pagesHTML))

// loginPage is what the sign-in page shows.
type loginPage struct {
	Action    string // where the form posts: the page itself
	RequestID string
	ClientID  string
	People    []Person
	Error     string // instead of the form, when set
}

// serveLogin is the sign-in page: GET lists the people to choose from,
// POST signs the chosen one in and sends the browser on to zitadel's
// authorize callback, which redirects to the client with the code.
func (p *Provider) serveLogin(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		p.showLogin(w, r)
	case http.MethodPost:
		p.submitLogin(w, r)
	default:
		w.Header().Set("Allow", "GET, HEAD, POST")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

func (p *Provider) showLogin(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("authRequestID")
	req, err := p.store.pendingRequest(id)
	if err != nil {
		p.renderPage(w, http.StatusBadRequest, "page", loginPage{Error: refusal(err)})
		return
	}
	p.renderPage(w, http.StatusOK, "page", loginPage{
		Action:    p.issuer + loginPath,
		RequestID: req.id,
		ClientID:  req.clientID,
		People:    p.store.listPeople(),
	})
}

func (p *Provider) submitLogin(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		p.renderPage(w, http.StatusBadRequest, "page", loginPage{Error: "The sign-in form could not be read."})
		return
	}
	id, subject := r.PostForm.Get("id"), r.PostForm.Get("subject")
	if err := p.store.completeLogin(id, subject); err != nil {
		p.logger.WarnContext(r.Context(), "idpsandbox: sign-in refused", "subject", subject, "error", err)
		p.renderPage(w, http.StatusBadRequest, "page", loginPage{Error: refusal(err)})
		return
	}
	p.logger.InfoContext(r.Context(), "idpsandbox: signed in", "subject", subject)
	http.Redirect(w, r, p.callbackURL(r.Context(), id), http.StatusSeeOther)
}

// serveLoggedOut is where end_session lands without a
// post_logout_redirect_uri.
func (p *Provider) serveLoggedOut(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	p.renderPage(w, http.StatusOK, "loggedout", nil)
}

// refusal is the page's text for an error of the store.
func refusal(err error) string {
	switch {
	case errors.Is(err, ErrUnknownSubject):
		return "Unknown person: that subject is not one of the sandbox's people."
	case errors.Is(err, ErrUnknownRequest):
		return "Unknown or expired sign-in request: start the sign-in again from the application."
	default:
		return "The sign-in failed."
	}
}

func (p *Provider) renderPage(w http.ResponseWriter, status int, name string, data any) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	// No form-action: browsers apply it to the redirects after the POST,
	// and the last one leaves for the client's redirect_uri.
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("Referrer-Policy", "no-referrer") // the URL carries the request ID
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	if err := pages.ExecuteTemplate(w, name, data); err != nil {
		p.logger.Error("idpsandbox: render page", "page", name, "error", err)
	}
}
