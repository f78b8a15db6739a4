package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/secret"
	"github.com/gtmgate/gtmgate/store/sqlite"
	"github.com/gtmgate/gtmgate/store/sqlstore"
	"github.com/gtmgate/gtmgate/store/storetest"
)

// testStore adds the suite's FreshOpener hook to a store.
type testStore struct {
	*sqlstore.Store
}

// FreshDatabase implements storetest.FreshOpener.
func (testStore) FreshDatabase(t *testing.T) func(ctx context.Context) (gtmgate.Store, error) {
	path := filepath.Join(t.TempDir(), "fresh.db")
	return func(ctx context.Context) (gtmgate.Store, error) {
		s, err := sqlite.Open(ctx, path, &sqlstore.Options{Sealer: storetest.NewSealer(t)})
		if err != nil {
			return nil, err
		}
		return testStore{s}, nil
	}
}

func openTest(t testing.TB) *sqlstore.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "data", "gtmgate.db"),
		&sqlstore.Options{Sealer: storetest.NewSealer(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestStore(t *testing.T) {
	storetest.Exercise(t, func(t *testing.T) gtmgate.Store { return testStore{openTest(t)} })
}

func TestEncryptionKeyCheck(t *testing.T) {
	storetest.ExerciseKeyCheck(t, func(t *testing.T) storetest.KeyOpener {
		path := filepath.Join(t.TempDir(), "keys.db")
		return func(ctx context.Context, sealer *secret.Sealer) (*sqlstore.Store, error) {
			return sqlite.Open(ctx, path, &sqlstore.Options{Sealer: sealer})
		}
	})
}
