package bigquery

import (
	"testing"

	"github.com/gtmgate/gtmgate"
)

func TestCheckReadOnly(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		sql   string
		allow bool
	}{
		{"plain select", "SELECT * FROM marketing.ad_spend", true},
		{"lower case", "select channel from marketing.ad_spend where cost > 10", true},
		{"with cte", "WITH s AS (SELECT channel, SUM(cost) c FROM marketing.ad_spend GROUP BY 1) SELECT * FROM s", true},
		{"parenthesised union", "(SELECT 1) UNION ALL (SELECT 2)", true},
		{"trailing semicolon", "SELECT 1;", true},
		{"trailing semicolon and comment", "SELECT 1; -- done", true},
		{"leading comments", "-- top\n/* block */ # hash\nSELECT 1", true},
		{"keyword in string", "SELECT 'DROP TABLE x; DELETE FROM y' AS s", true},
		{"keyword in double-quoted string", `SELECT "insert; update" AS s`, true},
		{"keyword in triple-quoted string", "SELECT '''multi\nline DELETE;''' AS s", true},
		{"escaped quote in string", `SELECT 'it\'s; DROP TABLE x' AS s`, true},
		{"raw string", `SELECT r'\d+; DELETE' AS re`, true},
		{"keyword in backticks", "SELECT `delete`, `update` FROM `proj.ds.events`", true},
		{"keyword in comment", "SELECT 1 -- DELETE FROM x\n", true},
		{"unicode whitespace", "SELECT\u00a0channel\u2003FROM\u2028marketing.ad_spend", true},
		{"bom", "\ufeffSELECT 1", true},
		{"identifier containing keyword", "SELECT is_deleted, updated_at, created_by FROM t", true},
		{"stacked drop", "SELECT 1; DROP TABLE x", false},
		{"stacked after comment", "SELECT 1; /* hi */ DELETE FROM x", false},
		{"double semicolon", "SELECT 1;;", false},
		{"semicolon in comment then statement", "SELECT 1 /* ; */; UPDATE t SET a = 1", false},
		{"comment hides start", "/* SELECT */ DELETE FROM t WHERE true", false},
		{"line comment then dml", "-- SELECT\nDELETE FROM t WHERE true", false},
		{"with delete", "WITH x AS (SELECT 1) DELETE FROM t WHERE true", false},
		{"insert select", "INSERT INTO t SELECT * FROM s", false},
		{"lower case update", "update t set a = 1 where true", false},
		{"merge", "MERGE t USING s ON t.id = s.id WHEN MATCHED THEN DELETE", false},
		{"create table as", "CREATE TABLE x AS SELECT 1", false},
		{"create or replace", "create or replace table x as select 1", false},
		{"drop", "DROP TABLE marketing.ad_spend", false},
		{"alter", "ALTER TABLE t ADD COLUMN c INT64", false},
		{"truncate", "TRUNCATE TABLE t", false},
		{"grant", "GRANT `roles/bigquery.dataViewer` ON TABLE t TO 'user:a@b.c'", false},
		{"revoke", "REVOKE `roles/bigquery.dataViewer` ON TABLE t FROM 'user:a@b.c'", false},
		{"export", "EXPORT DATA OPTIONS(uri='gs://b/*.csv', format='CSV') AS SELECT 1", false},
		{"load", "LOAD DATA INTO t FROM FILES(format='CSV', uris=['gs://b/x.csv'])", false},
		{"call", "CALL ds.proc()", false},
		{"execute immediate", "EXECUTE IMMEDIATE 'DROP TABLE t'", false},
		{"select then execute immediate", "SELECT 1; EXECUTE IMMEDIATE 'DROP TABLE t'", false},
		{"declare", "DECLARE x INT64 DEFAULT 1", false},
		{"set", "SET @@dataset_project_id = 'p'", false},
		{"begin", "BEGIN SELECT 1; END", false},
		{"begin transaction", "BEGIN TRANSACTION", false},
		{"dml in subquery position", "SELECT * FROM (DELETE FROM t WHERE true)", false},
		{"unicode space before dml", "SELECT 1;\u2003DROP TABLE x", false},
		{"nbsp inside keyword gap", "DELETE\u00a0FROM t WHERE true", false},
		{"empty", "", false},
		{"only comment", "-- nothing", false},
		{"unterminated string", "SELECT 'abc", false},
		{"unterminated comment", "SELECT 1 /* DELETE", false},
		{"unterminated backtick", "SELECT `a FROM t", false},
		{"string swallowing newline", "SELECT 'a\n'; DROP TABLE t --'", false},
		{"not a query", "EXPLAIN SELECT 1", false},
		{"hash comment then dml", "# SELECT\nUPDATE t SET a=1 WHERE true", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := CheckReadOnly(tc.sql)
			if tc.allow && err != nil {
				t.Errorf("CheckReadOnly(%q) = %v, want allowed", tc.sql, err)
			}
			if !tc.allow && gtmgate.ErrorCode(err) != gtmgate.EValidation {
				t.Errorf("CheckReadOnly(%q) = %v, want VALIDATION_ERROR", tc.sql, err)
			}
		})
	}
}

// FuzzCheckReadOnly checks that an accepted query is a SELECT to the
// sandbox's classifier, and that no statement can be smuggled after it.
func FuzzCheckReadOnly(f *testing.F) {
	for _, s := range []string{"SELECT 1", "WITH a AS (SELECT 1) SELECT * FROM a", "SELECT 'x;y' -- z", "SELECT `a` FROM b /* c */",
		"SELECT r'\\'' AS x", "SELECT '''a'''", "(SELECT 1)", "SELECT 1;", "select \"a\\\"b\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		if CheckReadOnly(sql) != nil {
			return
		}
		if st := statementType(sql); st != "SELECT" {
			t.Fatalf("accepted %q, which classifies as %q", sql, st)
		}
		for _, tail := range []string{"\n; DROP TABLE x", "\n;DELETE FROM t WHERE true"} {
			if CheckReadOnly(sql+tail) == nil {
				t.Fatalf("accepted %q", sql+tail)
			}
		}
	})
}
