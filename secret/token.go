package secret

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
)

// tokenBytes is the entropy of a generated token.
const tokenBytes = 32

// prefixLen is how many leading characters of a token TokenPrefix shows.
const prefixLen = 8

// HashToken returns the SHA-256 of token as lower-case hex: what the store
// keeps instead of a bearer token. Tokens carry 256 random bits, so a fast
// hash is enough (no password stretching is needed).
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// NewToken returns prefix followed by 32 random bytes in unpadded base64url,
// for example "gtm_Xy…". The result is safe in URLs and headers.
func NewToken(prefix string) (string, error) {
	b := make([]byte, tokenBytes)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("secret: new token: %w", err)
	}
	return prefix + base64.RawURLEncoding.EncodeToString(b), nil
}

// TokenPrefix returns the first 8 characters of token, which identify it to
// people without revealing it. For a token too short for that to be safe it
// returns at most a quarter of it.
func TokenPrefix(token string) string {
	if len(token) < 4*prefixLen {
		return token[:len(token)/4]
	}
	return token[:prefixLen]
}

// EqualHash compares two hashes in constant time (for equal lengths), so the
// comparison does not reveal how many leading characters matched.
func EqualHash(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}
