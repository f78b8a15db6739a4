package gmail

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

type sendInput struct {
	To         []string `json:"to"`
	Cc         []string `json:"cc"`
	Bcc        []string `json:"bcc"`
	Subject    string   `json:"subject"`
	Text       string   `json:"text"`
	HTML       string   `json:"html"`
	InReplyTo  string   `json:"in_reply_to"`
	References []string `json:"references"`
	ThreadID   string   `json:"thread_id"`
}

// SendResult is the result of email_send. MessageID is the Message-ID header
// Gmail stored, read back after the send or draft: Gmail sets its own on the
// messages it sends, so the one written into the raw message is not the one
// recipients see or that in_reply_to must name. When the read-back fails the
// message is still sent (or saved): MessageID is empty and Warning says so,
// rather than failing a send an agent might then repeat.
type SendResult struct {
	Status    string   `json:"status"`
	ID        string   `json:"id"`
	ThreadID  string   `json:"thread_id"`
	DraftID   string   `json:"draft_id,omitempty"`
	LabelIDs  []string `json:"label_ids,omitempty"`
	MessageID string   `json:"message_id"`
	Warning   string   `json:"warning,omitempty"`
}

func sendTool(c *upstream.Client) gtmgate.Tool {
	addrs := func() *jsonschema.Schema {
		return &jsonschema.Schema{Type: "array", MaxItems: jsonschema.Ptr(maxRecipients),
			Items: &jsonschema.Schema{Type: "string", MinLength: jsonschema.Ptr(3), MaxLength: jsonschema.Ptr(maxAddressLen)}}
	}
	return gtmgate.Tool{
		Name: "email_send", Domain: "email", Provider: Provider, Title: "Send Gmail",
		Description: "Send an email from Gmail or save a draft. To reply, pass thread_id and in_reply_to (the answered message_id) " +
			"and keep the subject.",
		Actions: []gtmgate.Action{
			{Name: "send", Description: "send the email now", Category: gtmgate.CategoryEmailSend, Mutating: true, Additive: true, Required: []string{"to", "subject"}},
			{Name: "draft", Description: "save it as a Gmail draft, nothing is sent", Category: gtmgate.CategoryContentGenerate, Mutating: true, Additive: true},
		},
		Properties: map[string]*jsonschema.Schema{
			"to":          addrs(),
			"cc":          addrs(),
			"bcc":         addrs(),
			"subject":     {Type: "string", MaxLength: jsonschema.Ptr(maxSubjectLen)},
			"text":        {Type: "string", MaxLength: jsonschema.Ptr(200000)},
			"html":        {Type: "string", MaxLength: jsonschema.Ptr(500000)},
			"in_reply_to": {Type: "string", MaxLength: jsonschema.Ptr(250)},
			"references": {Type: "array", MaxItems: jsonschema.Ptr(50),
				Items: &jsonschema.Schema{Type: "string", MaxLength: jsonschema.Ptr(250)}},
			"thread_id": {Type: "string"},
		},
		Run: func(ctx context.Context, call *gtmgate.Call) (any, error) { return runSend(ctx, c, call) },
	}
}

func runSend(ctx context.Context, c *upstream.Client, call *gtmgate.Call) (any, error) {
	var in sendInput
	if err := call.Bind(&in); err != nil {
		return nil, err
	}
	user, err := userPath(c.APIVersion(), call.Account)
	if err != nil {
		return nil, err
	}
	if call.Action.Name == "send" && len(in.To)+len(in.Cc)+len(in.Bcc) == 0 {
		return nil, invalid("to is required to send")
	}
	if in.Text == "" && in.HTML == "" {
		return nil, invalid("text or html is required")
	}
	if in.ThreadID != "" {
		if err := validID("thread_id", in.ThreadID); err != nil {
			return nil, err
		}
	}
	out := &Outgoing{From: sender(call.Account), To: in.To, Cc: in.Cc, Bcc: in.Bcc, Subject: in.Subject,
		Text: in.Text, HTML: in.HTML, InReplyTo: in.InReplyTo, References: in.References}
	out.MessageID = newMessageID(out.From)
	raw, err := out.Build()
	if err != nil {
		return nil, err
	}
	msg := sendRequest{Raw: base64.URLEncoding.EncodeToString(raw), ThreadID: in.ThreadID}
	if call.Action.Name == "draft" {
		var d Draft
		if err := c.Do(ctx, &upstream.Request{Method: http.MethodPost, Path: user + "/drafts", JSON: draftRequest{Message: msg},
			Mutating: true, Token: call.Token}, &d); err != nil {
			return nil, fmt.Errorf("gmail: create draft: %w", err)
		}
		res := SendResult{Status: "draft", ID: d.Message.ID, ThreadID: d.Message.ThreadID, DraftID: d.ID, LabelIDs: d.Message.LabelIDs}
		res.MessageID, res.Warning = storedDraftMessageID(ctx, c, call, user, d.ID)
		return res, nil
	}
	var m Message
	if err := c.Do(ctx, &upstream.Request{Method: http.MethodPost, Path: user + "/messages/send", JSON: msg,
		Mutating: true, Token: call.Token}, &m); err != nil {
		return nil, fmt.Errorf("gmail: send message: %w", err)
	}
	res := SendResult{Status: "sent", ID: m.ID, ThreadID: m.ThreadID, LabelIDs: m.LabelIDs}
	res.MessageID, res.Warning = storedMessageID(ctx, c, call, user, m.ID)
	return res, nil
}

// storedMessageID reads the Message-ID header Gmail stored for message id
// (users.messages.get, format=metadata, metadataHeaders=Message-ID), or
// returns a warning when it cannot.
func storedMessageID(ctx context.Context, c *upstream.Client, call *gtmgate.Call, user, id string) (string, string) {
	var m Message
	err := c.Do(ctx, &upstream.Request{Method: http.MethodGet, Path: user + "/messages/" + url.PathEscape(id),
		Query: url.Values{"format": {"metadata"}, "metadataHeaders": {"Message-ID"}}, Token: call.Token}, &m)
	return messageIDOf(&m, err)
}

// storedDraftMessageID reads the Message-ID header of draft id's message
// (users.drafts.get, format=metadata: drafts.get takes no metadataHeaders,
// so every header comes back).
func storedDraftMessageID(ctx context.Context, c *upstream.Client, call *gtmgate.Call, user, id string) (string, string) {
	var d Draft
	err := c.Do(ctx, &upstream.Request{Method: http.MethodGet, Path: user + "/drafts/" + url.PathEscape(id),
		Query: url.Values{"format": {"metadata"}}, Token: call.Token}, &d)
	return messageIDOf(&d.Message, err)
}

func messageIDOf(m *Message, err error) (string, string) {
	const unknown = "the message was stored but its Message-ID could not be read back"
	if err != nil {
		return "", unknown + ": " + err.Error()
	}
	if id := decodeMessage(m, false).MessageID; id != "" {
		return id, ""
	}
	return "", unknown + ": Gmail returned no Message-ID header"
}
