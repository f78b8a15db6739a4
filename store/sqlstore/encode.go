package sqlstore

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"time"
)

// Times are stored in UTC to the microsecond (PostgreSQL's precision); every
// time written goes through t() so that what is read back equals it.

// t encodes a time as a query argument.
func (s *Store) t(v time.Time) any {
	return s.d.Time(v.UTC().Truncate(time.Microsecond))
}

// tz encodes a time that is NULL when zero.
func (s *Store) tz(v time.Time) any {
	if v.IsZero() {
		return nil
	}
	return s.t(v)
}

// tp encodes an optional time.
func (s *Store) tp(v *time.Time) any {
	if v == nil {
		return nil
	}
	return s.tz(*v)
}

// timeCol scans a time stored as a timestamp or as integer microseconds
// since the Unix epoch; NULL scans as the zero time.
type timeCol struct{ dst *time.Time }

// Scan implements sql.Scanner.
func (c timeCol) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*c.dst = time.Time{}
	case time.Time:
		*c.dst = v.UTC()
	case int64:
		*c.dst = time.UnixMicro(v).UTC()
	default:
		return fmt.Errorf("scan time: unsupported type %T", src)
	}
	return nil
}

// nullTimeCol scans a nullable time into a *time.Time (nil for NULL).
type nullTimeCol struct{ dst **time.Time }

// Scan implements sql.Scanner.
func (c nullTimeCol) Scan(src any) error {
	if src == nil {
		*c.dst = nil
		return nil
	}
	var t time.Time
	if err := (timeCol{&t}).Scan(src); err != nil {
		return err
	}
	*c.dst = &t
	return nil
}

// jsonArg encodes raw JSON as a query argument; empty is NULL. It is passed as
// text so that PostgreSQL keeps json columns byte for byte.
func jsonArg(raw json.RawMessage) driver.Value {
	if len(raw) == 0 {
		return nil
	}
	return string(raw)
}

// jsonCol scans a nullable JSON column into a json.RawMessage.
type jsonCol struct{ dst *json.RawMessage }

// Scan implements sql.Scanner.
func (c jsonCol) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*c.dst = nil
	case string:
		*c.dst = json.RawMessage(v)
	case []byte:
		*c.dst = json.RawMessage(append([]byte(nil), v...))
	default:
		return fmt.Errorf("scan json: unsupported type %T", src)
	}
	return nil
}

// limit clamps a page size: def when unset, at most max.
func limit(n, def, max int) int {
	if n <= 0 {
		return def
	}
	return min(n, max)
}

// List page sizes.
const (
	defaultLimit = 100
	maxLimit     = 1000
)
