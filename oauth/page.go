package oauth

import (
	"bytes"
	"embed"
	"html/template"
	"net/http"
	"net/url"
	"strings"
)

//go:embed templates/*.html
var templateFS embed.FS

var pages = template.Must(template.ParseFS(templateFS, "templates/*.html"))

// setPageHeaders makes the authorization pages unframeable (clickjacking),
// uncached and script-free.
func setPageHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("Cache-Control", "no-store")
	h.Set("Pragma", "no-cache")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
}

type scopeView struct{ Name, Description string }

type consentView struct {
	ClientName, ClientID, RedirectHost, Error, CSRF, Action string
	Scopes                                                  []scopeView
	Hidden                                                  map[string]string
	// Person is who is signed in ("" for nobody), Tenants the tenants they
	// may connect the application to, SignIn the IdPs to sign in with.
	Person  string
	Tenants []string
	SignIn  []SignInLink
}

// renderConsent shows the consent page for req, with message as an error
// when it is not empty.
func (s *Server) renderConsent(w http.ResponseWriter, r *http.Request, req *authRequest, status int, message string) {
	v := consentView{
		ClientName: req.client.Name, ClientID: req.client.ID, RedirectHost: redirectHost(req.redirectURI),
		Error: message, CSRF: s.csrfToken(w, r), Action: s.issuer + "/oauth/authorize",
		Hidden: map[string]string{
			"response_type": "code", "client_id": req.client.ID, "redirect_uri": req.redirectURI, "state": req.state,
			"code_challenge": req.challenge, "code_challenge_method": "S256",
			"scope": strings.Join(req.scopes, " "), "resource": req.rawResource,
		},
	}
	if v.ClientName == "" {
		v.ClientName = req.client.ID
	}
	for _, sc := range req.scopes {
		v.Scopes = append(v.Scopes, scopeView{sc, scopeDescriptions[sc]})
	}
	s.addPerson(r, &v)
	s.render(w, status, "consent.html", v)
}

// addPerson puts on the consent page who is signed in and the tenants
// they may choose, or the IdPs to sign in with (coming back to this page).
func (s *Server) addPerson(r *http.Request, v *consentView) {
	if s.opts.People == nil {
		return
	}
	if a := s.opts.People.SignedIn(r); a != nil {
		v.Person = a.Name
		tenants, err := s.opts.People.Tenants(r.Context(), a)
		if err != nil {
			s.opts.Logger.Warn("oauth: consent page tenants", "err", err)
		}
		v.Tenants = tenants
		return
	}
	q := url.Values{}
	for k, val := range v.Hidden {
		if val != "" {
			q.Set(k, val)
		}
	}
	v.SignIn = s.opts.People.SignInLinks(r.Context(), "/oauth/authorize?"+q.Encode())
}

// renderError shows an error page that does not go back to the client.
func (s *Server) renderError(w http.ResponseWriter, status int, message string) {
	s.render(w, status, "error.html", struct{ Message string }{message})
}

func (s *Server) render(w http.ResponseWriter, status int, name string, data any) {
	var buf bytes.Buffer
	if err := pages.ExecuteTemplate(&buf, name, data); err != nil {
		s.opts.Logger.Error("oauth: render page", "page", name, "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}
