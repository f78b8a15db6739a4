package config

import (
	"fmt"

	"github.com/gtmgate/gtmgate/provider/apiversion"
)

// APIVersion is the API version gtmgate speaks to provider key: the
// configured one, else the catalogue's default ("" for a provider the
// catalogue does not list).
func (c *Config) APIVersion(key string) string {
	if v, ok := c.APIVersions[key]; ok {
		return v
	}
	if p, ok := apiversion.Of(key); ok {
		return p.Default
	}
	return ""
}

// validateAPIVersions refuses a version that is not shaped like the
// provider's. A well-shaped version the catalogue does not know, or one past
// its sunset, is accepted: health and the daily brief warn about it, so an
// operator can move before a release knows the version, and a sunset never
// stops the gateway from starting.
func (c *Config) validateAPIVersions() error {
	for key, v := range c.APIVersions {
		p, ok := apiversion.Of(key)
		if !ok {
			return fmt.Errorf("API version for %q: no such provider", key)
		}
		if !p.Pattern.MatchString(v) {
			return fmt.Errorf("%s: %q is not a %s version (for example %s)", p.Setting, v, p.Name, p.Default)
		}
	}
	return nil
}

func apiVersionMeaning(p apiversion.Provider) string {
	where := "in each path"
	if p.Where != "path" {
		where = "in the " + p.Where + " header"
	}
	return fmt.Sprintf("%s version, sent %s; see the docs host's Provider versions page", p.Name, where)
}
