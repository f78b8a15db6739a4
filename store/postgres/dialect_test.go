package postgres

import (
	"database/sql"
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/gtmgate/gtmgate"
)

func TestRebind(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"none", "SELECT 1", "SELECT 1"},
		{"several", "a = ? AND b IN (?, ?)", "a = $1 AND b IN ($2, $3)"},
		{"ten", "??????????", "$1$2$3$4$5$6$7$8$9$10"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := (Dialect{}).Rebind(tc.in); got != tc.want {
				t.Errorf("Rebind = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestInterpretError(t *testing.T) {
	other := errors.New("boom")
	for _, tc := range []struct {
		name string
		in   error
		want error
	}{
		{"no rows", fmt.Errorf("x: %w", sql.ErrNoRows), gtmgate.ErrNotFound},
		{"unique", &pgconn.PgError{Code: "23505"}, gtmgate.ErrConflict},
		{"foreign key", &pgconn.PgError{Code: "23503"}, gtmgate.ErrNotFound},
		{"other pg", &pgconn.PgError{Code: "42P01"}, other},
		{"other", other, other},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := (Dialect{}).InterpretError(tc.in)
			if tc.want == other {
				if got != tc.in {
					t.Errorf("got %v, want the error unchanged", got)
				}
				return
			}
			if !errors.Is(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}
