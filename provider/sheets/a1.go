package sheets

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/gtmgate/gtmgate"
)

// a1Range is a parsed A1-notation range. Zero columns or rows mean "open":
// A:C has no rows, 2:5 no columns, A2:C runs to the last row.
type a1Range struct {
	Sheet              string // unquoted sheet name, "" for the first sheet
	StartCol, StartRow int
	EndCol, EndRow     int
	// Cells is false for a bare sheet name (the whole sheet).
	Cells bool
}

var (
	cellRef      = regexp.MustCompile(`^([A-Za-z]{1,3})?([1-9][0-9]{0,6})?$`)
	unquotedName = regexp.MustCompile(`^[A-Za-z0-9_]{1,100}$`)
)

// parseA1 parses Sheet1!A1:C10, 'Lead list'!A:C, A1:B2, Sheet1 and similar.
func parseA1(s string) (a1Range, error) {
	var r a1Range
	if s == "" || len(s) > 250 {
		return r, fmt.Errorf("range must be 1 to 250 characters")
	}
	cells := s
	if i := strings.LastIndex(s, "!"); i >= 0 {
		name, err := sheetName(s[:i])
		if err != nil {
			return r, err
		}
		r.Sheet, cells = name, s[i+1:]
		if cells == "" {
			return r, fmt.Errorf("nothing after '!' in %q", s)
		}
	} else if !looksLikeCells(s) {
		name, err := sheetName(s)
		if err != nil {
			return r, err
		}
		r.Sheet = name
		return r, nil
	}
	start, end, hasEnd := strings.Cut(cells, ":")
	var err error
	if r.StartCol, r.StartRow, err = cell(start); err != nil {
		return r, err
	}
	r.EndCol, r.EndRow = r.StartCol, r.StartRow
	if hasEnd {
		if r.EndCol, r.EndRow, err = cell(end); err != nil {
			return r, err
		}
	}
	if !shapeAllowed(kind(r.StartCol, r.StartRow), kind(r.EndCol, r.EndRow), hasEnd) {
		return r, fmt.Errorf("%q is not a range shape Sheets accepts (A1, A1:C10, A:C, 2:5, A2:C)", cells)
	}
	if r.EndCol != 0 && r.EndCol < r.StartCol || r.EndRow != 0 && r.EndRow < r.StartRow {
		return r, fmt.Errorf("range %q ends before it starts", cells)
	}
	r.Cells = true
	return r, nil
}

// kind names a reference's shape: "cell" (A1), "col" (A) or "row" (1).
func kind(col, row int) string {
	switch {
	case col > 0 && row > 0:
		return "cell"
	case col > 0:
		return "col"
	default:
		return "row"
	}
}

func shapeAllowed(start, end string, hasEnd bool) bool {
	if !hasEnd {
		return start == "cell"
	}
	return start == end || start == "cell" && end == "col"
}

func looksLikeCells(s string) bool {
	start, end, _ := strings.Cut(s, ":")
	return cellRef.MatchString(start) && cellRef.MatchString(end) && start != ""
}

// sheetName unquotes 'It”s' names and checks bare ones.
func sheetName(s string) (string, error) {
	if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
		inner := s[1 : len(s)-1]
		if inner == "" || strings.Contains(strings.ReplaceAll(inner, "''", ""), "'") {
			return "", fmt.Errorf("sheet name %s has an unescaped quote (write '' inside quotes)", s)
		}
		return strings.ReplaceAll(inner, "''", "'"), nil
	}
	if !unquotedName.MatchString(s) {
		return "", fmt.Errorf("sheet name %q must be quoted, as in 'Lead list'!A1:C10", s)
	}
	return s, nil
}

// cell parses A1, A, or 1 into a 1-based column and row (0 when absent).
func cell(s string) (col, row int, err error) {
	m := cellRef.FindStringSubmatch(s)
	if m == nil || s == "" {
		return 0, 0, fmt.Errorf("%q is not a cell, column or row reference", s)
	}
	for _, c := range strings.ToUpper(m[1]) {
		col = col*26 + int(c-'A'+1)
	}
	if m[2] != "" {
		row, _ = strconv.Atoi(m[2])
	}
	return col, row, nil
}

// columnName turns 1 into A, 27 into AA.
func columnName(n int) string {
	s := ""
	for n > 0 {
		n--
		s = string(rune('A'+n%26)) + s
		n /= 26
	}
	return s
}

// quoteSheet renders a sheet name for A1 notation.
func quoteSheet(name string) string {
	if unquotedName.MatchString(name) {
		return name
	}
	return "'" + strings.ReplaceAll(name, "'", "''") + "'"
}

// validRange checks an A1 range and returns it path-escaped.
func validRange(s string) (string, error) {
	if _, err := parseA1(s); err != nil {
		return "", gtmgate.Errorf(gtmgate.EValidation, "range: %v", err).
			WithHint("use A1 notation: Sheet1!A1:C10, 'Lead list'!A:C, or a sheet name")
	}
	return url.PathEscape(s), nil
}
