package sheets

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// Grid size of every sandbox sheet, used to close open ranges.
const (
	gridCols = 26
	gridRows = 1000
)

// bounds is a resolved rectangle, 1-based and inclusive.
type bounds struct{ c1, r1, c2, r2 int }

func (b bounds) a1(sheetName string) string {
	return fmt.Sprintf("%s!%s%d:%s%d", quoteSheet(sheetName), columnName(b.c1), b.r1, columnName(b.c2), b.r2)
}

// resolve finds the range's sheet and closes its open ends on the grid, or
// writes Sheets' 400 "Unable to parse range".
func (s *Sandbox) resolve(w http.ResponseWriter, r *http.Request, raw string) (*sheet, bounds, bool) {
	if r.PathValue("id") != SandboxSpreadsheetID {
		googleError(w, http.StatusNotFound, "notFound", "Requested entity was not found.")
		return nil, bounds{}, false
	}
	rng, err := parseA1(raw)
	var sh *sheet
	if err == nil {
		sh = s.sheets[0]
		if rng.Sheet != "" {
			sh = nil
			for _, x := range s.sheets {
				if x.name == rng.Sheet {
					sh = x
				}
			}
		}
	}
	if sh == nil {
		googleError(w, http.StatusBadRequest, "badRequest", "Unable to parse range: "+raw)
		return nil, bounds{}, false
	}
	b := bounds{1, 1, gridCols, gridRows}
	if rng.Cells {
		b = bounds{max(rng.StartCol, 1), max(rng.StartRow, 1), rng.EndCol, rng.EndRow}
		if b.c2 == 0 {
			b.c2 = gridCols
		}
		if b.r2 == 0 {
			b.r2 = gridRows
		}
	}
	return sh, b, true
}

func (s *Sandbox) get(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sh, b, ok := s.resolve(w, r, r.PathValue("range"))
	if !ok {
		return
	}
	render := r.URL.Query().Get("valueRenderOption")
	var out [][]any
	for ri := b.r1; ri <= b.r2 && ri <= len(sh.rows); ri++ {
		row := sh.rows[ri-1]
		var cells []any
		for ci := b.c1; ci <= b.c2 && ci <= len(row); ci++ {
			cells = append(cells, renderCell(row[ci-1], render))
		}
		for len(cells) > 0 && cells[len(cells)-1] == "" {
			cells = cells[:len(cells)-1]
		}
		out = append(out, cells)
	}
	for len(out) > 0 && len(out[len(out)-1]) == 0 {
		out = out[:len(out)-1]
	}
	major := r.URL.Query().Get("majorDimension")
	if major == "" {
		major = "ROWS"
	}
	if major == "COLUMNS" {
		out = transpose(out)
	}
	body := map[string]any{"range": b.a1(sh.name), "majorDimension": major}
	if len(out) > 0 {
		body["values"] = out
	}
	writeJSON(w, http.StatusOK, body)
}

func (s *Sandbox) append(w http.ResponseWriter, r *http.Request) {
	raw, ok := strings.CutSuffix(r.PathValue("range"), ":append")
	if !ok {
		googleError(w, http.StatusNotFound, "notFound", "Requested entity was not found.")
		return
	}
	opt := r.URL.Query().Get("valueInputOption")
	if opt != "USER_ENTERED" && opt != "RAW" {
		googleError(w, http.StatusBadRequest, "badRequest", "'valueInputOption' is required but not specified")
		return
	}
	var body struct {
		Values [][]any `json:"values"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		googleError(w, http.StatusBadRequest, "badRequest", "Invalid JSON payload received.")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sh, b, ok := s.resolve(w, r, raw)
	if !ok {
		return
	}
	last, width := 0, 0
	for i, row := range sh.rows {
		if len(row) > 0 {
			last, width = i+1, max(width, len(row))
		}
	}
	start := last + 1
	sh.rows = sh.rows[:last] // INSERT_ROWS: new rows go right below the table
	cols := 0
	for _, vals := range body.Values {
		row := make([]any, b.c1-1, b.c1-1+len(vals))
		for i := range row {
			row[i] = ""
		}
		for _, v := range vals {
			row = append(row, enter(v, opt))
		}
		cols = max(cols, len(vals))
		sh.rows = append(sh.rows, row)
	}
	resp := map[string]any{"spreadsheetId": SandboxSpreadsheetID, "updates": map[string]any{
		"spreadsheetId": SandboxSpreadsheetID, "updatedRange": bounds{b.c1, start, b.c1 + max(cols, 1) - 1, start + len(body.Values) - 1}.a1(sh.name),
		"updatedRows": len(body.Values), "updatedColumns": cols, "updatedCells": cells(body.Values),
	}}
	if last > 0 {
		resp["tableRange"] = bounds{1, 1, width, last}.a1(sh.name)
	}
	writeJSON(w, http.StatusOK, resp)
}

func cells(v [][]any) int {
	n := 0
	for _, r := range v {
		n += len(r)
	}
	return n
}

// enter stores a value as Sheets would: USER_ENTERED parses numbers and booleans.
func enter(v any, opt string) any {
	s, ok := v.(string)
	switch {
	case v == nil:
		return ""
	case !ok || opt == "RAW":
		return v
	case strings.EqualFold(s, "TRUE") || strings.EqualFold(s, "FALSE"):
		return strings.EqualFold(s, "TRUE")
	}
	if f, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64); err == nil {
		return f
	}
	return s
}

// renderCell renders a stored value for valueRenderOption.
func renderCell(v any, option string) any {
	if option == "UNFORMATTED_VALUE" || option == "FORMULA" {
		return v
	}
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strings.ToUpper(strconv.FormatBool(x))
	}
	return v
}

func transpose(rows [][]any) [][]any {
	width := 0
	for _, r := range rows {
		width = max(width, len(r))
	}
	out := make([][]any, width)
	for c := range out {
		for ri, r := range rows {
			if c < len(r) {
				for len(out[c]) < ri {
					out[c] = append(out[c], "")
				}
				out[c] = append(out[c], r[c])
			}
		}
	}
	return out
}
