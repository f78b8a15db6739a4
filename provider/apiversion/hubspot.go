package apiversion

import "regexp"

// hubSpot: the version is in each path. The adapter speaks two shapes:
//
//   - "v3", the legacy numbered paths: /crm/v3/objects, /crm/v3/pipelines,
//     /crm/v3/properties and, for associations, /crm/v4/objects.
//   - a date-based version "YYYY-MM": /crm/objects/{version},
//     /crm/pipelines/{version}, /crm/properties/{version}, associations
//     included under /crm/objects/{version}.
//
// Checked against HubSpot's OpenAPI specs (github.com/HubSpot/HubSpot-public-api-spec-collection
// at 99893791383254f52aa07662baeb98aad65cc710): every endpoint the adapter
// calls exists in 2026-03 with the same parameters, request and response
// schemas as its v3/v4 counterpart. 2026-09 is not the default: its
// associations spec has no GET …/associations/{toObjectType} (only the
// partner services spec lists one), its object responses drop "warnings",
// and from 2026-09 HubSpot enforces portal validation rules on CRM writes.
// 2025-09 and 2026-09-beta were betas, so they are not listed.
//
// Dates (Source is the page with the support rule or the sunset; the others
// are named here):
//   - 2026-03 went GA on 2026-03-30 ("Starting from March 30th 2026",
//     developers.hubspot.com/docs/api-reference/legacy/migration-guide);
//     2026-09 on 2026-09-08 ("the /2026-09/ API version shipping on
//     September 8, 2026", the changelog's "CRM API Write Validation
//     Enforcement" notice; the pipelines v1 sunset notice says September 9).
//     A version is unsupported 18 months after GA (versioning page), so
//     their sunsets below are computed from that rule, not published days.
//     Unsupported means no more fixes; HubSpot says calls may still work.
//   - v4 is unsupported from 2027-03-30 and v1-v3 from September 2027
//     (changelog "Legacy APIs and Apps: What's Going Unsupported and When";
//     the day in September is not given). The "v3" entry carries the earlier
//     v4 date because the legacy shape reaches associations through v4.
//   - "the CRM API v3, was released into general availability on March
//     31st" (developers.hubspot.com/blog/building-the-next-generation-of-hubspots-apis);
//     the year, 2020, is inferred from the changelog on v3 association data,
//     whose screenshots date from October 2020.
func hubSpot() Provider {
	const (
		versioning = "https://developers.hubspot.com/docs/developer-tooling/platform/versioning"
		legacy     = "https://developers.hubspot.com/changelog/legacy-apis-and-legacy-apps-whats-going-unsupported-and-when"
	)
	return Provider{
		Key: "hubspot", Name: "HubSpot API", Setting: "GTMGATE_HUBSPOT_API_VERSION",
		Default: "2026-03", Pattern: regexp.MustCompile(`^(v3|20[0-9]{2}-(03|09))$`), Where: "path",
		Policy: "a dated version is released each March and September and is unsupported 18 months after it went GA; v4 is unsupported from 2027-03-30, v1-v3 from September 2027",
		Versions: []Version{
			{Name: "v3", Released: day("2020-03-31"), Sunset: day("2027-03-30"), Source: legacy},
			{Name: "2026-03", Released: day("2026-03-30"), Sunset: day("2027-09-30"), Source: versioning},
			{Name: "2026-09", Released: day("2026-09-08"), Sunset: day("2028-03-08"), Source: versioning},
		},
	}
}
