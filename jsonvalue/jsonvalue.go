// Package jsonvalue reads and writes single JSON values as they were
// written: numbers are kept as their text (json.Number), so comparing or
// hashing a value never rounds a large or precise number.
package jsonvalue

import (
	"bytes"
	"encoding/json"
	"errors"
)

// Decode reads exactly one JSON value from b, numbers as json.Number.
func Decode(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, errors.New("more than one JSON value")
	}
	return v, nil
}

// Canonical re-encodes one JSON value with object keys sorted, no
// insignificant space and numbers as written; empty input is null. Two
// spellings of the same value have the same canonical form.
func Canonical(b []byte) ([]byte, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return []byte("null"), nil
	}
	v, err := Decode(b)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil { // maps encode with sorted keys
		return nil, err
	}
	return bytes.TrimRight(out.Bytes(), "\n"), nil
}
