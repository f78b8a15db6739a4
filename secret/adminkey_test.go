package secret

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadOrCreateAdminKeyHashFromEnv(t *testing.T) {
	h := HashToken("my-admin-key")
	for _, tc := range []struct {
		name    string
		env     string
		want    string
		wantErr bool
	}{
		{"hash", h, h, false},
		{"upper case and spaces", " " + strings.ToUpper(h) + "\n", h, false},
		{"the key instead of its hash", "my-admin-key", "", true},
		{"not hex", strings.Repeat("z", 64), "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			got, key, err := LoadOrCreateAdminKeyHash(dir, tc.env)
			if tc.wantErr {
				if err == nil {
					t.Fatal("accepted")
				}
				if strings.Contains(err.Error(), "my-admin-key") {
					t.Errorf("error echoes the value: %v", err)
				}
				return
			}
			if err != nil || got != tc.want || key != "" {
				t.Fatalf("got %q, key %q, err %v", got, key, err)
			}
			if _, err := os.Stat(filepath.Join(dir, AdminKeyFile)); !os.IsNotExist(err) {
				t.Error("a hash file was written although ADMIN_API_KEY is set")
			}
		})
	}
}

func TestLoadOrCreateAdminKeyHashGenerates(t *testing.T) {
	dir := t.TempDir()
	h, key, err := LoadOrCreateAdminKeyHash(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(key, AdminKeyPrefix) || !EqualHash(HashToken(key), h) {
		t.Fatalf("key %q does not match hash %q", key, h)
	}
	path := filepath.Join(dir, AdminKeyFile)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, want 0600", fi.Mode().Perm())
	}
	b, _ := os.ReadFile(path)
	if strings.Contains(string(b), key) {
		t.Error("the key itself was written to disk")
	}

	h2, key2, err := LoadOrCreateAdminKeyHash(dir, "")
	if err != nil || h2 != h || key2 != "" {
		t.Fatalf("second start: hash %q key %q err %v", h2, key2, err)
	}
}

func TestLoadOrCreateAdminKeyHashBadFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, AdminKeyFile), []byte("short"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LoadOrCreateAdminKeyHash(dir, ""); err == nil {
		t.Fatal("corrupt hash file accepted")
	}
}
