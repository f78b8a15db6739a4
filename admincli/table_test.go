package admincli

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestWriteTableFitsAndKeepsIDs(t *testing.T) {
	long := strings.Repeat("x", 120)
	items := []map[string]any{
		{"id": "apr_0123456789abcdef0123456789", "tenant_id": "a-tenant-with-a-long-name", "message": long, "time": "2026-11-25T09:04:03.045Z"},
		{"id": "apr_1", "tenant_id": "b", "message": "short", "time": nil},
	}
	var b strings.Builder
	writeTable(&b, []column{col("ID", "id"), col("TIME", "time"), col("TENANT", "tenant_id"), col("MESSAGE", "message")}, items)
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "ID") {
		t.Fatalf("table:\n%s", b.String())
	}
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > tableWidth {
			t.Errorf("%d columns: %q", n, l)
		}
	}
	if !strings.Contains(lines[1], "apr_0123456789abcdef0123456789") || !strings.Contains(lines[1], "2026-11-25 09:04") ||
		!strings.HasSuffix(lines[1], "…") {
		t.Errorf("row: %q; want the whole id, the time to the minute and the message cut", lines[1])
	}
}
