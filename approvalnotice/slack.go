package approvalnotice

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/webhook"
)

// Body is the message of a notice of event about the gate s summarises,
// in format: the Standard Webhooks envelope {type, timestamp, data}, or a
// Slack incoming-webhook message.
func Body(format, event string, s Summary, now time.Time) ([]byte, error) {
	switch format {
	case gtmgate.WebhookStandard, "":
		return json.Marshal(webhook.Envelope{Type: event, Timestamp: now.UTC(), Data: s})
	case gtmgate.WebhookSlack:
		return json.Marshal(SlackMessage(event, s, now))
	}
	return nil, fmt.Errorf("approval notice: unknown webhook format %q", format)
}

// Slack's incoming webhooks take a message as JSON with "text" (the
// notification and fallback, mrkdwn) and "blocks" (what the channel shows)
// (https://api.slack.com/messaging/webhooks). Block Kit's limits followed
// here: a section's mrkdwn text holds 1 to 3000 characters and one
// accessory, its "fields" at most 10 texts of up to 2000
// (https://docs.slack.dev/reference/block-kit/blocks/section-block); a
// button's plain_text label up to 75 characters, its url up to 3000
// (https://docs.slack.dev/reference/block-kit/block-elements/button-element);
// &, < and > in text are escaped as &amp; &lt; &gt;
// (https://docs.slack.dev/messaging/formatting-message-text).

// Slack is a Slack incoming-webhook message.
type Slack struct {
	Text   string       `json:"text"`
	Blocks []SlackBlock `json:"blocks"`
}

// SlackBlock is a Block Kit block: a section (text, fields, accessory) or
// a context (elements).
type SlackBlock struct {
	Type      string       `json:"type"`
	Text      *SlackText   `json:"text,omitempty"`
	Fields    []SlackText  `json:"fields,omitempty"`
	Accessory *SlackButton `json:"accessory,omitempty"`
	Elements  []SlackText  `json:"elements,omitempty"`
}

// SlackText is a Block Kit text object: mrkdwn or plain_text.
type SlackText struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// SlackButton is a link button: opening it needs no Slack app.
type SlackButton struct {
	Type string    `json:"type"`
	Text SlackText `json:"text"`
	URL  string    `json:"url"`
}

// Block Kit's limits.
const (
	slackSectionChars = 3000
	slackFieldChars   = 2000
	slackFields       = 10
)

// SlackMessage describes the gate s summarises for a Slack channel: what
// happened, the tool's action and account, the agent and the person it
// acts for, the rationale, when it expires, who should decide, the input's
// fields, and a button to the gate on the console.
func SlackMessage(event string, s Summary, now time.Time) Slack {
	head := headline(event, s)
	var b strings.Builder
	fmt.Fprintf(&b, "*%s* in tenant `%s`\n", esc(head), esc(s.TenantID))
	fmt.Fprintf(&b, "*%s.%s* (%s", esc(s.Tool), esc(s.Action), esc(s.Category))
	if s.Gate == gtmgate.GateQuality {
		b.WriteString(", held by a quality incident")
	}
	b.WriteString(")")
	if s.AccountID != "" {
		fmt.Fprintf(&b, " on account `%s`", esc(s.AccountID))
	}
	b.WriteString("\n")
	if s.Agent != "" {
		fmt.Fprintf(&b, "Agent `%s`", esc(s.Agent))
		if s.Person != "" {
			fmt.Fprintf(&b, " acting for `%s`", esc(s.Person))
		}
		b.WriteString("\n")
	}
	if s.Rationale != "" {
		fmt.Fprintf(&b, "> %s\n", esc(strings.ReplaceAll(s.Rationale, "\n", " ")))
	}
	switch event {
	case Decided:
		fmt.Fprintf(&b, "*%s* by %s", esc(s.Status), esc(s.DecidedBy))
		if s.Reason != "" {
			fmt.Fprintf(&b, ": %s", esc(s.Reason))
		}
		b.WriteString("\n")
	case Expired:
		fmt.Fprintf(&b, "Expired %s, undecided\n", s.ExpiresAt.UTC().Format("2006-01-02 15:04 MST"))
	default:
		fmt.Fprintf(&b, "Expires %s (in %s)\n", s.ExpiresAt.UTC().Format("2006-01-02 15:04 MST"), until(s.ExpiresAt, now))
	}
	if len(s.Approvers) > 0 {
		fmt.Fprintf(&b, "Approvers: %s\n", esc(approverNames(s.Approvers)))
	}
	section := SlackBlock{Type: "section", Text: &SlackText{Type: "mrkdwn", Text: cutTo(strings.TrimSuffix(b.String(), "\n"), slackSectionChars)}}
	if s.URL != "" {
		section.Accessory = &SlackButton{Type: "button", Text: SlackText{Type: "plain_text", Text: "Open on the console"}, URL: s.URL}
	}
	blocks := []SlackBlock{section}
	if len(s.Fields) > 0 {
		fields := SlackBlock{Type: "section"}
		for _, k := range slices.Sorted(maps.Keys(s.Fields)) {
			if len(fields.Fields) == slackFields {
				break
			}
			v, ok := s.Fields[k].(string)
			if !ok {
				b, _ := json.Marshal(s.Fields[k])
				v = string(b)
			}
			fields.Fields = append(fields.Fields, SlackText{Type: "mrkdwn", Text: cutTo("*"+esc(k)+"*\n"+esc(v), slackFieldChars)})
		}
		blocks = append(blocks, fields)
	}
	context := "Gate `" + esc(s.ID) + "`"
	if s.PolicyVersion != "" {
		context += " · policy `" + esc(s.PolicyVersion) + "`"
	}
	if s.Digest != "" {
		context += " · digest `" + esc(s.Digest) + "`"
	}
	blocks = append(blocks, SlackBlock{Type: "context", Elements: []SlackText{{Type: "mrkdwn", Text: cutTo(context, slackSectionChars)}}})
	text := fmt.Sprintf("%s: %s.%s in %s", head, s.Tool, s.Action, s.TenantID)
	if len(s.Approvers) > 0 && event != Decided && event != Expired {
		text += " — approvers: " + approverNames(s.Approvers)
	}
	return Slack{Text: cutTo(esc(text), slackSectionChars), Blocks: blocks}
}

// headline says what happened to the gate.
func headline(event string, s Summary) string {
	switch event {
	case Requested:
		return "Approval requested"
	case Reminder:
		return "Reminder: approval still pending"
	case Decided:
		return "Approval decided: " + s.Status
	case Expired:
		return "Approval expired"
	}
	return event
}

// approverNames lists approvers as "Name <email>", or whichever they have.
func approverNames(as []Approver) string {
	names := make([]string, len(as))
	for i, a := range as {
		switch {
		case a.Name != "" && a.Email != "":
			names[i] = a.Name + " (" + a.Email + ")"
		case a.Email != "":
			names[i] = a.Email
		case a.Name != "":
			names[i] = a.Name
		default:
			names[i] = a.ID
		}
	}
	return strings.Join(names, ", ")
}

// until is the time left before t, to the minute ("4h48m", "4h", "12m").
func until(t, now time.Time) string {
	d := t.Sub(now).Round(time.Minute)
	h, m := d/time.Hour, d%time.Hour/time.Minute
	switch {
	case d < time.Minute:
		return "under a minute"
	case h == 0:
		return fmt.Sprintf("%dm", m)
	case m == 0:
		return fmt.Sprintf("%dh", h)
	}
	return fmt.Sprintf("%dh%dm", h, m)
}

// esc escapes the three characters Slack reads as markup.
func esc(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// cutTo cuts s to n characters.
func cutTo(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
