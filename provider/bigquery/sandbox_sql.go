package bigquery

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// selectPlan is a query the sandbox can evaluate:
// SELECT cols|* FROM table [WHERE col = value] [LIMIT n].
type selectPlan struct {
	table    *sbTable
	cols     []int
	whereCol int // -1 without WHERE
	whereVal string
	limit    int // -1 without LIMIT
}

var simpleSelect = regexp.MustCompile(`(?is)^\s*SELECT\s+(.+?)\s+FROM\s+(` + "`[^`]+`" + `|[A-Za-z0-9_.-]+)` +
	`(?:\s+WHERE\s+` + "`?" + `([A-Za-z_][A-Za-z0-9_]*)` + "`?" + `\s*=\s*('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|-?[0-9]+(?:\.[0-9]+)?|TRUE|FALSE|@[A-Za-z_][A-Za-z0-9_]*))?` +
	`(?:\s+LIMIT\s+([0-9]+))?\s*;?\s*$`)

var tableMention = regexp.MustCompile(`([A-Za-z0-9_]+)\.([A-Za-z0-9_]+)`)

// sqlError is a query error the sandbox answers with (status, reason, message).
type sqlError struct {
	status  int
	reason  string
	message string
}

func (e *sqlError) Error() string { return e.message }

func invalidQuery(format string, args ...any) *sqlError {
	return &sqlError{400, "invalidQuery", fmt.Sprintf(format, args...)}
}

// statementType classifies a statement the way a dry run reports it.
func statementType(sql string) string {
	toks, err := lex(sql)
	if err != nil || len(toks) == 0 {
		return ""
	}
	for i, t := range toks {
		if t.text == ";" && i != len(toks)-1 {
			return "SCRIPT"
		}
	}
	i := 0
	for i < len(toks)-1 && toks[i].text == "(" {
		i++
	}
	switch kw := strings.ToUpper(toks[i].text); kw {
	case "SELECT", "WITH":
		return "SELECT"
	case "INSERT", "UPDATE", "DELETE", "MERGE":
		return kw
	case "CREATE", "DROP", "ALTER", "TRUNCATE":
		obj := "TABLE"
		for _, t := range toks[i+1:] {
			if u := strings.ToUpper(t.text); u == "VIEW" || u == "SCHEMA" || u == "FUNCTION" || u == "TABLE" {
				obj = u
				break
			}
		}
		return kw + "_" + obj
	case "EXPORT":
		return "EXPORT_DATA"
	case "DECLARE", "SET", "BEGIN", "IF", "LOOP", "WHILE", "FOR", "CALL", "EXECUTE":
		return "SCRIPT"
	}
	return ""
}

// plan parses a simple SELECT; ok is false when the sandbox cannot evaluate it.
func (s *Sandbox) plan(project, sql string, params []queryParameter) (*selectPlan, bool, error) {
	m := simpleSelect.FindStringSubmatch(sql)
	if m == nil {
		return nil, false, nil
	}
	t, err := s.lookupTable(project, strings.Trim(m[2], "`"))
	if err != nil {
		return nil, true, err
	}
	p := &selectPlan{table: t, whereCol: -1, limit: -1}
	if cols := strings.TrimSpace(m[1]); cols == "*" {
		for i := range t.fields {
			p.cols = append(p.cols, i)
		}
	} else {
		for _, c := range strings.Split(cols, ",") {
			i, err := t.column(strings.Trim(strings.TrimSpace(c), "`"), sql)
			if err != nil {
				return nil, true, err
			}
			p.cols = append(p.cols, i)
		}
	}
	if m[3] != "" {
		if p.whereCol, err = t.column(m[3], sql); err != nil {
			return nil, true, err
		}
		if p.whereVal, err = literal(m[4], params); err != nil {
			return nil, true, err
		}
	}
	if m[5] != "" {
		p.limit, _ = strconv.Atoi(m[5])
	}
	return p, true, nil
}

func (s *Sandbox) lookupTable(project, name string) (*sbTable, error) {
	parts := strings.Split(name, ".")
	if len(parts) == 3 {
		if parts[0] != project {
			return nil, &sqlError{403, "accessDenied", "Access Denied: Table " + name + ": the sandbox only holds project " + project}
		}
		parts = parts[1:]
	}
	if len(parts) != 2 {
		return nil, invalidQuery("Table %q must be qualified with a dataset (e.g. dataset.table).", name)
	}
	if project == SandboxProject {
		for _, d := range s.datasets {
			for _, t := range d.tables {
				if d.id == parts[0] && t.id == parts[1] {
					return t, nil
				}
			}
		}
	}
	return nil, &sqlError{404, "notFound", fmt.Sprintf("Not found: Table %s:%s.%s was not found in location US", project, parts[0], parts[1])}
}

func (t *sbTable) column(name, sql string) (int, error) {
	for i, f := range t.fields {
		if strings.EqualFold(f.Name, name) {
			return i, nil
		}
	}
	pos := strings.Index(sql, name) + 1
	return 0, invalidQuery("Unrecognized name: %s at [1:%d]", name, pos)
}

// literal returns a WHERE value as the cell text it must equal.
func literal(v string, params []queryParameter) (string, error) {
	switch {
	case strings.HasPrefix(v, "@"):
		for _, p := range params {
			if p.Name == v[1:] && p.ParameterValue.Value != nil {
				return *p.ParameterValue.Value, nil
			}
		}
		return "", invalidQuery("Query parameter '%s' not found", v[1:])
	case strings.HasPrefix(v, "'") || strings.HasPrefix(v, `"`):
		return strings.NewReplacer(`\'`, `'`, `\"`, `"`, `\\`, `\`).Replace(v[1 : len(v)-1]), nil
	default:
		return strings.ToLower(v), nil
	}
}

// matches compares a cell with the WHERE value, numerically when both are numbers.
func matches(cell any, want string) bool {
	got, ok := cell.(string)
	if !ok {
		return false
	}
	if a, err1 := strconv.ParseFloat(got, 64); err1 == nil {
		if b, err2 := strconv.ParseFloat(want, 64); err2 == nil {
			return a == b
		}
	}
	return got == want
}

// execute evaluates the plan into a schema and f/v rows.
func (p *selectPlan) execute() ([]fieldSchema, []row) {
	var fields []fieldSchema
	for _, i := range p.cols {
		fields = append(fields, p.table.fields[i])
	}
	var rows []row
	for _, r := range p.table.rows {
		if p.limit >= 0 && len(rows) >= p.limit {
			break
		}
		if p.whereCol >= 0 && !matches(fv(p.table.fields[p.whereCol], r[p.whereCol]), p.whereVal) {
			continue
		}
		out := row{}
		for _, i := range p.cols {
			out.F = append(out.F, cell{V: fv(p.table.fields[i], r[i])})
		}
		rows = append(rows, out)
	}
	return fields, rows
}

// bytes estimates how many bytes reading the given columns scans (nil: all).
func (t *sbTable) bytes(cols []int) int64 {
	if cols == nil {
		for i := range t.fields {
			cols = append(cols, i)
		}
	}
	var n int64
	for _, r := range t.rows {
		for _, i := range cols {
			n += size(r[i])
		}
	}
	return n
}

func size(v any) int64 {
	switch x := v.(type) {
	case string:
		return int64(len(x)) + 2
	case bool:
		return 1
	case []any:
		var n int64
		for _, e := range x {
			n += size(e)
		}
		return n
	case nil:
		return 0
	default:
		return 8
	}
}

// fv renders a seeded value as a BigQuery f/v cell value.
func fv(f fieldSchema, v any) any {
	if v == nil {
		return nil
	}
	if f.Mode == "REPEATED" {
		one := f
		one.Mode = "NULLABLE"
		out := []any{}
		for _, e := range v.([]any) {
			out = append(out, map[string]any{"v": fv(one, e)})
		}
		return out
	}
	switch x := v.(type) {
	case []any: // RECORD
		cells := []any{}
		for i, sub := range f.Fields {
			cells = append(cells, map[string]any{"v": fv(sub, x[i])})
		}
		return map[string]any{"f": cells}
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case time.Time:
		return strconv.FormatFloat(float64(x.Unix()), 'E', -1, 64)
	}
	return fmt.Sprint(v)
}
