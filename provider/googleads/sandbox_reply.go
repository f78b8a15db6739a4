package googleads

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"strconv"
	"strings"
	"time"
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
	r.googleFailure(status, statusText, message, kind, code, detail, 0)
}

// googleFailure is googleError whose error may carry a quotaError's
// retryDelay, which Google also sends as a google.rpc.RetryInfo.
func (r sbReply) googleFailure(status int, statusText, message, kind, code, detail string, retryDelay time.Duration) {
	e := map[string]any{"code": status, "message": message, "status": statusText}
	if kind != "" {
		adsErr := map[string]any{"errorCode": map[string]string{kind: code}, "message": detail}
		var details []any
		if retryDelay > 0 {
			delay := protoDuration(retryDelay)
			adsErr["details"] = map[string]any{"quotaErrorDetails": map[string]any{
				"rateScope": "DEVELOPER", "rateName": "Number of operations for basic access", "retryDelay": delay}}
			details = append(details, map[string]any{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": delay})
		}
		e["details"] = append([]any{map[string]any{
			"@type":     "type.googleapis.com/google.ads.googleads." + r.version + ".errors.GoogleAdsFailure",
			"errors":    []any{adsErr},
			"requestId": "sbx-" + strings.ToLower(code),
		}}, details...)
	}
	r.json(status, map[string]any{"error": e})
}

// protoDuration is d in google.protobuf.Duration's JSON form ("30s", "1.5s").
func protoDuration(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s"
}

// sbFault is an injected failure: an HTTP status with Google's error for it,
// a quota error's retry delay, or an authorizationError code (denied).
type sbFault struct {
	status     int
	retryDelay time.Duration
	denied     string
}

// denials are the messages Google documents for the authorizationError
// codes a sandbox can inject (authorization_error.proto's comments).
var denials = map[string]string{
	"DEVELOPER_TOKEN_NOT_APPROVED":              "The developer token is only approved for use with test accounts. To access non-test accounts, apply for Basic or Standard access.",
	"CLOUD_PROJECT_NOT_APPROVED_FOR_PRODUCTION": "The Google Cloud project is only approved for use with test accounts. To access non-test accounts, apply for Explorer, Basic or Standard access.",
	"DEVELOPER_TOKEN_PROHIBITED":                "The developer token is not allowed with the project sent in the request.",
	"USER_PERMISSION_DENIED":                    "User doesn't have permission to access customer.",
}

// fault answers an injected failure with the error Google sends for it.
func (r sbReply) fault(f sbFault) {
	switch status := f.status; {
	case f.denied != "":
		r.googleError(status, "PERMISSION_DENIED", "The caller does not have permission", "authorizationError", f.denied, denials[f.denied])
	case status == http.StatusTooManyRequests && f.retryDelay > 0:
		r.googleFailure(status, "RESOURCE_EXHAUSTED", "Resource has been exhausted (e.g. check quota).",
			"quotaError", "RESOURCE_TEMPORARILY_EXHAUSTED", fmt.Sprintf("Too many requests. Retry in %s seconds.", strings.TrimSuffix(protoDuration(f.retryDelay), "s")), f.retryDelay)
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
