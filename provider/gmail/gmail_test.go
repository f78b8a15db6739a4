package gmail

import (
	"bytes"
	"net/mail"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/provider/apispec/spectest"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/googleapi/googleapitest"
	"github.com/gtmgate/gtmgate/provider/providertest"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

type fixture struct {
	providertest.Kit
	sandbox *Sandbox
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	sb := NewSandbox()
	url := providertest.Serve(t, sb)
	tools := Tools(upstream.MustNew(Options(url)))
	return &fixture{Kit: providertest.NewKit(tools, sb.Accounts[0], SandboxToken), sandbox: sb.Handler.(*Sandbox)}
}

func list(res map[string]any) []map[string]any {
	var out []map[string]any
	for _, v := range res["items"].([]any) {
		out = append(out, v.(map[string]any))
	}
	return out
}

func TestListAndSearch(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	tests := []struct {
		name, input string
		want        int
		check       func(m map[string]any) bool
	}{
		{"list all", `{"rationale":"r","action":"list","limit":100}`, 19, nil},
		{"label_ids", `{"rationale":"r","action":"list","label_ids":["UNREAD"]}`, 3, nil},
		{"search from", `{"rationale":"r","action":"search","q":"from:dana.ortiz@acmelogistics.example"}`, 2,
			func(m map[string]any) bool { return strings.Contains(m["from"].(string), "Dana Ortiz") }},
		{"search attachment", `{"rationale":"r","action":"search","q":"has:attachment"}`, 2, nil},
		{"search free text and label", `{"rationale":"r","action":"search","q":"label:deals security"}`, 1, nil},
		{"filter EQ subject", `{"rationale":"r","action":"list","filter":{"property":"subject","operator":"EQ","value":"Q3 renewal"}}`, 3,
			func(m map[string]any) bool { return strings.Contains(m["subject"].(string), "Q3 renewal") }},
		{"filter NEQ label", `{"rationale":"r","action":"list","limit":100,"filter":{"property":"label","operator":"NEQ","value":"INBOX"}}`, 7,
			func(m map[string]any) bool {
				return !strings.Contains(strings.Join(toStrings(m["label_ids"]), ","), "INBOX")
			}},
		{"filter has attachment", `{"rationale":"r","action":"list","filter":{"property":"attachment","operator":"HAS_PROPERTY"}}`, 2, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			items := list(f.MustRun(t, "email_messages", tt.input))
			if len(items) != tt.want {
				t.Fatalf("got %d messages, want %d: %v", len(items), tt.want, items)
			}
			for i, m := range items {
				if m["id"] == "" || m["subject"] == nil || m["date"] == nil || m["text"] != nil {
					t.Errorf("summary = %v", m)
				}
				if i > 0 && m["date"].(string) > items[i-1]["date"].(string) {
					t.Errorf("not newest first")
				}
				if tt.check != nil && !tt.check(m) {
					t.Errorf("message %v fails the check", m)
				}
			}
		})
	}
	_, err := providertest.Run(t, f.Tools["email_messages"], f.Account, SandboxToken, `{"rationale":"r","action":"search"}`)
	if googleapitest.Code(err) != gtmgate.EValidation {
		t.Errorf("search without q: %v", err)
	}
	_, err = providertest.Run(t, f.Tools["email_messages"], f.Account, SandboxToken, `{"rationale":"r","action":"list","filter":{"property":"body","operator":"EQ","value":"x"}}`)
	if googleapitest.Code(err) != gtmgate.EValidation {
		t.Errorf("filter on body: %v", err)
	}
}

func toStrings(v any) []string {
	var out []string
	for _, s := range v.([]any) {
		out = append(out, s.(string))
	}
	return out
}

func TestPaging(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	seen := map[string]bool{}
	cursor := ""
	for range 10 {
		in := `{"rationale":"r","action":"list","limit":7`
		if cursor != "" {
			in += `,"cursor":"` + cursor + `"`
		}
		res := f.MustRun(t, "email_messages", in+"}")
		for _, m := range list(res) {
			seen[m["id"].(string)] = true
		}
		cursor, _ = res["next_cursor"].(string)
		if cursor == "" {
			break
		}
	}
	if len(seen) != 19 {
		t.Errorf("paged through %d distinct messages, want 19", len(seen))
	}
}

func TestGetDecodesMIME(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	find := func(q string) string {
		items := list(f.MustRun(t, "email_messages", `{"rationale":"r","action":"search","q":"`+q+`"}`))
		if len(items) != 1 {
			t.Fatalf("search %s: %d hits", q, len(items))
		}
		return items[0]["id"].(string)
	}
	tests := []struct {
		name, q string
		check   func(m map[string]any) bool
	}{
		{"plain text with attachment", "filename:pipeline_w32.csv", func(m map[string]any) bool {
			a := m["attachments"].([]any)[0].(map[string]any)
			return strings.HasPrefix(m["text"].(string), "Notes from today's pipeline review") && a["filename"] == "pipeline_w32.csv" &&
				a["mime_type"] == "text/csv" && a["size"].(float64) > 0
		}},
		{"HTML only falls back to text", "from:marco subject:demo", func(m map[string]any) bool {
			txt := m["text"].(string)
			return strings.Contains(txt, "Next step: a security review.") && strings.Contains(txt, "- SOC 2 report") && !strings.Contains(txt, "margin")
		}},
		{"alternative prefers text/plain", "to:marco", func(m map[string]any) bool {
			return strings.Contains(m["text"].(string), "https://ledgerly.example/r/northpeak") && !strings.Contains(m["text"].(string), "<p>")
		}},
		{"headers", "from:priya OR cc:priya", func(m map[string]any) bool {
			return strings.Contains(m["cc"].(string), "Priya Shah") && strings.Contains(m["cc"].(string), "<priya.shah@acmelogistics.example>") && m["subject"] == "Re: Q3 renewal — Acme Logistics" &&
				strings.HasPrefix(m["in_reply_to"].(string), "<seed-") && m["message_id"] != ""
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := tt.q
			if strings.Contains(q, " OR ") {
				q = "cc:priya"
			}
			m := f.MustRun(t, "email_messages", `{"rationale":"r","action":"get","message_id":"`+find(q)+`"}`)
			if !tt.check(m) {
				t.Errorf("message = %v", m)
			}
		})
	}
	_, err := providertest.Run(t, f.Tools["email_messages"], f.Account, SandboxToken, `{"rationale":"r","action":"get","message_id":"ffff"}`)
	googleapitest.UpstreamError(t, err, 404)
}

func TestThreads(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	threads := list(f.MustRun(t, "email_threads", `{"rationale":"r","action":"list","limit":100}`))
	if len(threads) != 8 {
		t.Fatalf("threads = %d, want 8", len(threads))
	}
	hits := list(f.MustRun(t, "email_threads", `{"rationale":"r","action":"list","q":"acme"}`))
	if len(hits) == 0 {
		t.Fatal("no thread matches acme")
	}
	th := f.MustRun(t, "email_threads", `{"rationale":"r","action":"get","thread_id":"`+hits[0]["id"].(string)+`"}`)
	msgs := th["messages"].([]any)
	if len(msgs) != 3 {
		t.Fatalf("thread messages = %d", len(msgs))
	}
	first := msgs[0].(map[string]any)
	if !strings.Contains(first["subject"].(string), "Q3 renewal") || first["text"] == "" {
		t.Errorf("first message = %v", first)
	}
	_, err := providertest.Run(t, f.Tools["email_threads"], f.Account, SandboxToken, `{"rationale":"r","action":"get","thread_id":"../labels"}`)
	if googleapitest.Code(err) != gtmgate.EValidation {
		t.Errorf("path-like thread id: %v", err)
	}
}

// readBack parses the raw message the sandbox stored.
func (f *fixture) readBack(t *testing.T, id string) *mail.Message {
	t.Helper()
	raw, ok := f.sandbox.Raw("me", id)
	if !ok {
		t.Fatalf("message %s not in the sandbox mailbox", id)
	}
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("stored message does not parse: %v", err)
	}
	return m
}

func TestMain(m *testing.M) { spectest.Main(m) }
