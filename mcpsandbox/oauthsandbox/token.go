package oauthsandbox

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"strings"
)

// claims is what a signed client id or token carries.
type claims struct {
	RedirectURIs []string `json:"r,omitempty"`
	Issued       int64    `json:"i,omitempty"` // Unix nanoseconds
	Expires      int64    `json:"e,omitempty"` // Unix nanoseconds
	Nonce        string   `json:"n,omitempty"`
}

// seal returns "kind.payload.mac", the payload the JSON of c.
func (s *Server) seal(kind string, c claims) string {
	b, _ := json.Marshal(c)
	p := kind + "." + base64.RawURLEncoding.EncodeToString(b)
	return p + "." + base64.RawURLEncoding.EncodeToString(s.mac(p))
}

// open checks a sealed value of the kind and decodes its claims.
func (s *Server) open(v, kind string, c *claims) bool {
	i := strings.LastIndexByte(v, '.')
	if i < 0 || !strings.HasPrefix(v, kind+".") {
		return false
	}
	mac, err := base64.RawURLEncoding.DecodeString(v[i+1:])
	if err != nil || !hmac.Equal(mac, s.mac(v[:i])) {
		return false
	}
	b, err := base64.RawURLEncoding.DecodeString(v[len(kind)+1 : i])
	return err == nil && json.Unmarshal(b, c) == nil
}

func (s *Server) mac(p string) []byte {
	m := hmac.New(sha256.New, s.opts.Key)
	m.Write([]byte(p))
	return m.Sum(nil)
}
