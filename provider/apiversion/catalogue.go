package apiversion

import (
	"regexp"
	"sync"
)

// All returns the catalogue, one entry per provider family the tools use.
// It is built once: adapters read it on every call.
func All() []Provider { return catalogue() }

var catalogue = sync.OnceValue(func() []Provider {
	return []Provider{googleAds(), metaAds(), linkedInAds(), hubSpot(), brave(),
		ga4(), searchConsole(), gmail(), calendar(), bigQuery(), sheets()}
})

var (
	googlePathVersion = regexp.MustCompile(`^v[0-9]+(beta|alpha)?[0-9]*$`)
)
