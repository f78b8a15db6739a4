package googleads

import (
	"encoding/json"
	"html"
	"net/http"
	"strings"
)

// sbReply answers one sandbox request; it knows the request's API version,
// which Google puts in the @type of its error details.
type sbReply struct {
	w       http.ResponseWriter
	version string
}

// googleError writes Google's error envelope; kind/code/detail, when set,
// become one GoogleAdsFailure error.
func (r sbReply) googleError(status int, statusText, message, kind, code, detail string) {
	e := map[string]any{"code": status, "message": message, "status": statusText}
	if kind != "" {
		e["details"] = []any{map[string]any{
			"@type":     "type.googleapis.com/google.ads.googleads." + r.version + ".errors.GoogleAdsFailure",
			"errors":    []any{map[string]any{"errorCode": map[string]string{kind: code}, "message": detail}},
			"requestId": "sbx-" + strings.ToLower(code),
		}}
	}
	r.json(status, map[string]any{"error": e})
}

// fault answers an injected failure with the error Google sends for that status.
func (r sbReply) fault(status int) {
	switch {
	case status == http.StatusTooManyRequests:
		r.googleError(status, "RESOURCE_EXHAUSTED", "Resource has been exhausted (e.g. check quota).",
			"quotaError", "RESOURCE_EXHAUSTED", "Too many requests. Retry in 30 seconds.")
	case status >= 500:
		r.googleError(status, "INTERNAL", "Internal error encountered.", "internalError", "INTERNAL_ERROR",
			"An internal error has occurred.")
	case status == http.StatusUnauthorized:
		r.googleError(status, "UNAUTHENTICATED", "Request had invalid authentication credentials.",
			"authenticationError", "OAUTH_TOKEN_INVALID", "Oauth token is invalid.")
	default:
		r.googleError(status, "INVALID_ARGUMENT", "Request contains an invalid argument.",
			"fieldError", "INVALID_VALUE", "Injected failure.")
	}
}

func (r sbReply) json(status int, v any) {
	r.w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	r.w.WriteHeader(status)
	_ = json.NewEncoder(r.w).Encode(v)
}

// writeNotFoundPage is Google's front end's answer to a path it does not
// serve, a removed API version's included: an HTML page, no JSON.
func writeNotFoundPage(w http.ResponseWriter, path string) {
	w.Header().Set("Content-Type", "text/html; charset=UTF-8")
	w.WriteHeader(http.StatusNotFound)
	_, _ = w.Write([]byte("<!DOCTYPE html>\n<html lang=en>\n  <meta charset=utf-8>\n  <title>Error 404 (Not Found)!!1</title>\n" +
		"  <p><b>404.</b> <ins>That’s an error.</ins>\n  <p>The requested URL <code>" + html.EscapeString(path) +
		"</code> was not found on this server.  <ins>That’s all we know.</ins>\n"))
}
