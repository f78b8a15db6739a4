package gmail

import (
	"encoding/base64"
	"mime"
	"net/mail"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// maxTextBytes caps the body text returned per message.
const maxTextBytes = 64 << 10

// Email is a message as the tools return it.
type Email struct {
	ID            string       `json:"id"`
	ThreadID      string       `json:"thread_id"`
	LabelIDs      []string     `json:"label_ids,omitempty"`
	From          string       `json:"from,omitempty"`
	To            string       `json:"to,omitempty"`
	Cc            string       `json:"cc,omitempty"`
	Subject       string       `json:"subject"`
	Date          string       `json:"date,omitempty"`
	MessageID     string       `json:"message_id,omitempty"`
	InReplyTo     string       `json:"in_reply_to,omitempty"`
	References    string       `json:"references,omitempty"`
	Snippet       string       `json:"snippet,omitempty"`
	Text          *string      `json:"text,omitempty"`
	TextTruncated bool         `json:"text_truncated,omitempty"`
	Attachments   []Attachment `json:"attachments,omitempty"`
}

// Attachment names an attachment; its content is not fetched.
type Attachment struct {
	Filename string `json:"filename"`
	MimeType string `json:"mime_type"`
	Size     int    `json:"size"`
}

var wordDecoder = mime.WordDecoder{}

// decodeMessage turns an API message into an Email. With withBody, the text
// body and attachments are decoded from the payload.
func decodeMessage(m *Message, withBody bool) Email {
	e := Email{ID: m.ID, ThreadID: m.ThreadID, LabelIDs: m.LabelIDs, Snippet: m.Snippet}
	if ms, err := strconv.ParseInt(m.InternalDate, 10, 64); err == nil {
		e.Date = time.UnixMilli(ms).UTC().Format(time.RFC3339)
	}
	if m.Payload == nil {
		return e
	}
	for _, h := range m.Payload.Headers {
		v := h.Value
		if d, err := wordDecoder.DecodeHeader(v); err == nil {
			v = d
		}
		switch strings.ToLower(h.Name) {
		case "from":
			e.From = v
		case "to":
			e.To = v
		case "cc":
			e.Cc = v
		case "subject":
			e.Subject = v
		case "message-id":
			e.MessageID = v
		case "in-reply-to":
			e.InReplyTo = v
		case "references":
			e.References = v
		case "date":
			if e.Date == "" {
				if t, err := mail.ParseDate(v); err == nil {
					e.Date = t.UTC().Format(time.RFC3339)
				}
			}
		}
	}
	if !withBody {
		return e
	}
	var plain, htm string
	var havePlain, haveHTML bool
	walkParts(m.Payload, func(p *MessagePart) {
		mt, params, _ := mime.ParseMediaType(p.MimeType)
		if mt == "" {
			mt = strings.ToLower(p.MimeType)
		}
		switch {
		case strings.HasPrefix(mt, "multipart/"):
		case p.Filename != "" || p.Body.AttachmentID != "":
			e.Attachments = append(e.Attachments, Attachment{Filename: p.Filename, MimeType: mt, Size: p.Body.Size})
		case mt == "text/plain" && !havePlain:
			plain, havePlain = partText(p, params["charset"]), true
		case mt == "text/html" && !haveHTML:
			htm, haveHTML = partText(p, params["charset"]), true
		}
	})
	text := plain
	if !havePlain && haveHTML {
		text = htmlToText(htm)
	}
	if len(text) > maxTextBytes {
		cut := maxTextBytes
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text, e.TextTruncated = text[:cut], true
	}
	e.Text = &text
	return e
}

func walkParts(p *MessagePart, f func(*MessagePart)) {
	f(p)
	for i := range p.Parts {
		walkParts(&p.Parts[i], f)
	}
}

// partText decodes a part's base64url body; charsets other than UTF-8 and
// Latin-1 are passed through as they are.
func partText(p *MessagePart, charset string) string {
	data, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(p.Body.Data, "="))
	if err != nil {
		return ""
	}
	switch strings.ToLower(charset) {
	case "iso-8859-1", "latin1", "windows-1252":
		rs := make([]rune, len(data))
		for i, b := range data {
			rs[i] = rune(b)
		}
		return strings.ReplaceAll(string(rs), "\r\n", "\n")
	}
	return strings.ReplaceAll(strings.ToValidUTF8(string(data), "\uFFFD"), "\r\n", "\n")
}
