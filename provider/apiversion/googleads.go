package apiversion

import "regexp"

// googleAds: the version is the first path segment (/v25/customers/…).
// TODO(helper): verify every date against Google's published sunset schedule.
func googleAds() Provider {
	const src = "https://developers.google.com/google-ads/api/docs/sunset-dates"
	return Provider{
		Key: "google_ads", Name: "Google Ads API", Setting: "GTMGATE_GOOGLE_ADS_API_VERSION",
		Default: "v21", Pattern: regexp.MustCompile(`^v[0-9]{2}$`), Where: "path",
		Policy: "each major version is supported for about twelve months after its release",
		Versions: []Version{
			{Name: "v21", Released: day("2025-08-06"), Sunset: day("2026-08-05"), Source: src},
		},
	}
}
