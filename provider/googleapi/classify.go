package googleapi

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// Reasons of Google's usage limits, as error.errors[].reason (Gmail,
// Calendar, BigQuery, Sheets) or a google.rpc.ErrorInfo's reason (the APIs
// that send error.details). Google sends the per-user and per-project rate
// limits as HTTP 403 as well as 429, so the status does not tell them from a
// refused credential. Sources: Gmail's usage limits
// (developers.google.com/workspace/gmail/api/reference/quota: rateLimitExceeded
// per project, userRateLimitExceeded per user) and "Resolve errors"
// (…/gmail/api/guides/handle-errors: dailyLimitExceeded too, all 403);
// Calendar's "Handle API errors" (…/calendar/api/guides/errors:
// quotaExceeded "Calendar usage limits exceeded."); BigQuery's "Troubleshoot
// quota and limit errors" (cloud.google.com/bigquery/docs/troubleshoot-quotas:
// rateLimitExceeded is short-term, retry after a few seconds with back-off;
// quotaExceeded longer-term, wait 10 minutes or more); ErrorInfo's
// RATE_LIMIT_EXCEEDED and RESOURCE_QUOTA_EXCEEDED in google/api/error_reason.proto
// (googleapis/googleapis at f8291d2b89f0017ab078a4c7378069bae5686f6f).
var (
	// rateReasons pass within seconds: RATE_LIMITED, the read retried.
	rateReasons = []string{"userRateLimitExceeded", "rateLimitExceeded", "RATE_LIMIT_EXCEEDED"}
	// quotaReasons last minutes to a day: RATE_LIMITED, not retried at once.
	quotaReasons = []string{"dailyLimitExceeded", "quotaExceeded", "RESOURCE_QUOTA_EXCEEDED"}
	// credentialReasons are the 403s of the token or its account's
	// permissions, which keep the hint that the token was refused: a missing
	// scope (insufficientPermissions, ACCESS_TOKEN_SCOPE_INSUFFICIENT), the
	// account's access to the resource (forbidden, accessDenied,
	// requiredAccessLevel, insufficientFilePermissions) and the token's state.
	credentialReasons = []string{"authError", "insufficientPermissions", "forbidden", "accessDenied", "requiredAccessLevel",
		"insufficientFilePermissions", "ACCESS_TOKEN_SCOPE_INSUFFICIENT", "ACCESS_TOKEN_EXPIRED", "ACCESS_TOKEN_TYPE_UNSUPPORTED",
		"ACCOUNT_STATE_INVALID", "CREDENTIALS_MISSING", "IAM_PERMISSION_DENIED"}
	// projectReasons are the 403s of the Cloud project the OAuth app
	// belongs to: the API not enabled for it (accessNotConfigured,
	// SERVICE_DISABLED) or its billing off (BILLING_DISABLED).
	projectReasons = []string{"accessNotConfigured", "SERVICE_DISABLED", "BILLING_DISABLED"}
)

// Hints of Google's usage limits: neither is the tenant's token at fault.
const (
	HintRateLimit = "a Google rate limit per user or per project, not a refused token (re-authorising does not help): " +
		"wait a few seconds and retry with back-off, after retry_after when Google said how long"
	HintQuota = "a Google quota of the Cloud project (daily, or longer-term), not a refused token (re-authorising does not help): " +
		"retrying within minutes does not help (Google advises 10 minutes or more, or the next day for a daily limit); " +
		"the operator can ask for more quota for the project in the Google Cloud console"
	HintCloudProject = "the Google Cloud project of the OAuth app the account was connected with does not have this API enabled, or its billing is off: " +
		"the operator enables it in the Google Cloud console; the tenant's token is not at fault, so re-connecting the account does not help"
)

// Type URLs of the google.rpc error details read here
// (google/rpc/error_details.proto).
const (
	typeRetryInfo = "type.googleapis.com/google.rpc.RetryInfo"
	typeErrorInfo = "type.googleapis.com/google.rpc.ErrorInfo"
)

// Classify is the upstream.Options.Classify of Google's APIs: a usage limit
// sent as 403 (or 429) is RATE_LIMITED, retried when it is a rate limit, and
// a google.rpc.RetryInfo's retryDelay is the wait. Of the other 403s, only
// those about the token or its account's permissions keep the hint that the
// token was refused; one about the Cloud project says so, and one whose
// reason is neither (forbiddenForNonOrganizer…) has no hint.
func Classify(resp *upstream.Response, f upstream.Failure) upstream.Failure {
	var body ErrorBody
	if json.Unmarshal(resp.Body, &body) != nil {
		return f
	}
	f.RetryAfter = max(f.RetryAfter, body.Error.RetryDelay())
	reasons := body.Error.Reasons()
	has := func(set []string) bool {
		return slices.ContainsFunc(reasons, func(r string) bool { return slices.Contains(set, r) })
	}
	switch {
	case has(rateReasons):
		f.Code, f.Retry, f.Refresh, f.Hint = gtmgate.ERateLimited, true, false, HintRateLimit
	case has(quotaReasons):
		f.Code, f.Retry, f.Refresh, f.Hint = gtmgate.ERateLimited, false, false, HintQuota
	case resp.Status != http.StatusForbidden || len(reasons) == 0 || has(credentialReasons):
		// The status's reading stands: a refused token keeps its hint.
	case has(projectReasons):
		f.Hint = HintCloudProject
	default:
		f.Hint = ""
	}
	return f
}

// Reasons returns the reasons of the legacy errors list and of the
// google.rpc.ErrorInfo details.
func (s ErrorStatus) Reasons() []string {
	var out []string
	for _, e := range s.Errors {
		out = append(out, e.Reason)
	}
	for _, d := range s.Details {
		if d.Type == typeErrorInfo {
			out = append(out, d.Reason)
		}
	}
	return out
}

// RetryDelay returns the longest google.rpc.RetryInfo retryDelay of the
// details, 0 when there is none.
func (s ErrorStatus) RetryDelay() time.Duration {
	var d time.Duration
	for _, det := range s.Details {
		if det.Type == typeRetryInfo {
			v, _ := ParseDuration(det.RetryDelay)
			d = max(d, v)
		}
	}
	return d
}

// ParseDuration reads a google.protobuf.Duration in its JSON form: seconds
// with up to nine fractional digits and an "s" ("30s", "0.100s").
func ParseDuration(s string) (time.Duration, bool) {
	if !strings.HasSuffix(s, "s") || strings.HasPrefix(s, "-") {
		return 0, false
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, false
	}
	return d, true
}
