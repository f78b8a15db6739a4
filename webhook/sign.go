// Package webhook delivers gtmgate's outbound events (quality alerts,
// incidents, approval notices) as Standard Webhooks
// (https://www.standardwebhooks.com): a JSON body signed with HMAC-SHA256
// in the webhook-id, webhook-timestamp and webhook-signature headers, sent
// by a durable job that retries with backoff and records every attempt, to
// the alert webhook or to an endpoint of a tenant's.
package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate/secret"
)

// ParseSecret reads a signing secret: "whsec_" followed by base64 (as
// Standard Webhooks libraries generate them), or any other string used as
// its bytes.
func ParseSecret(s string) ([]byte, error) { return secret.ParseWebhookSecret(s) }

// Sign returns the webhook-signature value of one message: "v1," and the
// base64 HMAC-SHA256 of "id.timestamp.body".
func Sign(secret []byte, id string, ts time.Time, body []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(id))
	m.Write([]byte{'.'})
	m.Write([]byte(strconv.FormatInt(ts.Unix(), 10)))
	m.Write([]byte{'.'})
	m.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(m.Sum(nil))
}

// Headers sets the three Standard Webhooks headers on h.
func Headers(h http.Header, secret []byte, id string, ts time.Time, body []byte) {
	h.Set("webhook-id", id)
	h.Set("webhook-timestamp", strconv.FormatInt(ts.Unix(), 10))
	h.Set("webhook-signature", Sign(secret, id, ts, body))
}

// ErrSignature is returned by Verify for a message that is not authentic.
var ErrSignature = errors.New("webhook signature does not verify")

// Verify checks a received message's headers against secret, as a receiver
// does: one of the space-separated v1 signatures must match, and the
// timestamp must be within tolerance of now (replay protection).
func Verify(secret []byte, h http.Header, body []byte, now time.Time, tolerance time.Duration) error {
	id, tsText, sigs := h.Get("webhook-id"), h.Get("webhook-timestamp"), h.Get("webhook-signature")
	if id == "" || tsText == "" || sigs == "" {
		return fmt.Errorf("%w: missing webhook-id, webhook-timestamp or webhook-signature", ErrSignature)
	}
	sec, err := strconv.ParseInt(tsText, 10, 64)
	if err != nil {
		return fmt.Errorf("%w: bad timestamp", ErrSignature)
	}
	ts := time.Unix(sec, 0)
	if math.Abs(float64(now.Sub(ts))) > float64(tolerance) {
		return fmt.Errorf("%w: timestamp outside the tolerance", ErrSignature)
	}
	want := Sign(secret, id, ts, body)
	for s := range strings.FieldsSeq(sigs) {
		if hmac.Equal([]byte(s), []byte(want)) {
			return nil
		}
	}
	return ErrSignature
}
