package secret

import "testing"

func TestEntropyBits(t *testing.T) {
	random, err := NewToken("gtm_")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		token   string
		atLeast bool // true: ≥ MinTokenEntropyBits
	}{
		{"one repeated character", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false},
		{"two characters", "0101010101010101010101010101", false},
		{"short word-like", "password12345678", false},
		{"generated token", random, true},
		{"hex", "0123456789abcdef0123", true},
		{"openssl rand -hex 32", "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bits := EntropyBits(tc.token)
			if (bits >= MinTokenEntropyBits) != tc.atLeast {
				t.Fatalf("EntropyBits(%q) = %.1f; want ≥ %d: %v", tc.token, bits, MinTokenEntropyBits, tc.atLeast)
			}
		})
	}
}
