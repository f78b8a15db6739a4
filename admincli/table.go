package admincli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"
)

// tableWidth is the terminal width tables fit.
const tableWidth = 80

// column is one table column: a header and the item field it shows, at a
// fixed width when width is set (so lines printed apart still align).
type column struct {
	header, field string
	width         int
}

// keeps reports a column that is never cut: an id or a time.
func (c column) keeps() bool {
	return c.field == "id" || c.field == "time" || strings.HasSuffix(c.field, "_at")
}

// col is a column as wide as its cells (within the line).
func col(header, field string) column { return column{header: header, field: field} }

// writeTable prints items (JSON objects) as aligned columns that fit
// tableWidth: columns start as wide as their widest cell (or their fixed
// width) and, while the line is too long, the widest column that may shrink
// loses a character; ids and times never shrink (commands take ids). Cut cells
// end in "…".
func writeTable(w io.Writer, cols []column, items []map[string]any) {
	rows := make([][]string, len(items)+1)
	rows[0] = make([]string, len(cols))
	for i, c := range cols {
		rows[0][i] = c.header
	}
	for r, it := range items {
		rows[r+1] = make([]string, len(cols))
		for i, c := range cols {
			rows[r+1][i] = cell(it[c.field])
		}
	}
	widths := make([]int, len(cols))
	for _, row := range rows {
		for i, v := range row {
			widths[i] = max(widths[i], utf8.RuneCountInString(v))
		}
	}
	total := 2 * (len(cols) - 1)
	for i, c := range cols {
		if c.width > 0 {
			widths[i] = c.width
		}
		total += widths[i]
	}
	for total > tableWidth {
		widest := -1
		for i, c := range cols {
			if c.width == 0 && !c.keeps() && widths[i] > max(len(c.header), 4) && (widest < 0 || widths[i] > widths[widest]) {
				widest = i
			}
		}
		if widest < 0 {
			break
		}
		widths[widest]--
		total--
	}
	for _, row := range rows {
		var b strings.Builder
		for i, v := range row {
			v = fit(v, widths[i])
			b.WriteString(v)
			if i < len(row)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(v)+2))
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// fit shortens s to n runes, ending in "…" when cut.
func fit(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// cell renders one JSON value on one line: times to the second, objects as
// compact JSON.
func cell(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		if t, err := time.Parse(time.RFC3339Nano, x); err == nil {
			return t.UTC().Format("2006-01-02 15:04")
		}
		return strings.Join(strings.Fields(x), " ")
	case float64:
		return fmt.Sprint(x)
	case bool:
		return fmt.Sprint(x)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
