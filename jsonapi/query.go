package jsonapi

import (
	"strconv"
	"time"

	"github.com/gtmgate/gtmgate"
)

// QuerySince reads an RFC 3339 query value ("" = no bound).
func QuerySince(v string) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return time.Time{}, gtmgate.Errorf(gtmgate.EValidation, "since %q is not an RFC 3339 time such as 2026-01-02T15:04:05Z", v)
	}
	return t.UTC(), nil
}

// QueryLimit reads a page size within 1..max, def when empty.
func QueryLimit(v string, def, max int) (int, error) {
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > max {
		return 0, gtmgate.Errorf(gtmgate.EValidation, "limit %q must be a whole number from 1 to %d", v, max)
	}
	return n, nil
}
