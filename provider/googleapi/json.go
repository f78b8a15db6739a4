package googleapi

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// maxRequestBody bounds a sandbox request body.
const maxRequestBody = 10 << 20

// WriteJSON writes v as JSON with the given status.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

// DecodeJSON reads a request body into v the way Google's front end does:
// unknown fields are an error. On failure it writes the 400 and returns false.
func DecodeJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(io.LimitReader(r.Body, maxRequestBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		WriteError(w, http.StatusBadRequest, fmt.Sprintf("Invalid JSON payload received. %v", err))
		return false
	}
	return true
}
