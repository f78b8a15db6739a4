package apiversion

import "regexp"

// googleAds: the version is the first path segment (/v25/customers/…).
//
// Release days are Google's release notes
// (https://developers.google.com/google-ads/api/docs/release-notes), and match
// the googleapis commits that added google/ads/googleads/vNN. The v21 and v22
// sunset days are the ones announced in Google's sunset reminders. For v23 to
// v26 Google has published the sunset month only (2025-09-04 release schedule);
// its sunset-dates page says a tentative sunset "could happen any time in that
// month", so the catalogue takes the first day of the month and warns early
// rather than late. Replace them when Google posts the reminders.
//
// The default is v25, not the newer v26: v25 is the newest version whose
// protos (googleapis f8291d2b, 2026-08-22) were checked against every field,
// resource, service and enum value the Google Ads tools use. v26 (2026-10-14)
// is listed so an operator can move to it with GTMGATE_GOOGLE_ADS_API_VERSION.
func googleAds() Provider {
	const schedule = "https://developers.google.com/ads/blog/posts/2025/09/more-frequent-releases-coming-for"
	return Provider{
		Key: "google_ads", Name: "Google Ads API", Setting: "GTMGATE_GOOGLE_ADS_API_VERSION",
		Default: "v25", Pattern: regexp.MustCompile(`^v[0-9]{2}$`), Where: "path",
		Policy: "four major versions a year, each available for about twelve months after its release",
		Versions: []Version{
			{Name: "v21", Released: day("2025-08-06"), Sunset: day("2026-08-05"),
				Source: "https://developers.google.com/ads/blog/posts/2026/06/google-ads-api-v21-sunset-reminder"},
			{Name: "v22", Released: day("2025-10-15"), Sunset: day("2026-10-07"),
				Source: "https://developers.google.com/ads/blog/posts/2026/09/google-ads-api-v22-sunset-reminder"},
			// Sunsets from here on are projected months (see above).
			{Name: "v23", Released: day("2026-01-28"), Sunset: day("2027-02-01"), Source: schedule},
			{Name: "v24", Released: day("2026-04-22"), Sunset: day("2027-05-01"), Source: schedule},
			{Name: "v25", Released: day("2026-07-22"), Sunset: day("2027-08-01"), Source: schedule},
			{Name: "v26", Released: day("2026-10-14"), Sunset: day("2027-11-01"), Source: schedule},
		},
	}
}
