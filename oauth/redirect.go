package oauth

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/gtmgate/gtmgate/egress"
)

// validateRedirectURI checks a redirect URI at registration: absolute, no
// fragment, no credentials, and either https, or http on a loopback host
// (native apps, RFC 8252 §7.3), or a private-use scheme the operator allowed.
func validateRedirectURI(raw string, customSchemes []string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("redirect URI %q does not parse", raw)
	}
	if !u.IsAbs() {
		return fmt.Errorf("redirect URI %q is not absolute", raw)
	}
	if u.Fragment != "" || strings.Contains(raw, "#") {
		return fmt.Errorf("redirect URI %q has a fragment", raw)
	}
	if u.User != nil {
		return fmt.Errorf("redirect URI %q carries credentials", raw)
	}
	switch scheme := strings.ToLower(u.Scheme); {
	case scheme == "https":
		if u.Hostname() == "" {
			return fmt.Errorf("redirect URI %q has no host", raw)
		}
	case scheme == "http":
		if !egress.LoopbackHost(u.Hostname()) {
			return fmt.Errorf("redirect URI %q: http is only allowed on loopback hosts (127.0.0.1, [::1], localhost); use https", raw)
		}
	case slices.Contains(customSchemes, scheme):
	default:
		return fmt.Errorf("redirect URI %q: scheme %q is not allowed; use https or http on a loopback host", raw, u.Scheme)
	}
	return nil
}

// redirectHost is what the consent page shows as where the person returns.
func redirectHost(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	if u.Host != "" {
		return u.Host
	}
	return u.Scheme + ":" + u.Opaque
}
