package oauth

import (
	"net/http"
	"strings"

	"github.com/gtmgate/gtmgate/formtoken"
)

// The consent form is protected by a signed double-submit token
// (formtoken): a nonce in an HttpOnly, SameSite=Strict cookie, and in the
// form's hidden field its HMAC under the server's key.

const csrfCookie = "gtmgate_oauth_csrf"

func (s *Server) csrfSigner() formtoken.Signer {
	return formtoken.Signer{Key: s.csrfKey, Label: "gtmgate oauth consent csrf", Secure: strings.HasPrefix(s.issuer, "https://")}
}

// csrfToken returns the form token for r, setting a new cookie when r has none.
func (s *Server) csrfToken(w http.ResponseWriter, r *http.Request) string {
	signer := s.csrfSigner()
	return signer.Token(signer.Nonce(w, r, csrfCookie, 3600))
}

// checkCSRF reports whether the posted form carries the token of its cookie.
func (s *Server) checkCSRF(r *http.Request) bool {
	signer := s.csrfSigner()
	c, err := r.Cookie(signer.CookieName(csrfCookie))
	return err == nil && signer.Check(c.Value, r.PostForm.Get("csrf_token"))
}
