package sqlite_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/secret"
	"github.com/gtmgate/gtmgate/store/sqlite"
	"github.com/gtmgate/gtmgate/store/sqlstore"
	"github.com/gtmgate/gtmgate/store/storetest"
)

func TestOpenRejects(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		path string
		opts *sqlstore.Options
	}{
		{"no options", filepath.Join(dir, "a.db"), nil},
		{"no sealer", filepath.Join(dir, "b.db"), &sqlstore.Options{}},
		{"memory", ":memory:", &sqlstore.Options{Sealer: storetest.NewSealer(t)}},
		{"query in path", filepath.Join(dir, "c.db?x=1"), &sqlstore.Options{Sealer: storetest.NewSealer(t)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := sqlite.Open(t.Context(), tc.path, tc.opts)
			if err == nil {
				s.Close()
				t.Fatal("accepted")
			}
		})
	}
}

// TestReopenWithWrongKey checks that data survives a reopen and that a
// store opened with another key refuses to decrypt instead of returning
// garbage.
func TestReopenWithWrongKey(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "gtmgate.db")
	s, err := sqlite.Open(ctx, path, &sqlstore.Options{Sealer: storetest.NewSealer(t)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutTenant(ctx, &gtmgate.Tenant{ID: "acme", Status: gtmgate.TenantActive}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutProviderToken(ctx, &gtmgate.ProviderToken{TenantID: "acme", Provider: "hubspot", AccountID: "1",
		AccessToken: "plain-access-token"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	other, _ := secret.NewSealer(make([]byte, secret.KeySize))
	s2, err := sqlite.Open(ctx, path, &sqlstore.Options{Sealer: other})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if _, err := s2.GetTenant(ctx, "acme"); err != nil {
		t.Fatalf("tenant lost across reopen: %v", err)
	}
	_, err = s2.GetProviderToken(ctx, "acme", "hubspot", "1")
	if !errors.Is(err, secret.ErrOpen) {
		t.Fatalf("wrong key: err = %v, want secret.ErrOpen", err)
	}
}

// TestDataFilesPrivate: the database and its WAL files are readable by their
// owner only, also when an older version left the file world-readable.
func TestDataFilesPrivate(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "gtmgate.db")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := sqlite.Open(t.Context(), path, &sqlstore.Options{Sealer: storetest.NewSealer(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.PutTenant(t.Context(), &gtmgate.Tenant{ID: "acme", Name: "Acme", Status: gtmgate.TenantActive}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"gtmgate.db", "gtmgate.db-wal", "gtmgate.db-shm"} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if perm := fi.Mode().Perm(); perm != 0o600 {
			t.Errorf("%s has mode %o, want 600", name, perm)
		}
	}
}
