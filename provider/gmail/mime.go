package gmail

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"net/textproto"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
)

// Outgoing is a message to build as RFC 5322 MIME. Addresses are as a person
// writes them ("Dana Ortiz <dana@example.com>" or "dana@example.com").
type Outgoing struct {
	From        string
	To, Cc, Bcc []string
	Subject     string
	Text, HTML  string
	InReplyTo   string
	References  []string
	Date        time.Time
	MessageID   string
}

// Limits that keep every header line under RFC 5322's 998 characters.
const (
	maxAddressLen = 320
	maxSubjectLen = 998
	maxRecipients = 100
)

// Build validates o and returns the message. Any header value (subject,
// address, display name, message id) holding CR, LF or another control
// character is a VALIDATION_ERROR, so no input can add a header. Non-ASCII
// subjects and names are RFC 2047 encoded.
func (o *Outgoing) Build() ([]byte, error) {
	h := &headerWriter{}
	if o.From != "" {
		if err := h.addresses("From", []string{o.From}); err != nil {
			return nil, err
		}
	}
	n := len(o.To) + len(o.Cc) + len(o.Bcc)
	if n > maxRecipients {
		return nil, invalid("at most %d recipients in to, cc and bcc together, got %d", maxRecipients, n)
	}
	for _, f := range []struct {
		name string
		list []string
	}{{"To", o.To}, {"Cc", o.Cc}, {"Bcc", o.Bcc}} {
		if err := h.addresses(f.name, f.list); err != nil {
			return nil, err
		}
	}
	if err := h.subject(o.Subject); err != nil {
		return nil, err
	}
	date := o.Date
	if date.IsZero() {
		date = time.Now()
	}
	h.line("Date", date.Format(time.RFC1123Z))
	msgID := o.MessageID
	if msgID == "" {
		msgID = newMessageID(o.From)
	}
	if err := h.msgIDs("Message-ID", []string{msgID}); err != nil {
		return nil, err
	}
	refs := o.References
	if o.InReplyTo != "" {
		if err := h.msgIDs("In-Reply-To", []string{o.InReplyTo}); err != nil {
			return nil, err
		}
		if len(refs) == 0 {
			refs = []string{o.InReplyTo}
		}
	}
	if err := h.msgIDs("References", refs); err != nil {
		return nil, err
	}
	h.line("MIME-Version", "1.0")
	body, err := o.body(h)
	if err != nil {
		return nil, err
	}
	return append(h.buf.Bytes(), body...), nil
}

// body writes the content headers into h and returns the body: text/plain,
// or multipart/alternative when there is HTML.
func (o *Outgoing) body(h *headerWriter) ([]byte, error) {
	for name, v := range map[string]string{"text": o.Text, "html": o.HTML} {
		if !validUTF8(v) {
			return nil, invalid("%s is not valid UTF-8", name)
		}
	}
	text := o.Text
	if text == "" && o.HTML != "" {
		text = htmlToText(o.HTML)
	}
	if o.HTML == "" {
		h.line("Content-Type", `text/plain; charset="UTF-8"`)
		h.line("Content-Transfer-Encoding", "quoted-printable")
		h.buf.WriteString("\r\n")
		return quotedPrintable(text), nil
	}
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	h.line("Content-Type", `multipart/alternative; boundary="`+mw.Boundary()+`"`)
	h.buf.WriteString("\r\n")
	for _, p := range []struct{ typ, content string }{{"text/plain", text}, {"text/html", o.HTML}} {
		w, err := mw.CreatePart(textproto.MIMEHeader{
			"Content-Type":              {p.typ + `; charset="UTF-8"`},
			"Content-Transfer-Encoding": {"quoted-printable"}})
		if err != nil {
			return nil, fmt.Errorf("gmail: build %s part: %w", p.typ, err)
		}
		w.Write(quotedPrintable(p.content))
	}
	if err := mw.Close(); err != nil {
		return nil, fmt.Errorf("gmail: close multipart body: %w", err)
	}
	return buf.Bytes(), nil
}

// quotedPrintable encodes s with CRLF line ends (CR, LF and CRLF in s are
// all line breaks).
func quotedPrintable(s string) []byte {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	var buf bytes.Buffer
	w := quotedprintable.NewWriter(&buf)
	w.Write([]byte(s))
	w.Close()
	return buf.Bytes()
}

func newMessageID(from string) string {
	domain := "gtmgate.local"
	if a, err := mail.ParseAddress(from); err == nil {
		if _, d, ok := strings.Cut(a.Address, "@"); ok && d != "" && !strings.ContainsAny(d, "<>[]\" ") {
			domain = d
		}
	}
	b := make([]byte, 16)
	rand.Read(b)
	return "<" + hex.EncodeToString(b) + "@" + domain + ">"
}

func invalid(format string, args ...any) error {
	return gtmgate.Errorf(gtmgate.EValidation, "email: "+format, args...)
}
