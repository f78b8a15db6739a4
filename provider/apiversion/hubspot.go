package apiversion

import "regexp"

// hubSpot: the version is in each path.
// TODO(helper): verify against HubSpot's versioning page.
func hubSpot() Provider {
	const src = "https://developers.hubspot.com/docs/api-reference/versioning"
	return Provider{
		Key: "hubspot", Name: "HubSpot API", Setting: "GTMGATE_HUBSPOT_API_VERSION",
		Default: "v3", Pattern: regexp.MustCompile(`^(v[0-9]|[0-9]{4}-[0-9]{2})$`), Where: "path",
		Policy: "dated versions are supported for at least eighteen months",
		Versions: []Version{
			{Name: "v3", Released: day("2019-06-01"), Sunset: day("2027-09-01"), Source: src},
		},
	}
}
