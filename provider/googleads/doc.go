// Package googleads adapts the Google Ads REST API (v21) to gtmgate tools:
// google_ads_report (GAQL reports), google_ads_campaigns (list, get, status
// and budget changes) and google_ads_keywords (keywords and negative keywords).
//
// The tenant's account id is the Google Ads customer id; dashes are stripped
// ("123-456-7890" → "1234567890"). Every call sends the developer-token header
// (and login-customer-id when the tenant reaches the account through a manager
// account); see Options.
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
