package secret

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
)

// ErrWrongKey is returned when a store's secrets were sealed with another
// encryption key than the one given: every secret it holds would fail to
// open.
var ErrWrongKey = errors.New("secret: the encryption key is not the one that sealed the store's secrets")

// KeyCheck identifies an encryption key without revealing it: ID is a short
// fingerprint to show people, Value a full HMAC-SHA256 of a fixed text under
// the key. Neither helps guess the key (both are outputs of a keyed hash
// of public text), so a store may keep them beside the sealed secrets and
// logs may name the ID.
type KeyCheck struct {
	ID    string
	Value string
}

// Matches reports whether c and o are checks of the same key, in constant time.
func (c KeyCheck) Matches(o KeyCheck) bool {
	return subtle.ConstantTimeCompare([]byte(c.Value), []byte(o.Value)) == 1
}

// keyCheckV1 prefixes check values, so that a later derivation can be told apart.
const keyCheckV1 = "v1:"

// newKeyCheck derives the check of key.
func newKeyCheck(key []byte) KeyCheck {
	mac := func(purpose string) []byte {
		m := hmac.New(sha256.New, key)
		m.Write([]byte(purpose))
		return m.Sum(nil)
	}
	return KeyCheck{
		ID:    hex.EncodeToString(mac("gtmgate encryption key id v1")[:6]),
		Value: keyCheckV1 + hex.EncodeToString(mac("gtmgate encryption key check v1")),
	}
}

// KeyCheck returns the check of the sealer's key.
func (s *Sealer) KeyCheck() KeyCheck { return s.check }
