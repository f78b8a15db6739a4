// Package googleads adapts the Google Ads REST API to gtmgate tools:
// google_ads_report (GAQL reports), google_ads_campaigns (list, get, status
// and budget changes) and google_ads_keywords (keywords and negative keywords).
//
// The API version is the first path segment; Options takes it (empty: the
// catalogue's default, see package apiversion and DefaultVersion), and a 404
// for a version Google no longer serves names GTMGATE_GOOGLE_ADS_API_VERSION.
//
// The tenant's account id is the Google Ads customer id; dashes are stripped
// ("123-456-7890" → "1234567890"). A call to an account reached through a
// manager account sends the manager's id as login-customer-id
// (gtmgate.Account.LoginCustomerID). The operator's developer token, when
// configured, goes in the developer-token header; see Options.
//
// # Result shape
//
// Shared by the ads adapters (googleads, metaads, linkedinads):
//
//   - list actions return {"items": [...], "next_cursor": "…", "currency": "USD"};
//     next_cursor is omitted on the last page and is opaque.
//   - money is a number in account currency units with a "currency" field.
//     Google reports money in micros (millionths); every field whose GAQL name
//     ends in _micros is kept as the raw integer and repeated, divided by 1e6,
//     under the name without the suffix (metrics.cost_micros → metrics.cost).
//     Metrics that are micros without the suffix (metrics.average_cpc,
//     metrics.active_view_cpm, metrics.trueview_average_cpv,
//     metrics.cost_per_conversion, …) are converted in place and their raw
//     value kept as <name>_micros. So: a key ending in _micros is raw micros,
//     every other money key is in currency units.
//   - report rows are flat objects keyed by GAQL field path
//     ("campaign.name", "segments.date", "metrics.clicks"); metrics are numbers
//     (0 when Google omits a zero), ids stay strings, dates are YYYY-MM-DD.
//   - campaign items carry id, name, status, daily_budget, currency and the
//     flattened provider row under "raw".
//   - mutations return the resource name and the new values.
//
// Reads page with Google's fixed 10,000-row pages; the cursor carries the
// page token and an offset into that page, so "limit" pages through large
// pages without re-running the report. pageSize is never sent: the API
// rejects it since v17.
//
// # Sandbox
//
// NewSandbox returns an in-process fake of the API (see Sandbox) holding a
// fictional B2B SaaS advertiser, Northwind Analytics, with 90 days of
// deterministic daily metrics.
package googleads
