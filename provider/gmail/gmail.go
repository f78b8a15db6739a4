// Package gmail adapts the Gmail API v1 as the tools of the "email" domain:
// email_messages (list, get, search), email_threads (list, get) and
// email_send (send, draft). The account id is the mailbox: "me" (the
// token's own mailbox) or an address the token may act for; it is the
// API's userId path segment.
//
// Categories: send is email_send; draft is content_generate (it writes
// copy but sends nothing); reading messages and threads is crm_read, the
// rubric's read category closest to reading a customer inbox (no rubric
// category is specific to mail reads).
//
// Results: list actions return {"items": [...], "next_cursor"}; a message
// is {id, thread_id, label_ids, from, to, cc, subject, date (RFC 3339),
// message_id, snippet, text, attachments [{filename, mime_type, size}]}:
// text is the text/plain body, or the text/html body converted to text.
package gmail

import (
	"net/mail"
	"net/url"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/googleapi"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// Provider is the provider key of Gmail accounts and tokens.
const Provider = "gmail"

// DefaultBaseURL is the Gmail API root.
const DefaultBaseURL = "https://gmail.googleapis.com"

// Options returns the upstream client options for the Gmail at baseURL:
// OAuth bearer token, and Google's usage limits (sent as 403 as well as 429)
// read as RATE_LIMITED rather than a refused token.
func Options(baseURL string) upstream.Options {
	return upstream.Options{Provider: Provider, BaseURL: baseURL, Classify: googleapi.Classify}
}

// Tools returns the Gmail tools calling the API through c.
func Tools(c *upstream.Client) []gtmgate.Tool {
	return []gtmgate.Tool{messagesTool(c), threadsTool(c), sendTool(c)}
}

// userPath returns "/gmail/{version}/users/{userId}" for the call's mailbox.
func userPath(version string, acct gtmgate.Account) (string, error) {
	id := acct.ID
	if id != "me" {
		a, err := mail.ParseAddress(id)
		if err != nil || a.Address != id || a.Name != "" {
			return "", gtmgate.Errorf(gtmgate.EValidation, "gmail: account %q is not a mailbox", id).
				WithHint(`use "me" or the mailbox's email address`)
		}
	}
	return "/gmail/" + version + "/users/" + url.PathEscape(id), nil
}

// sender is the From address for mail sent from the account, empty for
// "me" (Gmail fills in the authenticated user).
func sender(acct gtmgate.Account) string {
	if strings.Contains(acct.ID, "@") {
		return acct.ID
	}
	return ""
}

// idPattern is the shape of Gmail message, thread and draft ids.
func validID(kind, id string) error {
	if id == "" || len(id) > 64 || strings.Trim(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") != "" {
		return gtmgate.Errorf(gtmgate.EValidation, "gmail: %s %q is not a Gmail id", kind, id)
	}
	return nil
}
