package secret

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestParseKey(t *testing.T) {
	key := bytes.Repeat([]byte{0xab}, KeySize)
	for _, tc := range []struct {
		name    string
		in      string
		wantErr string
	}{
		{"hex", hex.EncodeToString(key), ""},
		{"hex upper with newline", strings.ToUpper(hex.EncodeToString(key)) + "\n", ""},
		{"base64", base64.StdEncoding.EncodeToString(key), ""},
		{"base64 raw", base64.RawStdEncoding.EncodeToString(key), ""},
		{"base64url", base64.URLEncoding.EncodeToString(key), ""},
		{"empty", "  ", "empty"},
		{"short base64", base64.StdEncoding.EncodeToString(key[:16]), "decodes to 16 bytes"},
		{"garbage", "not a key at all!", "64 hex characters"},
		{"63 hex", hex.EncodeToString(key)[:63], "64 hex characters"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseKey(tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tc.wantErr)
				}
				if strings.TrimSpace(tc.in) != "" && strings.Contains(err.Error(), strings.TrimSpace(tc.in)) {
					t.Errorf("error echoes the key")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, key) {
				t.Errorf("key = %x, want %x", got, key)
			}
		})
	}
}

func TestLoadOrCreateKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "encryption.key")
	k1, created, err := LoadOrCreateKey(path)
	if err != nil || !created || len(k1) != KeySize {
		t.Fatalf("first call: len %d, created %v, err %v", len(k1), created, err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("key file mode = %v, want 0600", fi.Mode().Perm())
	}
	k2, created, err := LoadOrCreateKey(path)
	if err != nil || created || !bytes.Equal(k1, k2) {
		t.Fatalf("second call: created %v, err %v, same key %v", created, err, bytes.Equal(k1, k2))
	}
}

func TestLoadOrCreateKeyConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "encryption.key")
	const n = 8
	keys := make([][]byte, n)
	var created int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			k, c, err := LoadOrCreateKey(path)
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			keys[i] = k
			if c {
				created++
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	if created != 1 {
		t.Errorf("%d callers created the key, want 1", created)
	}
	for i := range keys {
		if !bytes.Equal(keys[i], keys[0]) {
			t.Fatalf("caller %d got a different key", i)
		}
	}
}

func TestLoadOrCreateKeyReadsBase64(t *testing.T) {
	path := filepath.Join(t.TempDir(), "k")
	key := bytes.Repeat([]byte{7}, KeySize)
	if err := os.WriteFile(path, []byte(base64.StdEncoding.EncodeToString(key)), 0o600); err != nil {
		t.Fatal(err)
	}
	got, created, err := LoadOrCreateKey(path)
	if err != nil || created || !bytes.Equal(got, key) {
		t.Fatalf("got %x created %v err %v", got, created, err)
	}
}

func TestLoadOrCreateKeyBadFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "k")
	if err := os.WriteFile(path, []byte("oops"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LoadOrCreateKey(path); err == nil {
		t.Fatal("bad key file accepted")
	}
	if b, _ := os.ReadFile(path); string(b) != "oops" {
		t.Error("bad key file was overwritten")
	}
}
