// Package secret protects secrets at rest: it seals provider tokens and OAuth
// client secrets with AES-256-GCM, loads or creates the encryption key, and
// creates and hashes bearer tokens and the admin key.
package secret

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// KeySize is the length in bytes of an encryption key (AES-256).
const KeySize = 32

// sealedV1 prefixes values sealed with AES-256-GCM and a random 96-bit nonce:
// "v1:" + base64(nonce || ciphertext || tag).
const sealedV1 = "v1:"

// ErrOpen is returned by Open when a value cannot be decrypted: it was sealed
// with another key, or it was altered. The error never includes the value.
var ErrOpen = errors.New("secret: cannot open sealed value (wrong key or tampered data)")

// ErrMalformed is returned by Open when a value is not a sealed value at all.
var ErrMalformed = errors.New("secret: malformed sealed value")

// Sealer encrypts and decrypts secrets with one AES-256-GCM key. It is safe
// for concurrent use.
type Sealer struct {
	aead  cipher.AEAD
	check KeyCheck
}

// NewSealer returns a Sealer for a 32-byte key.
func NewSealer(key []byte) (*Sealer, error) {
	if len(key) != KeySize {
		return nil, fmt.Errorf("secret: encryption key must be %d bytes, got %d", KeySize, len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("secret: new cipher: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("secret: new gcm: %w", err)
	}
	return &Sealer{aead: aead, check: newKeyCheck(key)}, nil
}

// Seal encrypts plaintext with a fresh random nonce and returns a versioned,
// printable value ("v1:" + base64). Sealing the same plaintext twice gives
// different values.
func (s *Sealer) Seal(plaintext string) (string, error) {
	ns := s.aead.NonceSize()
	buf := make([]byte, ns, ns+len(plaintext)+s.aead.Overhead())
	if _, err := rand.Read(buf); err != nil {
		return "", fmt.Errorf("secret: seal: nonce: %w", err)
	}
	buf = s.aead.Seal(buf, buf[:ns], []byte(plaintext), []byte(sealedV1))
	return sealedV1 + base64.RawStdEncoding.EncodeToString(buf), nil
}

// Open decrypts a value made by Seal. It returns ErrMalformed for a value
// that is not sealed and ErrOpen for a wrong key or altered data.
func (s *Sealer) Open(sealed string) (string, error) {
	rest, ok := strings.CutPrefix(sealed, sealedV1)
	if !ok {
		return "", ErrMalformed
	}
	raw, err := base64.RawStdEncoding.DecodeString(rest)
	if err != nil {
		return "", ErrMalformed
	}
	ns := s.aead.NonceSize()
	if len(raw) < ns+s.aead.Overhead() {
		return "", ErrMalformed
	}
	plain, err := s.aead.Open(nil, raw[:ns], raw[ns:], []byte(sealedV1))
	if err != nil {
		return "", ErrOpen
	}
	return string(plain), nil
}
