package sqlstore

import (
	"context"
	"strings"
)

// conditions collects a WHERE clause's terms and their arguments.
type conditions struct {
	terms []string
	args  []any
}

// add appends a term with its arguments.
func (c *conditions) add(term string, args ...any) {
	c.terms = append(c.terms, term)
	c.args = append(c.args, args...)
}

// eq adds col = v when v is set.
func (c *conditions) eq(col, v string) {
	if v != "" {
		c.add(col+" = ?", v)
	}
}

// where is the clause, "" when there is no term.
func (c *conditions) where() string {
	if len(c.terms) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(c.terms, " AND ")
}

// listRows runs a listing query on the read pool and scans every row; the
// result is never nil, so an empty listing encodes as [].
func listRows[T any](ctx context.Context, s *Store, op, query string, args []any, scan func(scanner) (T, error)) ([]T, error) {
	rows, err := s.read.QueryContext(ctx, s.q(query), args...)
	if err != nil {
		return nil, s.fail(op, err)
	}
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, s.fail(op, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail(op, err)
	}
	return out, nil
}
