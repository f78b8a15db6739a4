// Package googleapi holds what the Google adapters (ga4, searchconsole, gmail,
// gcalendar, bigquery, sheets, googleads) and their sandboxes share: Google's
// JSON error body and Classify, the reading of its usage limits and retry
// signal, the sandbox's bearer check and fault injection, JSON encoding for
// sandbox handlers, the list result shape every Google tool returns, and the
// tokeninfo endpoint that reports an access token's granted scopes.
//
// Result shape: a list action returns {"items": [...], "next_cursor": "…"},
// next_cursor omitted on the last page; pass it back as cursor for the next.
package googleapi

import (
	"fmt"
	"strconv"

	"github.com/gtmgate/gtmgate"
)

// Page is the result of a list action.
type Page[T any] struct {
	Items      []T    `json:"items"`
	NextCursor string `json:"next_cursor,omitempty"`
}

// NewPage returns a page whose Items is never null in JSON.
func NewPage[T any](items []T, next string) Page[T] {
	if items == nil {
		items = []T{}
	}
	return Page[T]{Items: items, NextCursor: next}
}

// ParseOffset reads an offset cursor (a non-negative decimal row number), as
// the APIs that page by row offset use; an empty cursor is offset 0.
func ParseOffset(cursor string) (int, error) {
	if cursor == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(cursor)
	if err != nil || n < 0 || n > 10_000_000 {
		return 0, gtmgate.Errorf(gtmgate.EValidation, "cursor %q is not a cursor this tool returned", cursor).
			WithHint("pass next_cursor from the previous page unchanged")
	}
	return n, nil
}

// FormatOffset is the cursor of the page starting at row offset.
func FormatOffset(offset int) string { return strconv.Itoa(offset) }

// Unsupported is the VALIDATION_ERROR for a filter operator a tool cannot map.
func Unsupported(tool string, f *gtmgate.Filter, supported string) error {
	return gtmgate.Errorf(gtmgate.EValidation, "%s: filter operator %s is not supported on %q", tool, f.Operator, f.Property).
		WithHint(fmt.Sprintf("use one of %s", supported))
}
