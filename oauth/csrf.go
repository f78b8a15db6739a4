package oauth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"
)

// The consent form is protected by a signed double-submit token: a random
// nonce in an HttpOnly, SameSite=Strict cookie, and in the form's hidden
// field the HMAC of that nonce under the server's key. Another site can
// neither read the cookie nor compute the field.

const csrfCookie = "gtmgate_oauth_csrf"

// csrfCookieName uses the __Host- prefix over https, which pins the cookie
// to this host and path "/" so that no sibling domain can plant one.
func (s *Server) csrfCookieName() string {
	if strings.HasPrefix(s.issuer, "https://") {
		return "__Host-" + csrfCookie
	}
	return csrfCookie
}

// csrfToken returns the form token for r, setting a new cookie when r has none.
func (s *Server) csrfToken(w http.ResponseWriter, r *http.Request) string {
	if c, err := r.Cookie(s.csrfCookieName()); err == nil && len(c.Value) == 43 {
		return s.csrfMAC(c.Value)
	}
	b := make([]byte, 32)
	rand.Read(b)
	nonce := base64.RawURLEncoding.EncodeToString(b)
	http.SetCookie(w, &http.Cookie{
		Name: s.csrfCookieName(), Value: nonce, Path: "/", MaxAge: 3600,
		HttpOnly: true, Secure: strings.HasPrefix(s.issuer, "https://"), SameSite: http.SameSiteStrictMode,
	})
	return s.csrfMAC(nonce)
}

func (s *Server) csrfMAC(nonce string) string {
	m := hmac.New(sha256.New, s.csrfKey)
	m.Write([]byte("gtmgate oauth consent csrf\x00" + nonce))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// checkCSRF reports whether the posted form carries the token of its cookie.
func (s *Server) checkCSRF(r *http.Request) bool {
	c, err := r.Cookie(s.csrfCookieName())
	field := r.PostForm.Get("csrf_token")
	if err != nil || c.Value == "" || field == "" {
		return false
	}
	return hmac.Equal([]byte(field), []byte(s.csrfMAC(c.Value)))
}
