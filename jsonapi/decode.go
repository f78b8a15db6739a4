package jsonapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/gtmgate/gtmgate"
)

// DefaultMaxBody is the default request body limit (1 MiB).
const DefaultMaxBody = 1 << 20

// ReadBody reads the whole request body up to max bytes; a larger body is a
// PAYLOAD_TOO_LARGE error.
func ReadBody(w http.ResponseWriter, r *http.Request, max int64) ([]byte, error) {
	if max <= 0 {
		max = DefaultMaxBody
	}
	if r.ContentLength > max {
		return nil, tooLarge(max)
	}
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, tooLarge(max)
		}
		return nil, &gtmgate.Error{Code: gtmgate.EValidation, Message: "request body could not be read", Err: err}
	}
	return b, nil
}

func tooLarge(max int64) error {
	return gtmgate.Errorf(gtmgate.EPayloadTooLarge, "request body exceeds %d bytes", max)
}

// Decode reads a JSON body into v: size-limited, unknown fields rejected,
// exactly one JSON value. Errors are VALIDATION_ERROR naming the field or the
// line and column of the syntax error.
func Decode(w http.ResponseWriter, r *http.Request, max int64, v any) error {
	b, err := ReadBody(w, r, max)
	if err != nil {
		return err
	}
	return Unmarshal(b, v)
}

// Unmarshal strictly decodes one JSON value from b into v: unknown fields,
// trailing data, duplicate names and case-variant top-level names are
// VALIDATION_ERRORs.
func Unmarshal(b []byte, v any) error {
	if len(bytes.TrimSpace(b)) == 0 {
		return gtmgate.Errorf(gtmgate.EValidation, "request body is empty: send a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return decodeError(b, err)
	}
	if dec.More() {
		line, col := position(b, dec.InputOffset())
		return gtmgate.Errorf(gtmgate.EValidation, "unexpected data after the JSON value at line %d, column %d", line, col)
	}
	// encoding/json matches names case-insensitively and keeps the last of
	// duplicates; refuse bodies where that could differ from what was meant.
	return CheckMemberNames(b)
}

func decodeError(b []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		line, col := position(b, se.Offset)
		return &gtmgate.Error{Code: gtmgate.EValidation, Message: fmt.Sprintf("malformed JSON at line %d, column %d: %s", line, col, se.Error()), Err: err}
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		line, col := position(b, int64(len(b)))
		return &gtmgate.Error{Code: gtmgate.EValidation, Message: fmt.Sprintf("malformed JSON: unexpected end at line %d, column %d", line, col), Err: err}
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			field = "body"
		}
		return &gtmgate.Error{Code: gtmgate.EValidation, Message: fmt.Sprintf("%s: expected %s, got JSON %s", field, te.Type, te.Value), Err: err}
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.TrimPrefix(err.Error(), "json: unknown field ")
		return &gtmgate.Error{Code: gtmgate.EValidation, Message: "unknown field " + name, Err: err}
	}
	return &gtmgate.Error{Code: gtmgate.EValidation, Message: "invalid JSON: " + err.Error(), Err: err}
}

// position converts a byte offset into a 1-based line and column.
func position(b []byte, off int64) (line, col int) {
	if off > int64(len(b)) {
		off = int64(len(b))
	}
	line, col = 1, 1
	for _, c := range b[:off] {
		if c == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}
