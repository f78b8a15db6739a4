package gmail

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"net/mail"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/provider/providertest"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// TestResultCarriesStoredMessageID: Gmail sets its own Message-ID on what it
// sends or saves, so email_send must return the stored one, not the one it
// wrote into the raw message.
func TestResultCarriesStoredMessageID(t *testing.T) {
	t.Parallel()
	for _, action := range []string{"send", "draft"} {
		t.Run(action, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			res := f.MustRun(t, "email_send", `{"rationale":"r","action":"`+action+`","to":["dana@acme.example"],"subject":"hi","text":"x"}`)
			stored := f.readBack(t, res["id"].(string)).Header.Get("Message-Id")
			if !strings.HasSuffix(stored, "@mail.gmail.com>") {
				t.Fatalf("sandbox stored Message-ID %q, want one of its own", stored)
			}
			if res["message_id"] != stored || res["warning"] != nil {
				t.Errorf("message_id = %v (warning %v), want the stored %q", res["message_id"], res["warning"], stored)
			}
			got := f.MustRun(t, "email_messages", `{"rationale":"r","action":"get","message_id":"`+res["id"].(string)+`"}`)
			if got["message_id"] != res["message_id"] {
				t.Errorf("email_messages get message_id = %v, want %v", got["message_id"], res["message_id"])
			}
		})
	}
}

// TestSentEvenWhenReadBackFails: the send is not reported as failed (and so
// not repeated by the agent) when only reading its Message-ID back fails.
func TestSentEvenWhenReadBackFails(t *testing.T) {
	t.Parallel()
	sb := NewSandbox()
	inner := sb.Handler.(*Sandbox)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.Contains(r.URL.Path, "/messages/") {
			http.Error(w, `{"error":{"code":503,"message":"Backend Error","status":"UNAVAILABLE"}}`, http.StatusServiceUnavailable)
			return
		}
		inner.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	tools := Tools(upstream.MustNew(upstream.Options{Provider: Provider, BaseURL: srv.URL, Backoff: time.Millisecond}))
	kit := providertest.NewKit(tools, sb.Accounts[0], SandboxToken)
	res := kit.MustRun(t, "email_send", `{"rationale":"r","action":"send","to":["dana@acme.example"],"subject":"hi","text":"x"}`)
	if res["status"] != "sent" || res["id"] == "" || res["message_id"] != "" || !strings.Contains(res["warning"].(string), "could not be read back") {
		t.Errorf("result = %v, want sent with no message_id and a warning", res)
	}
	if _, ok := inner.Raw("me", res["id"].(string)); !ok {
		t.Error("the message was not stored")
	}
}

func TestWithMessageID(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, raw string }{
		{"replaced", "From: a@b.example\r\nMessage-ID: <old@gtmgate.local>\r\nSubject: hi\r\n\r\nbody\r\n"},
		{"folded", "From: a@b.example\r\nmessage-id:\r\n <old@gtmgate.local>\r\nSubject: hi\r\n\r\nbody\r\n"},
		{"last header", "From: a@b.example\r\nSubject: hi\r\nMessage-Id: <old@gtmgate.local>\r\n\r\nbody\r\n"},
		{"absent, LF only", "From: a@b.example\nSubject: hi\n\nbody\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m, err := mail.ReadMessage(bytes.NewReader(withMessageID([]byte(tt.raw), "<new@mail.gmail.com>")))
			if err != nil {
				t.Fatal(err)
			}
			if ids := m.Header["Message-Id"]; len(ids) != 1 || ids[0] != "<new@mail.gmail.com>" {
				t.Errorf("Message-ID = %q", ids)
			}
			if m.Header.Get("Subject") != "hi" || m.Header.Get("From") != "a@b.example" {
				t.Errorf("headers = %v", m.Header)
			}
			var body bytes.Buffer
			body.ReadFrom(m.Body)
			if body.String() != "body\r\n" {
				t.Errorf("body = %q", body.String())
			}
		})
	}
}
