package apiversion

import "regexp"

// metaAds: the Graph API version is the first path segment (/v25.0/act_…).
// TODO(helper): verify every date against Meta's changelog.
func metaAds() Provider {
	const src = "https://developers.facebook.com/docs/graph-api/changelog"
	return Provider{
		Key: "meta_ads", Name: "Meta Marketing API", Setting: "GTMGATE_META_ADS_API_VERSION",
		Default: "v21.0", Pattern: regexp.MustCompile(`^v[0-9]{2}\.0$`), Where: "path",
		Policy: "each Graph API version is available for at least two years after the next version's release",
		Versions: []Version{
			{Name: "v21.0", Released: day("2024-10-02"), Sunset: day("2025-09-09"), Source: src},
		},
	}
}
