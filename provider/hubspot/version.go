package hubspot

import (
	"github.com/gtmgate/gtmgate/provider/apiversion"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// legacyVersion names HubSpot's numbered paths as the adapter uses them: v3
// objects, pipelines and properties, v4 associations. Any other version is
// date-based ("2026-03") and goes after the API area: /crm/objects/2026-03/….
// The dated endpoints the adapter calls take and return the same shapes as
// their v3/v4 counterparts in HubSpot's specs (see the catalogue entry).
const legacyVersion = "v3"

// catalogue is HubSpot's entry in the version catalogue.
func catalogue() apiversion.Provider { return apiversion.MustOf(Provider) }

// Options returns the upstream client options for HubSpot at version, the
// catalogue's default when empty or not shaped like a HubSpot version.
func Options(baseURL, version string) upstream.Options {
	return upstream.Options{Provider: Provider, BaseURL: baseURL, APIVersion: versionOf(version)}
}

// versionOf is version when the catalogue's pattern accepts it, else the default.
func versionOf(version string) string {
	if cat := catalogue(); !cat.Pattern.MatchString(version) {
		return cat.Default
	}
	return version
}

// crm returns the root of a CRM API area ("objects", "pipelines",
// "properties") at the adapter's version; associations says the path is an
// association endpoint, which the legacy shape serves from v4.
func (a *api) crm(area string, associations bool) string {
	if a.version == legacyVersion {
		v := "v3"
		if associations {
			v = "v4"
		}
		return "/crm/" + v + "/" + area
	}
	return "/crm/" + area + "/" + a.version
}
