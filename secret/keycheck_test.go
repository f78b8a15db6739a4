package secret

import (
	"encoding/hex"
	"strings"
	"testing"
)

// TestKeyCheck: one key gives one check on every replica, another key a
// different one, and neither part of the check carries the key.
func TestKeyCheck(t *testing.T) {
	a, again, b := newTestSealer(t, 1).KeyCheck(), newTestSealer(t, 1).KeyCheck(), newTestSealer(t, 2).KeyCheck()
	if !a.Matches(again) || a != again {
		t.Errorf("one key, two checks: %+v, %+v", a, again)
	}
	if a.Matches(b) || a.ID == b.ID {
		t.Errorf("two keys, one check: %+v, %+v", a, b)
	}
	if len(a.ID) != 12 || !strings.HasPrefix(a.Value, "v1:") || len(a.Value) != 3+64 {
		t.Errorf("check = %+v, want a 12-character id and a v1: HMAC-SHA256", a)
	}
	key := hex.EncodeToString(testKey(t, 1))
	if strings.Contains(a.Value, key[:16]) || strings.Contains(a.ID, key[:12]) {
		t.Errorf("check %+v carries the key", a)
	}
}
