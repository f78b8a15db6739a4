// Package formtoken protects HTML forms with a signed double-submit token:
// a random value in an HttpOnly, SameSite=Strict cookie (a nonce, or a
// session's own value), and in the form's hidden field the HMAC of that
// value under the server's key. Another site can neither read the cookie
// nor compute the field. The OAuth consent page and the console use it.
package formtoken

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
)

// ValueLength is the length of a value from NewValue: 32 random bytes in
// unpadded base64url.
const ValueLength = 43

// Signer makes and checks the form tokens of one purpose.
type Signer struct {
	Key []byte
	// Label separates the purposes signed with one key.
	Label string
	// Secure marks cookies Secure with the __Host- prefix (an https site).
	Secure bool
}

// CookieName is name, with the __Host- prefix over https, which pins the
// cookie to this host and path "/" so that no sibling domain can plant one.
func (s Signer) CookieName(name string) string {
	if s.Secure {
		return "__Host-" + name
	}
	return name
}

// Cookie is an HttpOnly, SameSite=Strict cookie for the whole site
// (maxAge < 0 deletes it).
func (s Signer) Cookie(name, value string, maxAge int) *http.Cookie {
	return &http.Cookie{Name: s.CookieName(name), Value: value, Path: "/", MaxAge: maxAge, HttpOnly: true,
		Secure: s.Secure, SameSite: http.SameSiteStrictMode}
}

// Token is the form field for a cookie value.
func (s Signer) Token(value string) string {
	m := hmac.New(sha256.New, s.Key)
	m.Write([]byte(s.Label + "\x00" + value))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// Check reports whether field is the token of value.
func (s Signer) Check(value, field string) bool {
	return value != "" && field != "" && hmac.Equal([]byte(field), []byte(s.Token(value)))
}

// Nonce returns the nonce held in cookie name, setting a new one (valid
// for maxAge seconds) when r has none.
func (s Signer) Nonce(w http.ResponseWriter, r *http.Request, name string, maxAge int) string {
	if c, err := r.Cookie(s.CookieName(name)); err == nil && len(c.Value) == ValueLength {
		return c.Value
	}
	v := NewValue()
	http.SetCookie(w, s.Cookie(name, v, maxAge))
	return v
}

// NewValue is a random cookie value of ValueLength characters.
func NewValue() string {
	b := make([]byte, 32)
	rand.Read(b) // crypto/rand never fails on supported platforms
	return base64.RawURLEncoding.EncodeToString(b)
}
