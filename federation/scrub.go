package federation

import (
	"cmp"
	"encoding/base64"
	"net/url"
	"slices"
	"strings"

	"github.com/gtmgate/gtmgate"
)

// accessTokens is implemented by an Upstream that can tell the access
// tokens (client credentials, OAuth grants: one per grant account) it
// last sent to a server (the *mcpupstream.Pool does).
type accessTokens interface {
	AccessTokens(tenantID, name string) []string
}

// minScrubbed is the shortest secret scrubbed: a shorter one would turn
// every text into stars and gives nothing away as a substring anyway.
const minScrubbed = 4

// scrubberFor returns what replaces s's secrets in a text the upstream
// wrote: the bearer token, header value or client secret, and the access
// token last sent when the upstream can tell it, each in plain, URL-encoded
// (query and path escaping) and base64 (standard and URL alphabets, padded
// or not) forms, and the client's basic-auth pair "id:secret" in base64.
// An upstream that echoes its Authorization header in an isError text so
// does not put its secret in the caller's answer, the audit or the error
// ledger.
func (c *Catalog) scrubberFor(s *gtmgate.MCPServer) *strings.Replacer {
	secrets := []string{s.Auth.Secret}
	if at, ok := c.opts.Upstream.(accessTokens); ok {
		secrets = append(secrets, at.AccessTokens(s.TenantID, s.Name)...)
	}
	var forms []string
	add := func(v string) {
		if len(v) >= minScrubbed {
			forms = append(forms, v)
		}
	}
	for _, sec := range secrets {
		if len(sec) < minScrubbed {
			continue
		}
		add(sec)
		add(url.QueryEscape(sec))
		add(url.PathEscape(sec))
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
			add(enc.EncodeToString([]byte(sec)))
		}
	}
	if s.Auth.Kind == gtmgate.MCPAuthClientCredentials && len(s.Auth.Secret) >= minScrubbed {
		pair := []byte(url.QueryEscape(s.Auth.ClientID) + ":" + url.QueryEscape(s.Auth.Secret))
		add(base64.StdEncoding.EncodeToString(pair))
		add(base64.StdEncoding.EncodeToString([]byte(s.Auth.ClientID + ":" + s.Auth.Secret)))
	}
	// Longest first, so that a form containing another is replaced whole.
	slices.SortStableFunc(forms, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	var pairs []string
	for _, f := range forms {
		pairs = append(pairs, f, "[secret]")
	}
	return strings.NewReplacer(pairs...)
}

// scrubError returns err with its shown texts scrubbed; an error that is not
// a *gtmgate.Error is shown as "internal error" and is left as it is.
func scrubError(r *strings.Replacer, err error) error {
	ge, ok := err.(*gtmgate.Error)
	if !ok || ge == nil {
		return err
	}
	out := *ge
	out.Message, out.Hint = r.Replace(ge.Message), r.Replace(ge.Hint)
	if d, ok := ge.Detail.(*gtmgate.UpstreamDetail); ok && d != nil {
		dd := *d
		dd.Body = r.Replace(d.Body)
		out.Detail = &dd
	}
	return &out
}
