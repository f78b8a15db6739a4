package apiversion

import "regexp"

// linkedInAds: the version travels in the LinkedIn-Version header (YYYYMM).
// TODO(helper): verify every date against LinkedIn's versioning page.
func linkedInAds() Provider {
	const src = "https://learn.microsoft.com/en-us/linkedin/marketing/versioning"
	return Provider{
		Key: "linkedin_ads", Name: "LinkedIn Marketing API", Setting: "GTMGATE_LINKEDIN_ADS_API_VERSION",
		Default: "202410", Pattern: regexp.MustCompile(`^[0-9]{6}(\.[0-9]{2})?$`), Where: "LinkedIn-Version",
		Policy: "each monthly version is supported for at least one year",
		Versions: []Version{
			{Name: "202410", Released: day("2024-10-01"), Sunset: day("2025-10-15"), Source: src},
		},
	}
}
