package googleads

import (
	"encoding/json"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/googleapi"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// failureBody is the part of a Google Ads error read here: the google.rpc.Status
// whose details hold a GoogleAdsFailure, each error with its errorCode (a
// oneof: {"authorizationError": "USER_PERMISSION_DENIED"}) and, for a
// quotaError, quotaErrorDetails.retryDelay (errors.proto; googleapis/googleapis
// at f8291d2b89f0017ab078a4c7378069bae5686f6f, google/ads/googleads/v25/errors).
type failureBody struct {
	Error struct {
		Details []struct {
			Type   string `json:"@type"`
			Errors []struct {
				ErrorCode map[string]any `json:"errorCode"`
				Details   struct {
					QuotaErrorDetails struct {
						RetryDelay string `json:"retryDelay"`
					} `json:"quotaErrorDetails"`
				} `json:"details"`
			} `json:"errors"`
		} `json:"details"`
	} `json:"error"`
}

// rateLimits are the quotaError codes of too many requests (quota_error.proto);
// the others (ACCESS_PROHIBITED…) are not passed by waiting.
var rateLimits = map[string]bool{"RESOURCE_EXHAUSTED": true, "RESOURCE_TEMPORARILY_EXHAUSTED": true,
	"EXCESSIVE_SHORT_TERM_QUERY_RESOURCE_CONSUMPTION": true, "EXCESSIVE_LONG_TERM_QUERY_RESOURCE_CONSUMPTION": true}

// operatorCredentials are the error codes about the gateway operator's
// developer token or Google Cloud project, not the tenant's token (from the
// enums' comments in authorization_error.proto, authentication_error.proto
// and request_error.proto), with what to do about each.
var operatorCredentials = map[string]string{
	"DEVELOPER_TOKEN_NOT_APPROVED":                     devToken + "it is approved for test accounts only: apply for Basic or Standard access for it in the Google Ads API Center, or set " + devTokenSetting + " to an approved token",
	"DEVELOPER_TOKEN_PROHIBITED":                       devToken + "Google does not allow it with the Google Cloud project of the OAuth app the account was connected with",
	"DEVELOPER_TOKEN_NOT_ON_ALLOWLIST":                 devToken + "it is not on the allow-list this call needs",
	"DEVELOPER_TOKEN_INVALID":                          devToken + "Google does not know it: set " + devTokenSetting + " to the token shown in the Google Ads API Center",
	"DEVELOPER_TOKEN_PARAMETER_MISSING":                devToken + "none is set: set " + devTokenSetting,
	"ORGANIZATION_NOT_ASSOCIATED_WITH_DEVELOPER_TOKEN": devToken + "the Cloud organization of the OAuth app's project is not associated with it",
	"CLOUD_PROJECT_NOT_APPROVED_FOR_PRODUCTION":        cloudProject + "it is approved for test accounts only: apply for Explorer, Basic or Standard Google Ads API access for it",
	"PROJECT_DISABLED":                                 cloudProject + "it does not have permission to use the Google Ads API: enable the API for it",
	"CLOUD_PROJECT_NOT_UNDER_ORGANIZATION":             cloudProject + "it is not under the organization Google requires",
	"CLOUD_PROJECT_NOT_FOUND":                          cloudProject + "Google cannot find it",
}

const (
	devTokenSetting = "GTMGATE_GOOGLE_ADS_DEVELOPER_TOKEN"
	devToken        = "this concerns the gateway operator's Google Ads developer token (" + devTokenSetting + "), not the tenant's Google token, so re-connecting the account does not help: "
	cloudProject    = "this concerns the Google Cloud project of the OAuth app the account was connected with (the operator's: PUT /admin/oauth-apps/google, or the tenant's own), not the tenant's Google token, so re-connecting the account does not help: "
	// hintLoginCustomer is the hint of an account reached through a manager.
	hintLoginCustomer = "if the tenant reaches this account through a manager account, set the account's login_customer_id to that manager's customer id"
	hintQuota         = "Google Ads rate-limited the developer token or the account: wait retry_after seconds (Google's retryDelay), when it is set, before retrying"
)

// classify is the upstream Classify of Google Ads: Google's RetryInfo and a
// quotaError's retryDelay are the wait of a rate limit, and an error about
// the operator's developer token or Cloud project says so instead of
// blaming (or refreshing) the tenant's token.
func classify(resp *upstream.Response, f upstream.Failure) upstream.Failure {
	f = googleapi.Classify(resp, f)
	var body failureBody
	if json.Unmarshal(resp.Body, &body) != nil {
		return f
	}
	for _, d := range body.Error.Details {
		if !strings.HasSuffix(d.Type, ".errors.GoogleAdsFailure") {
			continue
		}
		for _, e := range d.Errors {
			if delay, ok := googleapi.ParseDuration(e.Details.QuotaErrorDetails.RetryDelay); ok {
				f.RetryAfter = max(f.RetryAfter, delay)
			}
			for kind, v := range e.ErrorCode {
				code, _ := v.(string)
				switch hint, operator := operatorCredentials[code]; {
				case operator:
					f.Code, f.Hint, f.Refresh, f.Retry = gtmgate.EUpstream, hint, false, false
					return f
				case kind == "quotaError" && rateLimits[code]:
					f.Code, f.Hint, f.Retry = gtmgate.ERateLimited, hintQuota, true
				case code == "USER_PERMISSION_DENIED" || code == "INVALID_LOGIN_CUSTOMER_ID_SERVING_CUSTOMER_ID_COMBINATION":
					f.Hint = hintLoginCustomer
				}
			}
		}
	}
	return f
}
