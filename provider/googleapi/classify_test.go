package googleapi

import (
	"net/http"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// TestClassify reads Google's error bodies as its pages show them: the
// legacy errors[].reason of Gmail's "Resolve errors"
// (developers.google.com/workspace/gmail/api/guides/handle-errors), Calendar's
// "Handle API errors" (…/calendar/api/guides/errors) and BigQuery's
// "Troubleshoot quota and limit errors"
// (cloud.google.com/bigquery/docs/troubleshoot-quotas), read 2026-11; the
// google.rpc.ErrorInfo reasons of google/api/error_reason.proto and the
// google.rpc.RetryInfo of google/rpc/error_details.proto (googleapis/googleapis
// at f8291d2b89f0017ab078a4c7378069bae5686f6f).
func TestClassify(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		status    int
		body      string
		code      string
		retry     bool
		refresh   bool
		after     time.Duration
		hint      string
		unchanged bool
	}{
		{name: "Gmail per-user rate limit", status: 403,
			body: `{"error":{"errors":[{"domain":"usageLimits","reason":"userRateLimitExceeded","message":"User Rate Limit Exceeded"}],"code":403,"message":"User Rate Limit Exceeded"}}`,
			code: gtmgate.ERateLimited, retry: true, hint: HintRateLimit},
		{name: "Gmail per-project rate limit", status: 403,
			body: `{"error":{"errors":[{"domain":"usageLimits","reason":"rateLimitExceeded","message":"Rate Limit Exceeded"}],"code":403,"message":"Rate Limit Exceeded"}}`,
			code: gtmgate.ERateLimited, retry: true, hint: HintRateLimit},
		{name: "Gmail daily limit", status: 403,
			body: `{"error":{"errors":[{"domain":"usageLimits","reason":"dailyLimitExceeded","message":"Daily Limit Exceeded"}],"code":403,"message":"Daily Limit Exceeded"}}`,
			code: gtmgate.ERateLimited, hint: HintQuota},
		{name: "Calendar usage limits", status: 403,
			body: `{"error":{"errors":[{"domain":"usageLimits","reason":"quotaExceeded","message":"Calendar usage limits exceeded."}],"code":403,"message":"Calendar usage limits exceeded."}}`,
			code: gtmgate.ERateLimited, hint: HintQuota},
		{name: "BigQuery quota", status: 403,
			body: `{"error":{"code":403,"errors":[{"domain":"global","message":"Quota exceeded: ...","reason":"quotaExceeded"}],"message":"Quota exceeded: ..."}}`,
			code: gtmgate.ERateLimited, hint: HintQuota},
		{name: "ErrorInfo rate limit with RetryInfo", status: 429,
			body: `{"error":{"code":429,"message":"Quota exceeded for quota metric 'Requests' and limit 'Requests per minute per user'.","status":"RESOURCE_EXHAUSTED",` +
				`"details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"RATE_LIMIT_EXCEEDED","domain":"googleapis.com","metadata":{"quota_limit":"RequestsPerMinutePerUser"}},` +
				`{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"1.500s"}]}}`,
			code: gtmgate.ERateLimited, retry: true, after: 1500 * time.Millisecond, hint: HintRateLimit},
		{name: "ErrorInfo resource quota", status: 403,
			body: `{"error":{"code":403,"message":"Quota exhausted.","status":"PERMISSION_DENIED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"RESOURCE_QUOTA_EXCEEDED","domain":"googleapis.com"}]}}`,
			code: gtmgate.ERateLimited, hint: HintQuota},
		{name: "RetryInfo alone is the wait of a 503", status: 503,
			body: `{"error":{"code":503,"message":"The service is currently unavailable.","status":"UNAVAILABLE","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"2s"}]}}`,
			code: gtmgate.EUpstream, retry: true, after: 2 * time.Second},
		{name: "missing scope stays a refused token", status: 403,
			body: `{"error":{"code":403,"message":"Request had insufficient authentication scopes.","errors":[{"message":"Insufficient Permission","domain":"global","reason":"insufficientPermissions"}],"status":"PERMISSION_DENIED",` +
				`"details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"ACCESS_TOKEN_SCOPE_INSUFFICIENT","domain":"googleapis.com"}]}}`,
			unchanged: true},
		{name: "API not enabled for the project", status: 403,
			body: `{"error":{"code":403,"message":"Gmail API has not been used in project 123 before or it is disabled.","errors":[{"message":"Gmail API has not been used in project 123 before or it is disabled.","domain":"usageLimits","reason":"accessNotConfigured"}],"status":"PERMISSION_DENIED",` +
				`"details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"SERVICE_DISABLED","domain":"googleapis.com","metadata":{"service":"gmail.googleapis.com"}}]}}`,
			code: gtmgate.EUpstream, hint: HintCloudProject},
		{name: "a 403 about the request, not the token", status: 403,
			body: `{"error":{"errors":[{"domain":"calendar","reason":"forbiddenForNonOrganizer","message":"Shared properties can only be changed by the organizer of the event."}],"code":403,"message":"Shared properties can only be changed by the organizer of the event."}}`,
			code: gtmgate.EUpstream},
		{name: "BigQuery access denied stays a permission refusal", status: 403,
			body:      `{"error":{"code":403,"message":"Access Denied: Project acme: User does not have bigquery.jobs.create permission in project acme.","errors":[{"message":"Access Denied","domain":"global","reason":"accessDenied"}],"status":"PERMISSION_DENIED"}}`,
			unchanged: true},
		{name: "expired token stays a refresh", status: 401,
			body:      `{"error":{"code":401,"message":"Request had invalid authentication credentials.","errors":[{"message":"Invalid Credentials","domain":"global","reason":"authError"}],"status":"UNAUTHENTICATED"}}`,
			unchanged: true},
		{name: "HTML page", status: 403, body: `<html>403 Forbidden</html>`, unchanged: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			resp := &upstream.Response{Status: tt.status, Header: http.Header{}, Body: []byte(tt.body)}
			status := upstream.StatusFailure(resp)
			got := Classify(resp, status)
			if tt.unchanged {
				if got != status {
					t.Errorf("Classify = %+v, want the status reading %+v", got, status)
				}
				return
			}
			want := upstream.Failure{Code: tt.code, Retry: tt.retry, Refresh: tt.refresh, RetryAfter: tt.after, Hint: tt.hint}
			if got != want {
				t.Errorf("Classify = %+v,\nwant %+v", got, want)
			}
		})
	}
}

func TestParseDuration(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"30s", 30 * time.Second, true},
		{"0.100s", 100 * time.Millisecond, true},
		{"1.000340012s", 1000340012 * time.Nanosecond, true},
		{"-1s", 0, false},
		{"1m", 0, false},
		{"", 0, false},
		{"s", 0, false},
	}
	for _, tt := range tests {
		if got, ok := ParseDuration(tt.in); got != tt.want || ok != tt.ok {
			t.Errorf("ParseDuration(%q) = %v %v, want %v %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func FuzzClassify(f *testing.F) {
	f.Add(403, `{"error":{"errors":[{"reason":"rateLimitExceeded"}],"details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"3s"}]}}`)
	f.Add(429, `{"error":{"details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"-5s"}]}}`)
	f.Fuzz(func(t *testing.T, status int, body string) {
		resp := &upstream.Response{Status: status, Header: http.Header{}, Body: []byte(body)}
		if f := Classify(resp, upstream.StatusFailure(resp)); f.RetryAfter < 0 {
			t.Fatalf("negative wait %v", f.RetryAfter)
		}
	})
}
