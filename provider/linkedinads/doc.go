// Package linkedinads adapts the LinkedIn Marketing API (versioned /rest
// endpoints, Rest.li 2.0) to gtmgate tools: linkedin_ads_analytics
// (adAnalytics reports) and linkedin_ads_campaigns (list and status changes).
//
// The tenant's account id is the sponsored ad account id (digits; a
// urn:li:sponsoredAccount: prefix is accepted). Every call sends the
// LinkedIn-Version (YYYYMM) and X-Restli-Protocol-Version: 2.0.0 headers. The
// version is the client's (Options, set from GTMGATE_LINKEDIN_ADS_API_VERSION),
// else the catalogue's default (provider/apiversion). LinkedIn serves a
// monthly version for about a year and then answers it with 426
// NONEXISTENT_VERSION; that error names the setting to move.
//
// Rest.li 2.0 query parameters are structured: dateRange=(start:(year:2025,
// month:5,day:1),end:(…)) and accounts=List(urn%3Ali%3AsponsoredAccount%3A1).
// The parentheses, commas and colons of the structure go unescaped while every
// leaf value is percent-encoded (restli.go), so those parameters are built as
// raw query text rather than with url.Values, which would escape the structure.
//
// # Result shape
//
// Shared by the ads adapters (googleads, metaads, linkedinads):
//
//   - list actions return {"items": [...], "next_cursor": "…", "currency": "USD"};
//     next_cursor is omitted on the last page.
//   - analytics rows keep LinkedIn's metric names (impressions, clicks,
//     costInLocalCurrency…) as numbers, add "cost" (costInLocalCurrency) and
//     "currency", give the period as date_start/date_end (YYYY-MM-DD) and the
//     pivot as pivot_value (the URN) with its numeric id.
//   - campaign items give daily_budget/total_budget/unit_cost as numbers in the
//     account currency and keep LinkedIn's object under "raw".
//
// # Sandbox
//
// NewSandbox returns an in-process fake of the API (see Sandbox), which
// enforces apispec.json: the facts of the calls above transcribed from
// LinkedIn's reference pages for version 202606 (LinkedIn publishes no
// machine-readable description), each operation citing its page.
package linkedinads
