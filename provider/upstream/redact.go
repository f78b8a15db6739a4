package upstream

import (
	"encoding/json"
	"regexp"
	"strings"
	"unicode/utf8"
)

// ExcerptBytes is the longest provider body excerpt kept in errors and the ledger.
const ExcerptBytes = 512

// Redacted is text with secrets removed.
type Redacted string

func (r Redacted) String() string { return string(r) }

// secretPatterns match credentials a provider might echo back.
var secretPatterns = []*regexp.Regexp{
	regexp.MustCompile(`(?i)(bearer\s+)[A-Za-z0-9._~+/=-]{8,}`),
	regexp.MustCompile(`(?i)("(?:access_token|refresh_token|id_token|client_secret|api_key|apikey|password|token|secret)"\s*:\s*")[^"]*(")`),
	regexp.MustCompile(`(?i)((?:access_token|refresh_token|client_secret|api_key|apikey|key|token|password)=)[^&\s"]+`),
}

// Redact removes the given secrets and anything shaped like a credential.
func Redact(body []byte, secrets ...string) Redacted {
	s := string(body)
	for _, sec := range secrets {
		if len(sec) >= 6 {
			s = strings.ReplaceAll(s, sec, "[redacted]")
		}
	}
	s = secretPatterns[0].ReplaceAllString(s, "${1}[redacted]")
	s = secretPatterns[1].ReplaceAllString(s, "${1}[redacted]${2}")
	s = secretPatterns[2].ReplaceAllString(s, "${1}[redacted]")
	return Redacted(s)
}

// Excerpt shortens an already redacted body to ExcerptBytes on a rune boundary.
func Excerpt(r Redacted) string {
	s := string(r)
	if len(s) <= ExcerptBytes {
		return s
	}
	cut := ExcerptBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// ProviderMessage extracts the human message from common provider error bodies:
// {"message"}, {"error": {"message"}}, {"error": "…", "error_description"}.
func ProviderMessage(body []byte) string {
	var v struct {
		Message string          `json:"message"`
		Error   json.RawMessage `json:"error"`
		Desc    string          `json:"error_description"`
	}
	if json.Unmarshal(body, &v) != nil {
		return ""
	}
	if v.Message != "" {
		return clip(v.Message)
	}
	var nested struct {
		Message string `json:"message"`
		// Detail is where Brave puts its message.
		Detail string `json:"detail"`
	}
	if json.Unmarshal(v.Error, &nested) == nil && (nested.Message != "" || nested.Detail != "") {
		if nested.Message != "" {
			return clip(nested.Message)
		}
		return clip(nested.Detail)
	}
	var flat string
	if json.Unmarshal(v.Error, &flat) == nil && flat != "" {
		if v.Desc != "" {
			return clip(flat + ": " + v.Desc)
		}
		return clip(flat)
	}
	return ""
}

func clip(s string) string {
	const max = 300
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
