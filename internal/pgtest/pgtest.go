// Package pgtest gives tests a PostgreSQL database: the test URL (skipping
// when none is reachable, failing in CI) and fresh schemas dropped at the end.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// DefaultURL is the database the tests use unless GTMGATE_TEST_DATABASE_URL is set.
const DefaultURL = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// URL returns the database of the tests. Without one reachable the test
// skips, except in CI (CI=true), where it fails.
func URL(t testing.TB) string {
	t.Helper()
	url := os.Getenv("GTMGATE_TEST_DATABASE_URL")
	if url == "" {
		url = DefaultURL
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

// FreshSchema returns a new schema name, dropped when the test ends.
func FreshSchema(t testing.TB, url string) string {
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
