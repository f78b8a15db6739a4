package postgres_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/internal/pgtest"
	"github.com/gtmgate/gtmgate/store/postgres"
	"github.com/gtmgate/gtmgate/store/sqlstore"
	"github.com/gtmgate/gtmgate/store/storetest"
)

// testURL and freshSchema are the shared PostgreSQL test helpers.
var (
	testURL     = pgtest.URL
	freshSchema = pgtest.FreshSchema
)

func openSchema(ctx context.Context, t testing.TB, url, schema string) (*sqlstore.Store, error) {
	return postgres.Open(ctx, url, &sqlstore.Options{Sealer: storetest.NewSealer(t), Schema: schema})
}

// testStore adds the suite's FreshOpener hook to a store.
type testStore struct {
	*sqlstore.Store
	url string
}

// FreshDatabase implements storetest.FreshOpener with a new schema.
func (ts testStore) FreshDatabase(t *testing.T) func(ctx context.Context) (gtmgate.Store, error) {
	schema := freshSchema(t, ts.url)
	return func(ctx context.Context) (gtmgate.Store, error) {
		s, err := openSchema(ctx, t, ts.url, schema)
		if err != nil {
			return nil, err
		}
		return testStore{s, ts.url}, nil
	}
}

func openTest(t testing.TB) *sqlstore.Store {
	t.Helper()
	url := testURL(t)
	s, err := openSchema(context.Background(), t, url, freshSchema(t, url))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() }) // runs before the schema is dropped
	return s
}

func TestStore(t *testing.T) {
	url := testURL(t)
	storetest.Exercise(t, func(t *testing.T) gtmgate.Store { return testStore{openTest(t), url} })
}

func TestOpenBadURL(t *testing.T) {
	_, err := postgres.Open(t.Context(), "postgres://user:hunter2@[bad", &sqlstore.Options{Sealer: storetest.NewSealer(t)})
	if err == nil {
		t.Fatal("bad URL accepted")
	}
	if s := err.Error(); strings.Contains(s, "hunter2") {
		t.Errorf("error reveals the password: %s", s)
	}
}
