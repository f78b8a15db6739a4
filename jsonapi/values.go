package jsonapi

import "fmt"

// Printable reports whether s is visible ASCII only: no space, control
// character or non-ASCII byte, as names, ids and scope tokens the admin
// API takes must be.
func Printable(s string) bool {
	for _, c := range []byte(s) {
		if c <= ' ' || c > '~' {
			return false
		}
	}
	return true
}

// Quote quotes a value a client sent for an error message, shortened when
// long, so a message never carries a whole body back.
func Quote(s string) string {
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	return fmt.Sprintf("%q", s)
}
