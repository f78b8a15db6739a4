package gtmgate

import (
	"crypto/rand"
	"encoding/hex"
)

// NewID returns prefix followed by 20 random hex characters (80 bits).
func NewID(prefix string) string {
	var b [10]byte
	rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}
