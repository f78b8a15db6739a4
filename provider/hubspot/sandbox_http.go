package hubspot

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
)

// correlations numbers the sandbox's correlation ids, deterministic per process.
var correlations atomic.Int64

func (s *Sandbox) correlationID() string {
	return fmt.Sprintf("5b0c6a1e-0000-4000-8000-%012d", correlations.Add(1))
}

func (s *Sandbox) writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json;charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeError answers with HubSpot's error body.
func (s *Sandbox) writeError(w http.ResponseWriter, status int, category, message string) {
	s.writeJSON(w, status, hsError{Status: "error", Message: message, CorrelationID: s.correlationID(), Category: category})
}

// apiError is a HubSpot error a handler returns for ServeHTTP-style writing.
type apiError struct {
	status   int
	category string
	message  string
	context  map[string][]string
	errors   []hsErrorDetail
}

func (e *apiError) Error() string { return e.message }

func badRequest(format string, args ...any) *apiError {
	return &apiError{status: http.StatusBadRequest, category: "VALIDATION_ERROR", message: fmt.Sprintf(format, args...)}
}

func notFound(objectType, id string) *apiError {
	return &apiError{status: http.StatusNotFound, category: "OBJECT_NOT_FOUND",
		message: fmt.Sprintf("Object not found. objectId are usually numeric. (%s %s)", objectType, id),
		context: map[string][]string{"id": {id}}}
}

func unknownType(name string) *apiError {
	return badRequest("Unable to infer object type from: %s", name)
}

func (s *Sandbox) writeAPIError(w http.ResponseWriter, e *apiError) {
	s.writeJSON(w, e.status, hsError{Status: "error", Message: e.message, CorrelationID: s.correlationID(),
		Category: e.category, Context: e.context, Errors: e.errors})
}

// decodeBody reads a JSON request body as HubSpot does, rejecting malformed JSON.
func decodeBody(r *http.Request, v any) *apiError {
	data, err := io.ReadAll(io.LimitReader(r.Body, 4<<20))
	if err != nil {
		return badRequest("Could not read request body")
	}
	if err := json.Unmarshal(data, v); err != nil {
		return badRequest("Invalid input JSON on line 1: %v", err)
	}
	return nil
}

func jsonString(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}
