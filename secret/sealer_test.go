package secret

import (
	"bytes"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

func testKey(t *testing.T, b byte) []byte {
	t.Helper()
	return bytes.Repeat([]byte{b}, KeySize)
}

func newTestSealer(t *testing.T, b byte) *Sealer {
	t.Helper()
	s, err := NewSealer(testKey(t, b))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSealOpen(t *testing.T) {
	s := newTestSealer(t, 1)
	for _, tc := range []struct{ name, plain string }{
		{"empty", ""},
		{"token", "ya29.a0AfH6SMB-secret"},
		{"unicode", "clé secrète ✓"},
		{"long", strings.Repeat("x", 10_000)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sealed, err := s.Seal(tc.plain)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(sealed, "v1:") {
				t.Errorf("sealed = %q, want v1: prefix", sealed)
			}
			if tc.plain != "" && strings.Contains(sealed, tc.plain) {
				t.Errorf("sealed value contains the plaintext")
			}
			got, err := s.Open(sealed)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.plain {
				t.Errorf("Open = %q, want %q", got, tc.plain)
			}
		})
	}
}

func TestSealUsesFreshNonce(t *testing.T) {
	s := newTestSealer(t, 1)
	a, _ := s.Seal("same")
	b, _ := s.Seal("same")
	if a == b {
		t.Fatal("two seals of the same plaintext are equal")
	}
}

func TestOpenRejects(t *testing.T) {
	s := newTestSealer(t, 1)
	sealed, err := s.Seal("refresh-token-value")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := base64.RawStdEncoding.DecodeString(strings.TrimPrefix(sealed, "v1:"))
	flip := func(i int) string {
		b := bytes.Clone(raw)
		b[i] ^= 0x01
		return "v1:" + base64.RawStdEncoding.EncodeToString(b)
	}
	for _, tc := range []struct {
		name   string
		sealer *Sealer
		value  string
		want   error
	}{
		{"wrong key", newTestSealer(t, 2), sealed, ErrOpen},
		{"flipped nonce bit", s, flip(0), ErrOpen},
		{"flipped ciphertext bit", s, flip(len(raw) / 2), ErrOpen},
		{"flipped tag bit", s, flip(len(raw) - 1), ErrOpen},
		{"truncated", s, sealed[:len(sealed)-4], ErrOpen},
		{"too short", s, "v1:AAAA", ErrMalformed},
		{"no version", s, strings.TrimPrefix(sealed, "v1:"), ErrMalformed},
		{"unknown version", s, "v2:" + strings.TrimPrefix(sealed, "v1:"), ErrMalformed},
		{"bad base64", s, "v1:!!!!", ErrMalformed},
		{"plaintext", s, "refresh-token-value", ErrMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.sealer.Open(tc.value)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Open error = %v, want %v", err, tc.want)
			}
			if got != "" {
				t.Errorf("Open returned %q with an error", got)
			}
			if strings.Contains(err.Error(), tc.value) || strings.Contains(err.Error(), "refresh-token-value") {
				t.Errorf("error %q echoes the input", err)
			}
		})
	}
}

func TestNewSealerKeySize(t *testing.T) {
	for _, n := range []int{0, 16, 31, 33, 64} {
		if _, err := NewSealer(make([]byte, n)); err == nil {
			t.Errorf("NewSealer(%d bytes) succeeded", n)
		}
	}
}

func BenchmarkSealOpen(b *testing.B) {
	s, _ := NewSealer(bytes.Repeat([]byte{1}, KeySize))
	for b.Loop() {
		v, _ := s.Seal("ya29.a0AfH6SMB-access-token-of-typical-length-0123456789")
		if _, err := s.Open(v); err != nil {
			b.Fatal(err)
		}
	}
}
