package postgres_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/store/postgres"
	"github.com/gtmgate/gtmgate/store/sqlstore"
	"github.com/gtmgate/gtmgate/store/storetest"
)

const defaultTestURL = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// testURL returns the database of the tests. Without one reachable the tests
// skip, except in CI (CI=true), where they fail.
func testURL(t testing.TB) string {
	t.Helper()
	url := os.Getenv("GTMGATE_TEST_DATABASE_URL")
	if url == "" {
		url = defaultTestURL
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err == nil {
		conn.Close(ctx)
		return url
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("PostgreSQL not reachable at GTMGATE_TEST_DATABASE_URL: %v", err)
	}
	t.Skipf("PostgreSQL not reachable (set GTMGATE_TEST_DATABASE_URL): %v", err)
	return ""
}

// freshSchema returns a new schema name, dropped when the test ends.
func freshSchema(t testing.TB, url string) string {
	t.Helper()
	b := make([]byte, 8)
	rand.Read(b)
	schema := "gtmgate_test_" + hex.EncodeToString(b)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Errorf("drop schema: %v", err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{schema}.Sanitize()+" CASCADE"); err != nil {
			t.Errorf("drop schema: %v", err)
		}
	})
	return schema
}

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
