package storetest

import (
	"path/filepath"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/secret"
	"github.com/gtmgate/gtmgate/store/sqlite"
	"github.com/gtmgate/gtmgate/store/sqlstore"
)

// TenantWithToken opens a SQLite store in a temporary directory, closed at
// the test's end, holding tenant "acme" and its token "tok_1" (value "t1"):
// the fixture of tests that revoke a credential behind a component's back.
func TenantWithToken(t testing.TB) gtmgate.Store {
	t.Helper()
	ctx := t.Context()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "gtmgate.db"), &sqlstore.Options{Sealer: NewSealer(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.PutTenant(ctx, &gtmgate.Tenant{ID: "acme", Name: "Acme", Status: gtmgate.TenantActive}); err != nil {
		t.Fatal(err)
	}
	if err := st.CreateTenantToken(ctx, &gtmgate.TenantToken{ID: "tok_1", TenantID: "acme", Hash: secret.HashToken("t1"), Prefix: "t1"}); err != nil {
		t.Fatal(err)
	}
	return st
}
