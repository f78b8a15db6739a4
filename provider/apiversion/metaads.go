package apiversion

import "regexp"

// metaAds: the Graph API version is the first path segment (/v26.0/act_…).
//
// The dates are the Marketing API's, not the Graph API's: Meta expires a
// Marketing API version months after its successor ships (v21.0 on
// 2025-09-09), while the same Graph API version lives until 2027-01-21, and
// the ads endpoints follow the Marketing API's table. Read from Meta's
// Marketing API version history on 2026-11-25; the v24.0 expiry was moved
// there from 2026-10-06 to 2026-11-10, and no expiry is announced for v26.0
// or v27.0.
//
// The default is the newest version Meta's own business SDKs are generated
// for (facebook-nodejs-business-sdk and facebook-java-business-sdk v26.0.0,
// 2026-08-05), whose AdsInsights and Campaign field lists the adapter and its
// sandbox were checked against. v27.0 is listed so that it counts as known;
// its changelog and SDK code were not available to check the adapter against.
func metaAds() Provider {
	const src = "https://developers.facebook.com/documentation/ads-commerce/marketing-api/marketing-api-changelog/versions"
	return Provider{
		Key: "meta_ads", Name: "Meta Marketing API", Setting: "GTMGATE_META_ADS_API_VERSION",
		Default: "v26.0", Pattern: regexp.MustCompile(`^v[0-9]{2}\.0$`), Where: "path",
		Policy: "a Marketing API version is served for at least 90 days after its successor is released; past its expiry, calls fail with error 2635 " +
			"unless Meta upgrades them to the next version for endpoints that version left unchanged",
		Versions: []Version{
			{Name: "v21.0", Released: day("2024-10-02"), Sunset: day("2025-09-09"), Source: src},
			{Name: "v22.0", Released: day("2025-01-21"), Sunset: day("2026-02-19"), Source: src},
			{Name: "v23.0", Released: day("2025-05-29"), Sunset: day("2026-06-09"), Source: src},
			{Name: "v24.0", Released: day("2025-10-08"), Sunset: day("2026-11-10"), Source: src},
			{Name: "v25.0", Released: day("2026-02-18"), Sunset: day("2027-02-23"), Source: src},
			{Name: "v26.0", Released: day("2026-07-29"), Source: src},
			{Name: "v27.0", Released: day("2026-11-04"), Source: src},
		},
	}
}
