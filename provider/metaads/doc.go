// Package metaads adapts the Meta Marketing API to gtmgate tools:
// meta_ads_insights (reporting) and meta_ads_campaigns (list, status and
// budget changes).
//
// The Graph API version is the first segment of every path. It is the
// client's (Options, set from GTMGATE_META_ADS_API_VERSION), else the
// catalogue's default (provider/apiversion). Meta expires a Marketing API
// version months after its successor ships and then answers calls to it with
// error 2635; that error names the setting to move.
//
// The tenant's account id is the ad account id, with or without the act_
// prefix. Campaign changes first read the campaign and refuse one that does
// not belong to the call's ad account, since a Meta token often reaches
// several accounts.
//
// # Result shape
//
// Shared by the ads adapters (googleads, metaads, linkedinads):
//
//   - list actions return {"items": [...], "next_cursor": "…", "currency": "USD"};
//     next_cursor (Meta's paging.cursors.after) is omitted on the last page.
//   - insights rows keep Meta's field names (campaign_name, impressions, spend,
//     date_start…); Meta sends metrics as strings, they are returned as numbers,
//     actions[].value included. spend, cpc and cpm are already in currency units.
//   - campaign budgets are in the currency's minor units on Meta (cents);
//     items give daily_budget/lifetime_budget/budget_remaining in currency units
//     and keep Meta's values under "raw".
//   - dates are YYYY-MM-DD; every result carries "currency" (account_currency).
//   - insights results carry "notes" when Meta withholds a requested metric
//     (reach with breakdowns over a range starting more than 13 months back).
//
// The campaigns edge takes no filtering parameter (the v26.0 SDK's
// AdAccount.get_campaigns has none, unlike insights): a campaigns list filter
// on effective_status becomes Meta's effective_status parameter, one on
// another field is applied to each page Meta returns.
//
// Meta sends its errors with HTTP 400 and an error code (errors.go): rate
// limits (4, 17, 32, 341, 613, 80000–80014) become RATE_LIMITED; an expired
// or revoked token (190, 102) is refreshed once, as after a 401, then
// REAUTH_REQUIRED naming the connect link; a missing permission (10,
// 200–299) is REAUTH_REQUIRED with a hint about the ad account permission.
//
// # Sandbox
//
// NewSandbox returns an in-process fake of the API (see Sandbox), which
// enforces apispec.json: the facts of the calls above from the Java classes
// of facebook-java-business-sdk v26.0.0 (internal/sdkspec extracts them).
package metaads
