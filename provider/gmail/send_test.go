package gmail

import (
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/googleapi/googleapitest"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

func TestSendThenReadBack(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	th := list(f.MustRun(t, "email_threads", `{"rationale":"r","action":"list","q":"from:ravi"}`))[0]
	thread := f.MustRun(t, "email_threads", `{"rationale":"r","action":"get","thread_id":"`+th["id"].(string)+`"}`)
	last := thread["messages"].([]any)[2].(map[string]any)
	res := f.MustRun(t, "email_send", `{"rationale":"answer the quote request","action":"send",
		"to":["Ravi Menon <ravi@heliohealth.example>"],"cc":["Jordan Lee <jordan@ledgerly.example>"],"bcc":["crm@ledgerly.example"],
		"subject":"Re: Pricing question from Helio Health — Angebot ✓","text":"Hi Ravi,\nQuote below.\n","html":"<p>Hi Ravi,</p><p>Quote below.</p>",
		"in_reply_to":"`+last["message_id"].(string)+`","thread_id":"`+th["id"].(string)+`"}`)
	if res["status"] != "sent" || res["thread_id"] != th["id"] || toStrings(res["label_ids"])[0] != "SENT" {
		t.Fatalf("result = %v", res)
	}
	m := f.readBack(t, res["id"].(string))
	want := map[string]string{"From": "alex@ledgerly.example", "In-Reply-To": last["message_id"].(string),
		"References": last["message_id"].(string), "Message-Id": res["message_id"].(string)}
	for k, v := range want {
		if got := m.Header.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	for field, wantAddr := range map[string]string{"To": "ravi@heliohealth.example", "Cc": "jordan@ledgerly.example", "Bcc": "crm@ledgerly.example"} {
		list, err := m.Header.AddressList(field)
		if err != nil || len(list) != 1 || list[0].Address != wantAddr {
			t.Errorf("%s = %v (%v)", field, list, err)
		}
	}
	if s := subjectOf(t, m.Header); s != "Re: Pricing question from Helio Health — Angebot ✓" {
		t.Errorf("subject = %q", s)
	}
	if !strings.HasPrefix(m.Header.Get("Content-Type"), "multipart/alternative") {
		t.Errorf("content type = %q", m.Header.Get("Content-Type"))
	}
	got := f.MustRun(t, "email_messages", `{"rationale":"r","action":"get","message_id":"`+res["id"].(string)+`"}`)
	if got["text"] != "Hi Ravi,\nQuote below.\n" || got["thread_id"] != th["id"] {
		t.Errorf("read back = %v", got)
	}
	after := f.MustRun(t, "email_threads", `{"rationale":"r","action":"get","thread_id":"`+th["id"].(string)+`"}`)
	if n := len(after["messages"].([]any)); n != 4 {
		t.Errorf("thread has %d messages after the reply, want 4", n)
	}
}

func TestDraft(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	res := f.MustRun(t, "email_send", `{"rationale":"prepare a follow-up for review","action":"draft",
		"to":["marco@northpeak.example"],"subject":"Security review documents","text":"Hi Marco, SOC 2 report attached."}`)
	if res["status"] != "draft" || res["draft_id"] == "" || toStrings(res["label_ids"])[0] != "DRAFT" {
		t.Fatalf("result = %v", res)
	}
	m := f.readBack(t, res["id"].(string))
	if m.Header.Get("Subject") != "Security review documents" || m.Header.Get("To") != "<marco@northpeak.example>" {
		t.Errorf("draft headers = %v", m.Header)
	}
	drafts := list(f.MustRun(t, "email_messages", `{"rationale":"r","action":"search","q":"in:drafts"}`))
	if len(drafts) != 1 || drafts[0]["id"] != res["id"] {
		t.Errorf("drafts = %v", drafts)
	}
}

func TestSendRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	tests := []struct{ name, input string }{
		{"header injection in subject", `{"rationale":"r","action":"send","to":["a@b.example"],"subject":"hi\r\nBcc: victim@x.example","text":"x"}`},
		{"header injection in to", `{"rationale":"r","action":"send","to":["a@b.example\nBcc: victim@x.example"],"subject":"hi","text":"x"}`},
		{"header injection in display name", `{"rationale":"r","action":"send","to":["=?utf-8?q?x=0ABcc:_v@x.example?= <a@b.example>"],"subject":"hi","text":"x"}`},
		{"bad address", `{"rationale":"r","action":"send","to":["dana at acme"],"subject":"hi","text":"x"}`},
		{"no body", `{"rationale":"r","action":"send","to":["a@b.example"],"subject":"hi"}`},
		{"no recipient", `{"rationale":"r","action":"send","to":[],"subject":"hi","text":"x"}`},
		{"missing subject", `{"rationale":"r","action":"send","to":["a@b.example"],"text":"x"}`},
	}
	before := f.sandbox.Requests()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := providertest.Run(t, f.Tools["email_send"], f.Account, SandboxToken, tt.input)
			if googleapitest.Code(err) != gtmgate.EValidation {
				t.Errorf("err = %v, want VALIDATION_ERROR", err)
			}
		})
	}
	if n := f.sandbox.Requests() - before; n != 0 {
		t.Errorf("%d requests reached Gmail for refused input", n)
	}
}

// TestUsageLimits: Gmail's per-user (userRateLimitExceeded) and per-project
// (rateLimitExceeded) rate limits and its daily limit come as HTTP 403
// (developers.google.com/workspace/gmail/api/reference/quota and
// …/gmail/api/guides/handle-errors, read 2026-11): RATE_LIMITED, not a
// refused token.
func TestUsageLimits(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	googleapitest.CheckUsageLimits(t, f.sandbox, f.Tools["email_messages"], f.Account, SandboxToken,
		`{"rationale":"r","action":"search","q":"from:nobody@nowhere.example"}`)
}

func TestUpstreamFaults(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	const send = `{"rationale":"r","action":"send","to":["a@b.example"],"subject":"hi","text":"x"}`
	reads := map[string]string{
		"email_messages": `{"rationale":"r","action":"search","q":"from:nobody@nowhere.example"}`,
		"email_threads":  `{"rationale":"r","action":"list"}`,
	}
	for tool, in := range reads {
		t.Run(tool+"/bad token", func(t *testing.T) { googleapitest.CheckBadToken(t, f.Tools[tool], f.Account, in) })
		t.Run(tool+"/read retried", func(t *testing.T) {
			googleapitest.CheckReadRetried(t, f.sandbox, f.Tools[tool], f.Account, SandboxToken, in)
		})
	}
	t.Run("send/bad token", func(t *testing.T) { googleapitest.CheckBadToken(t, f.Tools["email_send"], f.Account, send) })
	t.Run("send not retried", func(t *testing.T) {
		n := len(list(f.MustRun(t, "email_messages", `{"rationale":"r","action":"list","label_ids":["SENT"],"limit":100}`)))
		googleapitest.CheckNotRetried(t, f.sandbox, f.Tools["email_send"], f.Account, SandboxToken, send)
		if m := len(list(f.MustRun(t, "email_messages", `{"rationale":"r","action":"list","label_ids":["SENT"],"limit":100}`))); m != n {
			t.Errorf("sent messages %d → %d after a failed send", n, m)
		}
	})
	t.Run("400 carries Google's message", func(t *testing.T) {
		googleapitest.CheckBadRequest(t, f.Tools["email_messages"], f.Account, SandboxToken,
			`{"rationale":"r","action":"list","cursor":"not-a-token"}`, "Invalid pageToken")
	})
	t.Run("reply into an unknown thread is 404", func(t *testing.T) {
		_, err := providertest.Run(t, f.Tools["email_send"], f.Account, SandboxToken,
			`{"rationale":"r","action":"send","to":["a@b.example"],"subject":"hi","text":"x","thread_id":"zzzz"}`)
		googleapitest.UpstreamError(t, err, 404)
	})
}
