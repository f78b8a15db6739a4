package googleads

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// adsFailure is a Google Ads error body: a google.rpc.Status whose details
// hold a GoogleAdsFailure with one error (errors.proto, googleapis/googleapis
// at f8291d2b89f0017ab078a4c7378069bae5686f6f), then extra details.
func adsFailure(status int, statusText, errorCode, errorDetails string, extra ...string) string {
	e := `{"errorCode":` + errorCode + `,"message":"m"`
	if errorDetails != "" {
		e += `,"details":` + errorDetails
	}
	e += `}`
	details := `{"@type":"type.googleapis.com/google.ads.googleads.v25.errors.GoogleAdsFailure","errors":[` + e + `],"requestId":"r1"}`
	for _, x := range extra {
		details += "," + x
	}
	return `{"error":{"code":` + strconv.Itoa(status) + `,"message":"x","status":"` + statusText + `","details":[` + details + `]}}`
}

func TestClassify(t *testing.T) {
	t.Parallel()
	quota := `{"quotaError":"RESOURCE_TEMPORARILY_EXHAUSTED"}`
	tests := []struct {
		name    string
		status  int
		body    string
		code    string
		after   time.Duration
		retry   bool
		refresh bool
		hint    string // a substring
	}{
		{name: "quotaErrorDetails.retryDelay", status: 429,
			body: adsFailure(429, "RESOURCE_EXHAUSTED", quota, `{"quotaErrorDetails":{"rateScope":"DEVELOPER","rateName":"Number of operations for basic access","retryDelay":"30s"}}`),
			code: gtmgate.ERateLimited, after: 30 * time.Second, retry: true, hint: hintQuota},
		{name: "google.rpc.RetryInfo", status: 429,
			body: adsFailure(429, "RESOURCE_EXHAUSTED", quota, "", `{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"12.5s"}`),
			code: gtmgate.ERateLimited, after: 12500 * time.Millisecond, retry: true, hint: hintQuota},
		{name: "both: the longer", status: 429,
			body: adsFailure(429, "RESOURCE_EXHAUSTED", quota, `{"quotaErrorDetails":{"retryDelay":"3s"}}`, `{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"4s"}`),
			code: gtmgate.ERateLimited, after: 4 * time.Second, retry: true, hint: hintQuota},
		{name: "no delay", status: 429, body: adsFailure(429, "RESOURCE_EXHAUSTED", `{"quotaError":"RESOURCE_EXHAUSTED"}`, ""),
			code: gtmgate.ERateLimited, retry: true, hint: hintQuota},
		{name: "developer token not approved", status: 403, body: adsFailure(403, "PERMISSION_DENIED", `{"authorizationError":"DEVELOPER_TOKEN_NOT_APPROVED"}`, ""),
			code: gtmgate.EUpstream, hint: "GTMGATE_GOOGLE_ADS_DEVELOPER_TOKEN"},
		{name: "invalid developer token is not the tenant's to refresh", status: 401, body: adsFailure(401, "UNAUTHENTICATED", `{"authenticationError":"DEVELOPER_TOKEN_INVALID"}`, ""),
			code: gtmgate.EUpstream, hint: "not the tenant's Google token"},
		{name: "Cloud project not approved", status: 403, body: adsFailure(403, "PERMISSION_DENIED", `{"authorizationError":"CLOUD_PROJECT_NOT_APPROVED_FOR_PRODUCTION"}`, ""),
			code: gtmgate.EUpstream, hint: "Explorer, Basic or Standard"},
		{name: "manager account", status: 403, body: adsFailure(403, "PERMISSION_DENIED", `{"authorizationError":"USER_PERMISSION_DENIED"}`, ""),
			code: gtmgate.EUpstream, hint: hintLoginCustomer},
		{name: "expired token refreshes", status: 401, body: adsFailure(401, "UNAUTHENTICATED", `{"authenticationError":"OAUTH_TOKEN_EXPIRED"}`, ""),
			code: gtmgate.EUpstream, refresh: true, hint: upstream.HintTokenRefused},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			resp := &upstream.Response{Status: tt.status, Header: http.Header{}, Body: []byte(tt.body)}
			f := classify(resp, upstream.StatusFailure(resp))
			if f.Code != tt.code || f.RetryAfter != tt.after || f.Retry != tt.retry || f.Refresh != tt.refresh || !strings.Contains(f.Hint, tt.hint) {
				t.Errorf("classify = %+v; want code %s, wait %v, retry %v, refresh %v, hint with %q", f, tt.code, tt.after, tt.retry, tt.refresh, tt.hint)
			}
		})
	}
}

func FuzzClassify(f *testing.F) {
	f.Add(429, adsFailure(429, "RESOURCE_EXHAUSTED", `{"quotaError":"RESOURCE_TEMPORARILY_EXHAUSTED"}`, `{"quotaErrorDetails":{"retryDelay":"30s"}}`))
	f.Add(403, adsFailure(403, "PERMISSION_DENIED", `{"authorizationError":["DEVELOPER_TOKEN_NOT_APPROVED"]}`, ""))
	f.Fuzz(func(t *testing.T, status int, body string) {
		resp := &upstream.Response{Status: status, Header: http.Header{}, Body: []byte(body)}
		if f := classify(resp, upstream.StatusFailure(resp)); f.RetryAfter < 0 || f.Code == "" {
			t.Fatalf("classify = %+v", f)
		}
	})
}
