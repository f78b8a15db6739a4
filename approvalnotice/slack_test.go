package approvalnotice_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/approvalnotice"
)

// TestSlackMessage: a Slack body is an incoming-webhook message: "text"
// and "blocks" only; a mrkdwn section saying what is held, for whom, why,
// until when and who should decide, with a link button to the gate; the
// input's fields (at most ten); a context line. Markup in values is
// escaped and Block Kit's length limits hold.
func TestSlackMessage(t *testing.T) {
	g := gate(gtmgate.ApprovalPending)
	s := approvalnotice.Summarize(g, "https://gw.example")
	s.Approvers = []approvalnotice.Approver{{ID: "p_ada", Name: "Ada Approver", Email: "ada@demo.example"}, {Email: "bea@demo.example"}}
	for _, tc := range []struct {
		event string
		edit  func(*approvalnotice.Summary)
		want  []string // in the section's text
	}{
		{approvalnotice.Requested, nil, []string{"*Approval requested* in tenant `demo`", "*google_ads_campaigns.update_budget* (ads_mutate) on account `1234567890`",
			"Agent `tok_1` acting for `p_ada`", "> launch week", "Expires 2026-11-29 12:00 UTC (in 4h)", "Approvers: Ada Approver (ada@demo.example), bea@demo.example"}},
		{approvalnotice.Reminder, nil, []string{"*Reminder: approval still pending*", "(in 4h)"}},
		{approvalnotice.Decided, func(s *approvalnotice.Summary) {
			s.Status, s.DecidedBy, s.Reason = gtmgate.ApprovalRejected, "ada@demo.example", "not <this> week & not next"
		}, []string{"*Approval decided: rejected*", "*rejected* by ada@demo.example: not &lt;this&gt; week &amp; not next"}},
		{approvalnotice.Expired, nil, []string{"*Approval expired*", "Expired 2026-11-29 12:00 UTC, undecided"}},
		{approvalnotice.Requested, func(s *approvalnotice.Summary) {
			s.Rationale, s.Gate = "<!channel> move *everything*", gtmgate.GateQuality
		}, []string{"> &lt;!channel&gt; move *everything*", "(ads_mutate, held by a quality incident)"}},
	} {
		t.Run(tc.event, func(t *testing.T) {
			s := s
			if tc.edit != nil {
				tc.edit(&s)
			}
			body, err := approvalnotice.Body(gtmgate.WebhookSlack, tc.event, s, before)
			if err != nil {
				t.Fatal(err)
			}
			var msg map[string]json.RawMessage
			if err := json.Unmarshal(body, &msg); err != nil || len(msg) != 2 || msg["text"] == nil || msg["blocks"] == nil {
				t.Fatalf("not an incoming-webhook message of text and blocks: %v %s", err, body)
			}
			var m approvalnotice.Slack
			json.Unmarshal(body, &m)
			if m.Text == "" || utf8.RuneCountInString(m.Text) > 3000 || strings.Contains(m.Text, "<") {
				t.Errorf("text %q", m.Text)
			}
			if len(m.Blocks) != 3 {
				t.Fatalf("%d blocks: %s", len(m.Blocks), body)
			}
			sec := m.Blocks[0]
			if sec.Type != "section" || sec.Text == nil || sec.Text.Type != "mrkdwn" || utf8.RuneCountInString(sec.Text.Text) > 3000 {
				t.Fatalf("first block %+v", sec)
			}
			for _, w := range tc.want {
				if !strings.Contains(sec.Text.Text, w) {
					t.Errorf("section text lacks %q:\n%s", w, sec.Text.Text)
				}
			}
			if b := sec.Accessory; b == nil || b.Type != "button" || b.Text.Type != "plain_text" || b.URL != "https://gw.example/console/approvals/apr_1" ||
				utf8.RuneCountInString(b.Text.Text) > 75 {
				t.Errorf("accessory %+v, want a link button to the gate", sec.Accessory)
			}
			fields := m.Blocks[1]
			if fields.Type != "section" || len(fields.Fields) != 4 || fields.Fields[0].Type != "mrkdwn" || fields.Fields[0].Text != "*action*\nupdate_budget" ||
				fields.Fields[1].Text != "*amount*\n150" {
				t.Errorf("fields block %+v", fields)
			}
			if c := m.Blocks[2]; c.Type != "context" || len(c.Elements) != 1 || !strings.Contains(c.Elements[0].Text, "Gate `apr_1` · policy `pol_123456789abc`") {
				t.Errorf("context block %+v", c)
			}
		})
	}
	// Many fields: ten at most, each within its limit.
	s.Fields = map[string]any{}
	for i := range 14 {
		s.Fields[fmt.Sprintf("f%02d", i)] = strings.Repeat("é", 2500)
	}
	m := approvalnotice.SlackMessage(approvalnotice.Requested, s, before)
	if n := len(m.Blocks[1].Fields); n != 10 {
		t.Errorf("%d fields, want at most 10", n)
	}
	for _, f := range m.Blocks[1].Fields {
		if utf8.RuneCountInString(f.Text) > 2000 {
			t.Errorf("a field of %d characters", utf8.RuneCountInString(f.Text))
		}
	}
}

// TestStandardBody: the standard body is the Standard Webhooks envelope
// the alert webhook gets, approvers included.
func TestStandardBody(t *testing.T) {
	s := approvalnotice.Summarize(gate(gtmgate.ApprovalPending), "https://gw.example")
	body, err := approvalnotice.Body(gtmgate.WebhookStandard, approvalnotice.Reminder, s, before)
	if err != nil {
		t.Fatal(err)
	}
	var env map[string]any
	json.Unmarshal(body, &env)
	data, _ := env["data"].(map[string]any)
	if env["type"] != "approval.reminder" || env["timestamp"] != before.Format(time.RFC3339) || data["id"] != "apr_1" || data["approvers"] == nil {
		t.Errorf("envelope %s", body)
	}
	if _, err := approvalnotice.Body("teams", approvalnotice.Requested, s, before); err == nil {
		t.Error("an unknown format was accepted")
	}
}
