package brave

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate/provider/apispec"
)

func faultCode(status int) string {
	switch status {
	case http.StatusTooManyRequests:
		return "RATE_LIMITED"
	case http.StatusUnauthorized:
		return "SUBSCRIPTION_TOKEN_INVALID"
	case http.StatusUnprocessableEntity, http.StatusBadRequest:
		return "VALIDATION"
	default:
		return "INTERNAL_SERVER_ERROR"
	}
}

// fieldError is one entry of a 422 answer's meta.errors, as Brave's request
// validation reports it.
type fieldError struct {
	Type  string   `json:"type"`
	Loc   []string `json:"loc"`
	Msg   string   `json:"msg"`
	Input string   `json:"input"`
}

// requestWriter carries the request to refuse: the enforcer hands its
// refusal the writer only, and Brave's 422 names each parameter's input.
type requestWriter struct {
	http.ResponseWriter
	r *http.Request
}

// refuse answers a request the spec does not allow the way Brave does: a
// path it does not serve is 404 RESOURCE_NOT_FOUND, anything else 422
// VALIDATION with one meta.errors entry per parameter at fault.
func refuse(w http.ResponseWriter, status int, message string) {
	if status == http.StatusNotFound || status == http.StatusMethodNotAllowed {
		writeError(w, http.StatusNotFound, "RESOURCE_NOT_FOUND", "Resource not found.")
		return
	}
	var errs []fieldError
	if rw, ok := w.(*requestWriter); ok {
		errs = fieldErrors(rw.r, message)
	}
	if len(errs) == 0 {
		errs = []fieldError{{Type: "value_error", Loc: []string{"query"}, Msg: message}}
	}
	writeErrorMeta(w, http.StatusUnprocessableEntity, "VALIDATION", "Unable to validate request parameter(s)",
		map[string]any{"errors": errs})
}

// fieldErrors lists Brave's report of each parameter of r the enforcer's
// message names (it names each as `query parameter "count": …`).
func fieldErrors(r *http.Request, message string) []fieldError {
	op, _, _ := braveSpec.Find(r.Method, r.URL.EscapedPath())
	if op == nil {
		return nil
	}
	named := func(in, name string) bool {
		return strings.Contains(message, fmt.Sprintf("%s parameter %q: ", in, name))
	}
	query := r.URL.Query()
	var errs []fieldError
	for _, p := range append(slices.Clone(braveSpec.Headers), op.Params...) {
		if !named(p.In, p.Name) {
			continue
		}
		values := query[p.Name]
		if p.In == "header" {
			values = r.Header.Values(p.Name)
		}
		errs = append(errs, paramError(p, values))
	}
	for _, k := range slices.Sorted(maps.Keys(query)) {
		if named("query", k) && !slices.ContainsFunc(op.Params, func(p apispec.Param) bool { return p.Name == k }) {
			errs = append(errs, fieldError{Type: "extra_forbidden", Loc: []string{"query", k}, Msg: "Extra inputs are not permitted", Input: query.Get(k)})
		}
	}
	return errs
}

// paramError is Brave's report of one parameter's values.
func paramError(p apispec.Param, values []string) fieldError {
	loc := []string{p.In, p.Name}
	switch {
	case len(values) == 0:
		return fieldError{Type: "missing", Loc: loc, Msg: "Field required"}
	case len(p.Enum) > 0 && !slices.Contains(p.Enum, values[0]):
		return notInEnum(p, values[0])
	}
	return fieldError{Type: "value_error", Loc: loc, Msg: "invalid value", Input: values[0]}
}

// notInEnum is Brave's report of a value outside a parameter's enum:
// "Input should be 'AR', 'AU', … or 'US'".
func notInEnum(p apispec.Param, input string) fieldError {
	quoted := make([]string, len(p.Enum))
	for i, a := range p.Enum {
		quoted[i] = "'" + a + "'"
	}
	msg := "Input should be " + strings.Join(quoted[:len(quoted)-1], ", ") + " or " + quoted[len(quoted)-1]
	return fieldError{Type: "enum", Loc: []string{p.In, p.Name}, Msg: msg, Input: input}
}

func writeError(w http.ResponseWriter, status int, code, detail string) {
	meta := map[string]any{}
	if status == http.StatusTooManyRequests {
		meta = map[string]any{"plan": "Free", "rate_limit": 1, "rate_current": 2, "quota_limit": 2000, "quota_current": 12}
	}
	writeErrorMeta(w, status, code, detail, meta)
}

// writeErrorMeta writes Brave's ErrorResponse body.
func writeErrorMeta(w http.ResponseWriter, status int, code, detail string, meta map[string]any) {
	writeJSON(w, status, map[string]any{"type": "ErrorResponse", "time": time.Now().Unix(),
		"error": map[string]any{"id": fmt.Sprintf("sbx-%d", time.Now().UnixNano()), "status": status, "code": code, "detail": detail, "meta": meta}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
