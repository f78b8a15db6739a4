package apiversion

import "regexp"

// brave: the version is in the path (/res/v1/web/search).
func brave() Provider {
	const src = "https://api-dashboard.search.brave.com/app/documentation"
	return Provider{
		Key: "brave", Name: "Brave Search API", Setting: "GTMGATE_BRAVE_API_VERSION",
		Default: "v1", Pattern: regexp.MustCompile(`^v[0-9]+$`), Where: "path",
		Policy:   "one version, no sunset announced",
		Versions: []Version{{Name: "v1", Released: day("2023-05-01"), Source: src}},
	}
}
