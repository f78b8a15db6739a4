package gmail

import (
	"bytes"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
)

// parsed is what a recipient's parser reads back from a built message.
type parsed struct {
	header mail.Header
	text   string
	html   string
}

func parseBuilt(t testing.TB, raw []byte) parsed {
	t.Helper()
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("net/mail cannot read the message: %v\n%s", err, raw)
	}
	p := parsed{header: m.Header}
	mt, params, err := mime.ParseMediaType(m.Header.Get("Content-Type"))
	if err != nil {
		t.Fatalf("Content-Type: %v", err)
	}
	if mt == "text/plain" {
		b, err := io.ReadAll(quotedprintable.NewReader(m.Body))
		if err != nil {
			t.Fatalf("body: %v", err)
		}
		p.text = string(b)
		return p
	}
	mr := multipart.NewReader(m.Body, params["boundary"])
	for {
		part, err := mr.NextPart() // decodes quoted-printable
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("part: %v", err)
		}
		b, _ := io.ReadAll(part)
		if strings.HasPrefix(part.Header.Get("Content-Type"), "text/html") {
			p.html = string(b)
		} else {
			p.text = string(b)
		}
	}
	return p
}

func addressesOf(t testing.TB, h mail.Header, field string) []mail.Address {
	t.Helper()
	if h.Get(field) == "" {
		return nil
	}
	list, err := h.AddressList(field)
	if err != nil {
		t.Fatalf("%s %q does not parse: %v", field, h.Get(field), err)
	}
	out := make([]mail.Address, len(list))
	for i, a := range list {
		out[i] = *a
	}
	return out
}

func subjectOf(t testing.TB, h mail.Header) string {
	t.Helper()
	s, err := new(mime.WordDecoder).DecodeHeader(h.Get("Subject"))
	if err != nil {
		t.Fatalf("subject %q: %v", h.Get("Subject"), err)
	}
	return s
}

func TestBuildMessage(t *testing.T) {
	t.Parallel()
	date := time.Date(2025, 3, 4, 9, 30, 0, 0, time.UTC)
	out := &Outgoing{From: "Alex Rivera <alex@ledgerly.example>", To: []string{"Dana Ortiz <dana@acme.example>", "ops@acme.example"},
		Cc: []string{"José Núñez <jose@acme.example>"}, Bcc: []string{"crm@ledgerly.example"},
		Subject: "Re: Q3 renewal — Acme Logistics ✓", Text: "Hi Dana,\nAttached.\n", HTML: "<p>Hi Dana,</p><p>Attached.</p>",
		InReplyTo: "CAF1x@mail.acme.example", Date: date, MessageID: "<abc@ledgerly.example>"}
	raw, err := out.Build()
	if err != nil {
		t.Fatal(err)
	}
	p := parseBuilt(t, raw)
	want := map[string]string{"Date": date.Format(time.RFC1123Z), "Message-Id": "<abc@ledgerly.example>",
		"In-Reply-To": "<CAF1x@mail.acme.example>", "References": "<CAF1x@mail.acme.example>", "Mime-Version": "1.0"}
	for k, v := range want {
		if got := p.header.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	if s := subjectOf(t, p.header); s != out.Subject {
		t.Errorf("subject = %q", s)
	}
	if !strings.Contains(p.header.Get("Subject"), "=?UTF-8?B?") {
		t.Errorf("non-ASCII subject not encoded: %q", p.header.Get("Subject"))
	}
	if got := addressesOf(t, p.header, "Cc"); len(got) != 1 || got[0].Name != "José Núñez" {
		t.Errorf("cc = %v", got)
	}
	if got := addressesOf(t, p.header, "To"); len(got) != 2 || got[0].Address != "dana@acme.example" || got[1].Name != "" {
		t.Errorf("to = %v", got)
	}
	if p.text != "Hi Dana,\r\nAttached.\r\n" || p.html != out.HTML {
		t.Errorf("text = %q html = %q", p.text, p.html)
	}
}

func TestBuildRefusesHeaderInjection(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		out  Outgoing
	}{
		{"LF in subject", Outgoing{To: []string{"a@b.example"}, Subject: "hi\nBcc: victim@x.example", Text: "x"}},
		{"CRLF in subject", Outgoing{To: []string{"a@b.example"}, Subject: "hi\r\nX-Evil: 1", Text: "x"}},
		{"CR in subject", Outgoing{To: []string{"a@b.example"}, Subject: "hi\rX-Evil: 1", Text: "x"}},
		{"CRLF in to", Outgoing{To: []string{"a@b.example\r\nBcc: v@x.example"}, Text: "x"}},
		{"LF in display name", Outgoing{To: []string{"\"Eve\nBcc: v@x.example\" <a@b.example>"}, Text: "x"}},
		{"encoded CRLF in display name", Outgoing{To: []string{"=?utf-8?q?Eve=0D=0ABcc:_v@x.example?= <a@b.example>"}, Text: "x"}},
		{"NUL in subject", Outgoing{To: []string{"a@b.example"}, Subject: "a\x00b", Text: "x"}},
		{"LF in in_reply_to", Outgoing{To: []string{"a@b.example"}, InReplyTo: "<a@b>\nBcc: v@x.example", Text: "x"}},
		{"LF in references", Outgoing{To: []string{"a@b.example"}, References: []string{"<a@b>\r\nX: y"}, Text: "x"}},
		{"bad address", Outgoing{To: []string{"not an address"}, Text: "x"}},
		{"two addresses in one entry", Outgoing{To: []string{"a@b.example, c@d.example"}, Text: "x"}},
		{"bad message id", Outgoing{To: []string{"a@b.example"}, InReplyTo: "<no-at-sign>", Text: "x"}},
		{"invalid UTF-8 subject", Outgoing{To: []string{"a@b.example"}, Subject: "\xff", Text: "x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			raw, err := tt.out.Build()
			if gtmgate.ErrorCode(err) != gtmgate.EValidation {
				t.Fatalf("err = %v, want VALIDATION_ERROR; built:\n%s", err, raw)
			}
		})
	}
}

// FuzzBuild checks that any input either is refused with VALIDATION_ERROR or
// yields a message net/mail reads back with exactly the intended headers.
func FuzzBuild(f *testing.F) {
	f.Add("Dana <dana@acme.example>", "ops@acme.example", "Q3 renewal", "Hi\nthere", "", "<a@b.example>")
	f.Add("=?utf-8?q?J=C3=B6rg?= <j@x.example>", "", "Grüße aus Köln — ✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓", "body", "<b>hi</b>", "")
	f.Add("a@b.example", "\"q\\\"uote\" <c@d.example>", "  =?utf-8?q?x?= ", "x\r\ny\rz", "", "id@host")
	f.Add("a@b.example\nBcc: v@x.example", "", "hi\r\nX: y", "", "", "")
	f.Fuzz(func(t *testing.T, to, cc, subject, text, html, inReplyTo string) {
		out := &Outgoing{To: []string{to}, Subject: subject, Text: text, HTML: html, InReplyTo: inReplyTo,
			Date: time.Unix(1700000000, 0), MessageID: "<fixed@ledgerly.example>"}
		if cc != "" {
			out.Cc = []string{cc}
		}
		raw, err := out.Build()
		if err != nil {
			if gtmgate.ErrorCode(err) != gtmgate.EValidation {
				t.Fatalf("error is not VALIDATION_ERROR: %v", err)
			}
			return
		}
		p := parseBuilt(t, raw)
		wantTo, _ := mail.ParseAddress(to)
		if got := addressesOf(t, p.header, "To"); len(got) != 1 || got[0] != *wantTo {
			t.Fatalf("To = %v, want %v\n%q", got, wantTo, raw)
		}
		if cc != "" {
			wantCc, _ := mail.ParseAddress(cc)
			if got := addressesOf(t, p.header, "Cc"); len(got) != 1 || got[0] != *wantCc {
				t.Fatalf("Cc = %v, want %v\n%q", got, wantCc, raw)
			}
		}
		if got := subjectOf(t, p.header); got != subject {
			t.Fatalf("Subject = %q, want %q\n%q", got, subject, raw)
		}
		keys := make([]string, 0, len(p.header))
		for k := range p.header {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		want := []string{"Content-Transfer-Encoding", "Content-Type", "Date", "Message-Id", "Mime-Version", "Subject", "To"}
		if cc != "" {
			want = append(want, "Cc")
		}
		if inReplyTo != "" {
			want = append(want, "In-Reply-To", "References")
		}
		if html != "" {
			want = slices.DeleteFunc(want, func(s string) bool { return s == "Content-Transfer-Encoding" })
		}
		slices.Sort(want)
		if !slices.Equal(keys, want) {
			t.Fatalf("headers = %v, want %v\n%q", keys, want, raw)
		}
		for k, vs := range p.header {
			if len(vs) != 1 {
				t.Fatalf("header %s repeated: %q", k, vs)
			}
		}
		norm := func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n") }
		if html == "" && norm(p.text) != norm(text) {
			t.Fatalf("text = %q, want %q", p.text, text)
		}
		if html != "" && norm(p.html) != norm(html) {
			t.Fatalf("html = %q, want %q", p.html, html)
		}
	})
}
