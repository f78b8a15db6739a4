package linkedinads

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Rest.li 2.0 query encoding. A value is a leaf (percent-encoded text), a
// List(v,v…) or a record (k:v,k:v…). Escape is the only way text enters a
// value, so caller input can never add structure.

// Escape percent-encodes a leaf: every byte outside A–Z a–z 0–9 - . _ ~,
// which includes Rest.li's reserved ( ) , : ' and URL syntax (& = + % #).
func Escape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// List renders List(v1,v2…) from already encoded values.
func List(encoded ...string) string { return "List(" + strings.Join(encoded, ",") + ")" }

// Field is one key:value of a record; V is already encoded.
type Field struct{ K, V string }

// Record renders (k1:v1,k2:v2…); keys are escaped, values are already encoded.
func Record(fields ...Field) string {
	parts := make([]string, len(fields))
	for i, f := range fields {
		parts[i] = Escape(f.K) + ":" + f.V
	}
	return "(" + strings.Join(parts, ",") + ")"
}

// Date renders a date as (year:Y,month:M,day:D).
func Date(t time.Time) string {
	return Record(Field{"year", strconv.Itoa(t.Year())}, Field{"month", strconv.Itoa(int(t.Month()))}, Field{"day", strconv.Itoa(t.Day())})
}

// URNList renders List(urn%3Ali%3A<kind>%3A<id>…).
func URNList(kind string, ids ...string) string {
	enc := make([]string, len(ids))
	for i, id := range ids {
		enc[i] = Escape("urn:li:" + kind + ":" + id)
	}
	return List(enc...)
}

// Query joins name=value pairs whose values are already encoded.
func Query(pairs ...[2]string) string {
	parts := make([]string, len(pairs))
	for i, p := range pairs {
		parts[i] = Escape(p[0]) + "=" + p[1]
	}
	return strings.Join(parts, "&")
}
