package connect

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// maxBody caps a provider answer read by this package.
const maxBody = 1 << 20

func readLimited(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxBody+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxBody {
		return nil, fmt.Errorf("answer exceeds %d bytes", maxBody)
	}
	return b, nil
}

// tokenResponse is a successful token answer (RFC 6749 §5.1) with the
// providers' variations: Google, Meta and LinkedIn give "scope" as one
// string (LinkedIn comma-separated), HubSpot "scopes" as an array, and
// expires_in may come as a numeric string.
type tokenResponse struct {
	AccessToken  string   `json:"access_token"`
	TokenType    string   `json:"token_type"`
	ExpiresIn    seconds  `json:"expires_in"`
	RefreshToken string   `json:"refresh_token"`
	Scope        string   `json:"scope"`
	ScopeList    []string `json:"scopes"`
}

func (t *tokenResponse) scopes() []string {
	if len(t.ScopeList) > 0 {
		return t.ScopeList
	}
	return strings.FieldsFunc(t.Scope, func(r rune) bool { return r == ' ' || r == ',' })
}

// seconds accepts a JSON number or a numeric string.
type seconds int64

func (s *seconds) UnmarshalJSON(b []byte) error {
	v := strings.Trim(string(b), `"`)
	if v == "" || v == "null" {
		return nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 0 || f > 1e10 {
		return fmt.Errorf("expires_in: %q is not a number of seconds", v)
	}
	*s = seconds(f)
	return nil
}

// oauthError is a refusal: RFC 6749 §5.2 {"error": code,
// "error_description": …}, the Graph API's {"error": {"type", "code",
// "message"}} that Meta's token endpoint answers, or HubSpot's
// {"status": "BAD_AUTH_CODE", "message": …}.
type oauthError struct {
	Code        string
	Description string
}

// parseTokenResponse reads a token endpoint's answer: the token on a 2xx
// with an access_token, otherwise the provider's error code ("http_NNN" or
// "invalid_response" when the answer names none).
func parseTokenResponse(status int, body []byte) (*tokenResponse, *oauthError) {
	if status/100 == 2 {
		var t tokenResponse
		if err := json.Unmarshal(body, &t); err == nil && t.AccessToken != "" {
			return &t, nil
		}
	}
	var raw struct {
		Error       json.RawMessage `json:"error"`
		Description string          `json:"error_description"`
		// HubSpot's own error body: {"status": "BAD_AUTH_CODE", "message", "correlationId"}.
		Status  json.RawMessage `json:"status"`
		Message string          `json:"message"`
	}
	_ = json.Unmarshal(body, &raw) // not JSON: no code
	e := &oauthError{Description: raw.Description}
	var code, hubspotStatus string
	var graph struct {
		Type    string `json:"type"`
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	switch {
	case json.Unmarshal(raw.Error, &code) == nil && code != "":
		e.Code = code
	case json.Unmarshal(raw.Error, &graph) == nil && (graph.Type != "" || graph.Code != 0):
		e.Code = graph.Type
		if graph.Code != 0 {
			e.Code += " " + strconv.Itoa(graph.Code)
		}
		e.Description = graph.Message
	case json.Unmarshal(raw.Status, &hubspotStatus) == nil && hubspotStatus != "":
		e.Code, e.Description = hubspotStatus, raw.Message
	case status/100 == 2:
		e.Code = "invalid_response"
	default:
		e.Code = "http_" + strconv.Itoa(status)
	}
	e.Code = safeCode(e.Code)
	return nil, e
}

// safeCode keeps an error code printable and short: RFC 6749 codes are
// %x20-21 / %x23-5B / %x5D-7E; anything else is a provider's mistake.
func safeCode(s string) string {
	s = strings.TrimSpace(s)
	var b strings.Builder
	for _, r := range s {
		if b.Len() >= 64 {
			break
		}
		if r >= 0x20 && r <= 0x7e && r != '"' && r != '\\' {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "invalid_response"
	}
	return b.String()
}
