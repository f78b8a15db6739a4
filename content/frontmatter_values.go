package content

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// String returns the scalar value of key ("" when absent or a list).
func (fm FrontMatter) String(key string) string { return fm[key].Str }

// List returns the list value of key; a scalar becomes a one-item list.
func (fm FrontMatter) List(key string) []string {
	v, ok := fm[key]
	switch {
	case !ok:
		return nil
	case v.IsList:
		return v.List
	default:
		return []string{v.Str}
	}
}

// Bool reads key as a boolean: true/false/yes/no; absent is def.
func (fm FrontMatter) Bool(key string, def bool) (bool, error) {
	v, ok := fm[key]
	if !ok {
		return def, nil
	}
	switch strings.ToLower(v.Str) {
	case "true", "yes":
		return true, nil
	case "false", "no":
		return false, nil
	}
	return false, fmt.Errorf("front matter %s: want true or false, got %q", key, v.Str)
}

// Int reads key as an integer; absent is 0.
func (fm FrontMatter) Int(key string) (int, error) {
	v, ok := fm[key]
	if !ok || v.Str == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v.Str)
	if err != nil {
		return 0, fmt.Errorf("front matter %s: want an integer, got %q", key, v.Str)
	}
	return n, nil
}

// Time reads key as a date (2006-01-02) or RFC 3339 timestamp; absent is zero.
func (fm FrontMatter) Time(key string) (time.Time, error) {
	s := fm[key].Str
	if s == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{"2006-01-02", time.RFC3339, "2006-01-02 15:04:05", "2006-01-02T15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("front matter %s: want a date like 2006-01-02, got %q", key, s)
}
