package gmail

import (
	"bytes"
	"encoding/base64"
	"net/mail"
	"regexp"
	"strings"
	"unicode/utf8"
)

// headerWriter writes RFC 5322 header fields, folding long values.
type headerWriter struct{ buf bytes.Buffer }

func (h *headerWriter) line(name, value string) {
	h.buf.WriteString(name + ": " + value + "\r\n")
}

// checkHeaderValue refuses what could end a header line or smuggle one in:
// CR, LF and every other control character but TAB, and invalid UTF-8.
func checkHeaderValue(field, v string) error {
	if !validUTF8(v) {
		return invalid("%s is not valid UTF-8", field)
	}
	for _, r := range v {
		if (r < 0x20 && r != '\t') || r == 0x7f || r == '\u0085' || r == '\u2028' || r == '\u2029' {
			return invalid("%s must not contain line breaks or control characters", field)
		}
	}
	return nil
}

func validUTF8(s string) bool { return utf8.ValidString(s) }

// addresses writes one address-list field; each address is parsed with
// net/mail and re-encoded, so only well-formed addresses reach the header.
func (h *headerWriter) addresses(field string, list []string) error {
	if len(list) == 0 {
		return nil
	}
	out := make([]string, 0, len(list))
	for _, raw := range list {
		name := strings.ToLower(field)
		if err := checkHeaderValue(name, raw); err != nil {
			return err
		}
		if len(raw) > maxAddressLen {
			return invalid("%s address is longer than %d characters", name, maxAddressLen)
		}
		a, err := mail.ParseAddress(raw)
		if err != nil {
			return invalid("%s address %q is not a valid email address: %v", name, raw, err)
		}
		// A display name may decode (RFC 2047) into control characters.
		if err := checkHeaderValue(name+" display name", a.Name); err != nil {
			return err
		}
		if err := checkHeaderValue(name+" address", a.Address); err != nil {
			return err
		}
		out = append(out, a.String())
	}
	h.line(field, strings.Join(out, ",\r\n "))
	return nil
}

// subject writes Subject: as is when it is plain printable ASCII that reads
// back unchanged, otherwise as RFC 2047 "B" encoded words, one per folded line.
func (h *headerWriter) subject(s string) error {
	if err := checkHeaderValue("subject", s); err != nil {
		return err
	}
	if len(s) > maxSubjectLen {
		return invalid("subject is longer than %d bytes", maxSubjectLen)
	}
	if plainHeaderText(s) {
		h.line("Subject", s)
		return nil
	}
	h.line("Subject", encodeWords(s))
	return nil
}

// plainHeaderText reports whether s survives a header round trip verbatim:
// printable ASCII, no encoded-word marker, no surrounding space, short.
func plainHeaderText(s string) bool {
	if len(s) > 900 || strings.Contains(s, "=?") || strings.TrimSpace(s) != s {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\t') || c > 0x7e {
			return false
		}
	}
	return true
}

// encodeWords encodes s as UTF-8 "B" encoded words of at most 75 characters,
// split on rune boundaries and folded one per line.
func encodeWords(s string) string {
	const maxChunk = 45 // 60 base64 characters + 12 of framing
	var words []string
	for len(s) > 0 {
		n := min(len(s), maxChunk)
		for n < len(s) && !utf8.RuneStart(s[n]) {
			n--
		}
		words = append(words, "=?UTF-8?B?"+base64.StdEncoding.EncodeToString([]byte(s[:n]))+"?=")
		s = s[n:]
	}
	if len(words) == 0 {
		return ""
	}
	return strings.Join(words, "\r\n ")
}

// msgIDPattern is a message id as In-Reply-To and References carry it.
var msgIDPattern = regexp.MustCompile("^<[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@[A-Za-z0-9!#$%&'*+/=?^_`{|}~.:\\[\\]-]+>$")

// msgIDs writes a field of message ids, adding angle brackets when missing.
func (h *headerWriter) msgIDs(field string, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		name := strings.ToLower(field)
		if err := checkHeaderValue(name, id); err != nil {
			return err
		}
		id = strings.TrimSpace(id)
		if !strings.HasPrefix(id, "<") {
			id = "<" + id + ">"
		}
		if len(id) > 250 || !msgIDPattern.MatchString(id) {
			return invalid("%s %q is not a message id like <id@host>", name, id)
		}
		out = append(out, id)
	}
	if len(out) > 50 {
		out = out[len(out)-50:]
	}
	h.line(field, strings.Join(out, "\r\n "))
	return nil
}
