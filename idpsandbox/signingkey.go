package idpsandbox

import (
	"crypto/rand"
	"crypto/rsa"
	"fmt"

	jose "github.com/go-jose/go-jose/v4"
)

// signingKey is the RSA key a Provider signs ID tokens with (RS256). It is
// generated at New and lives only in memory: relying parties fetch it again
// from the JWKS after a restart.
type signingKey struct {
	id  string
	key *rsa.PrivateKey
}

func newSigningKey() (signingKey, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return signingKey{}, fmt.Errorf("idpsandbox: generate signing key: %w", err)
	}
	return signingKey{id: randomID(), key: key}, nil
}

func (k signingKey) ID() string                                  { return k.id }
func (k signingKey) SignatureAlgorithm() jose.SignatureAlgorithm { return jose.RS256 }
func (k signingKey) Key() any                                    { return k.key }

// publicKey is the JWKS entry of a signingKey.
type publicKey struct{ k signingKey }

func (p publicKey) ID() string                         { return p.k.id }
func (p publicKey) Algorithm() jose.SignatureAlgorithm { return jose.RS256 }
func (p publicKey) Use() string                        { return "sig" }
func (p publicKey) Key() any                           { return &p.k.key.PublicKey }
