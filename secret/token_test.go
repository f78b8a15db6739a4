package secret

import (
	"encoding/base64"
	"strings"
	"testing"
)

func TestHashToken(t *testing.T) {
	// SHA-256("abc") from FIPS 180-2.
	const want = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
	if got := HashToken("abc"); got != want {
		t.Errorf("HashToken = %s, want %s", got, want)
	}
}

func TestNewToken(t *testing.T) {
	a, err := NewToken("gtm_")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewToken("gtm_")
	if a == b {
		t.Fatal("two tokens are equal")
	}
	body, ok := strings.CutPrefix(a, "gtm_")
	if !ok {
		t.Fatalf("token %q lacks prefix", a)
	}
	raw, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil || len(raw) != 32 {
		t.Errorf("token body decodes to %d bytes, err %v", len(raw), err)
	}
}

func TestTokenPrefix(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"generated", "gtm_abcdefghijklmnopqrstuvwxyz0123456789", "gtm_abcd"},
		{"short", "abcdefgh", "ab"},
		{"empty", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := TokenPrefix(tc.in); got != tc.want {
				t.Errorf("TokenPrefix(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestEqualHash(t *testing.T) {
	h := HashToken("x")
	for _, tc := range []struct {
		name string
		a, b string
		want bool
	}{
		{"equal", h, HashToken("x"), true},
		{"different", h, HashToken("y"), false},
		{"length", h, h[:63], false},
		{"empty", "", h, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := EqualHash(tc.a, tc.b); got != tc.want {
				t.Errorf("EqualHash = %v, want %v", got, tc.want)
			}
		})
	}
}
