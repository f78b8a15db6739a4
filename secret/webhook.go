package secret

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// webhookSecretPrefix marks a Standard Webhooks secret: base64 after it.
const webhookSecretPrefix = "whsec_"

// ParseWebhookSecret reads a webhook signing secret: "whsec_" followed by
// base64 (as Standard Webhooks libraries generate them), or any other
// string used as its bytes. Its errors never repeat the secret.
func ParseWebhookSecret(s string) ([]byte, error) {
	if rest, ok := strings.CutPrefix(s, webhookSecretPrefix); ok {
		b, err := base64.StdEncoding.DecodeString(rest)
		if err != nil {
			return nil, fmt.Errorf("a %s secret must be base64 after the prefix", webhookSecretPrefix)
		}
		if len(b) < 16 {
			return nil, errors.New("the secret must be at least 16 bytes")
		}
		return b, nil
	}
	if len(s) < 16 {
		return nil, errors.New("the secret must be at least 16 characters")
	}
	return []byte(s), nil
}

// NewWebhookSecret returns a new signing secret: "whsec_" and 24 random
// bytes in base64.
func NewWebhookSecret() (string, error) {
	var b [24]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return webhookSecretPrefix + base64.StdEncoding.EncodeToString(b[:]), nil
}
