package oauth

import (
	"net/url"
	"strings"
)

// canonicalResource returns the audience a resource parameter (RFC 8707)
// names, or false when it is not this server's. The MCP endpoint and the
// gateway's base URL both mean the MCP endpoint; a missing parameter does
// too, for clients that predate resource indicators.
func (s *Server) canonicalResource(param string) (string, bool) {
	if param == "" {
		return s.resource, true
	}
	got, ok := normalizeURL(param)
	if !ok {
		return "", false
	}
	base, _ := normalizeURL(s.issuer)
	if got == base || got == base+"/mcp" {
		return s.resource, true
	}
	return "", false
}

// normalizeURL lower-cases scheme and host and drops a trailing slash, so
// that equivalent spellings of one URL compare equal. URLs with a query or
// fragment are refused (RFC 8707 §2).
func normalizeURL(raw string) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", false
	}
	host := strings.ToLower(u.Host)
	scheme := strings.ToLower(u.Scheme)
	host = strings.TrimSuffix(host, map[string]string{"https": ":443", "http": ":80"}[scheme])
	return scheme + "://" + host + strings.TrimSuffix(u.EscapedPath(), "/"), true
}
