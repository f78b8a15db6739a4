package postgres_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/internal/pgtest"
	"github.com/gtmgate/gtmgate/secret"
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

// TestSearchPathInURL: a search_path in DATABASE_URL puts every table, the
// migrations table included, in its schema, and a second open finds them
// there (no migration runs twice).
func TestSearchPathInURL(t *testing.T) {
	base := testURL(t)
	schema := freshSchema(t, base)
	url := base + "&search_path=" + schema
	for range 2 {
		s, err := postgres.Open(t.Context(), url, &sqlstore.Options{Sealer: storetest.NewSealer(t)})
		if err != nil {
			t.Fatal(err)
		}
		var inSchema, migrations int
		if err := s.RawQueryRow(t.Context(), `SELECT count(*) FROM information_schema.tables WHERE table_schema = ?`, schema).Scan(&inSchema); err != nil {
			t.Fatal(err)
		}
		if err := s.RawQueryRow(t.Context(), `SELECT count(*) FROM information_schema.tables
			WHERE table_schema = ? AND table_name = 'schema_migrations'`, schema).Scan(&migrations); err != nil {
			t.Fatal(err)
		}
		if inSchema < 10 || migrations != 1 {
			t.Errorf("schema %s holds %d tables (schema_migrations: %d), want every table", schema, inSchema, migrations)
		}
		if _, err := s.ListTenants(t.Context()); err != nil {
			t.Errorf("ListTenants: %v", err)
		}
		s.Close()
	}
}

func TestSearchPathSchema(t *testing.T) {
	for in, want := range map[string]string{
		"":                  "public",
		"$user, public":     "public",
		`"$user", tenant_a`: "tenant_a",
		"Gtm, public":       "gtm",
		`"Mixed""Case", x`:  `Mixed"Case`,
		" , analytics":      "analytics",
	} {
		if got := postgres.SearchPathSchema(in); got != want {
			t.Errorf("SearchPathSchema(%q) = %q, want %q", in, got, want)
		}
	}
}

// openWithConn opens a store in a fresh schema and a plain connection to
// the same schema, for writing rows the store would not write.
func openWithConn(t *testing.T) (*sqlstore.Store, *pgx.Conn) {
	t.Helper()
	url := testURL(t)
	schema := freshSchema(t, url)
	s, err := openSchema(t.Context(), t, url, schema)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	conn, err := pgx.Connect(t.Context(), url+"&search_path="+schema)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return s, conn
}

// TestFollowAuditLateCommit: an entry whose transaction took its id first
// but commits last is not skipped. While it is open, the follower sees
// nothing past it; once it commits, both come, in commit order.
func TestFollowAuditLateCommit(t *testing.T) {
	ctx := t.Context()
	s, conn := openWithConn(t)
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `INSERT INTO audit_log (time, tenant_id, action, source, key_id, outcome, status, error_code,
		duration_ms, request_id, detail, trace_id, parent_request_id) VALUES (now(), 'acme', 'a', 'rest', 'k', 'ok', 200, '', 1, 'late', '', '', '')`); err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.WriteCalls(ctx, []gtmgate.AuditEntry{{Time: time.Now(), TenantID: "acme", Action: "a", Source: "rest", Outcome: "ok", Status: 200, RequestID: "early"}}, nil))
	follow := func(cursor string) ([]string, string) {
		t.Helper()
		page, next, err := s.FollowAudit(ctx, gtmgate.AuditFilter{}, cursor)
		must(err)
		var ids []string
		for _, e := range page {
			ids = append(ids, e.RequestID)
		}
		return ids, next
	}
	ids, cursor := follow("")
	if len(ids) != 0 {
		t.Fatalf("while the late transaction is open the follower got %v, which would skip it", ids)
	}
	must(tx.Commit(ctx))
	// Other tests' transactions in the same database may hold the follow
	// back a moment longer; the deadline only bounds a failure.
	ids = nil
	for deadline := time.Now().Add(30 * time.Second); len(ids) < 2 && time.Now().Before(deadline); {
		var page []string
		page, cursor = follow(cursor)
		ids = append(ids, page...)
		if len(page) == 0 {
			time.Sleep(5 * time.Millisecond)
		}
	}
	if strings.Join(ids, ",") != "late,early" {
		t.Errorf("after the late commit the follower got %v, want late then early", ids)
	}
}

// TestFollowAuditKeysOrderAsNumbers: transaction ids that cross a power of
// ten (9, 10) follow in numeric order. Sorting the keys as text put 10 before
// 9, so a follower skipped some entries and saw others twice.
func TestFollowAuditKeysOrderAsNumbers(t *testing.T) {
	ctx := t.Context()
	s, conn := openWithConn(t)
	// Ids this low ended long ago on any cluster, so all four are visible.
	want := []string{"8", "9", "10", "11"}
	for _, x := range []string{"10", "8", "11", "9"} {
		if _, err := conn.Exec(ctx, `INSERT INTO audit_log (time, tenant_id, action, source, key_id, outcome, status, error_code,
			duration_ms, request_id, detail, trace_id, parent_request_id, xact)
			VALUES (now(), 'acme', 'a', 'rest', 'k', 'ok', 200, '', 1, $1, '', '', '', CAST($2 AS xid8))`, x, x); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	cursor := ""
	for range 2 * len(want) {
		page, next, err := s.FollowAudit(ctx, gtmgate.AuditFilter{Limit: 1}, cursor)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range page {
			got = append(got, e.RequestID)
		}
		cursor = next
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("followed %v, want %v", got, want)
	}
}

func TestEncryptionKeyCheck(t *testing.T) {
	url := testURL(t)
	storetest.ExerciseKeyCheck(t, func(t *testing.T) storetest.KeyOpener {
		schema := freshSchema(t, url)
		return func(ctx context.Context, sealer *secret.Sealer) (*sqlstore.Store, error) {
			return postgres.Open(ctx, url, &sqlstore.Options{Sealer: sealer, Schema: schema})
		}
	})
}
