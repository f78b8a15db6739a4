package apiversion

import "regexp"

// All returns the catalogue, one entry per provider family the tools use.
func All() []Provider {
	return []Provider{googleAds(), metaAds(), linkedInAds(), hubSpot(), brave(),
		ga4(), searchConsole(), gmail(), calendar(), bigQuery(), sheets()}
}

var (
	googlePathVersion = regexp.MustCompile(`^v[0-9]+(beta|alpha)?[0-9]*$`)
)
