package gtmgate

import (
	"cmp"
	"encoding/json"
	"net/url"
	"slices"
)

// Formats of an approval route's webhook.
const (
	// WebhookStandard is the Standard Webhooks message the alert webhook
	// gets: {"type", "timestamp", "data"}.
	WebhookStandard = "standard"
	// WebhookSlack is a Slack incoming-webhook message: {"text", "blocks"}.
	WebhookSlack = "slack"
)

// ApprovalRoute picks where the notices of the gates it matches go and
// whom they name as approvers. It matches a gate whose category is one of
// Categories or whose tool is one of Tools; a route with neither matches
// every gate. A gate's notices follow the first route of the policy that
// matches it; a gate no route matches goes to the alert webhook.
type ApprovalRoute struct {
	Categories []string `json:"categories,omitempty"`
	Tools      []string `json:"tools,omitempty"`
	// Approvers are the people ("p_…") the notices name; none: the
	// tenant's people whose grants let them decide the gate.
	Approvers []string `json:"approvers,omitempty"`
	// Webhooks receive the notices, each once; none: the alert webhook.
	Webhooks []ApprovalWebhook `json:"webhooks,omitempty"`
}

// Matches reports whether the route applies to a gate of category held
// on tool.
func (r ApprovalRoute) Matches(category, tool string) bool {
	if len(r.Categories) == 0 && len(r.Tools) == 0 {
		return true
	}
	return slices.Contains(r.Categories, category) || slices.Contains(r.Tools, tool)
}

// Route returns the first of the policy's routes that matches a gate of
// category held on tool.
func (p *ApprovalPolicy) Route(category, tool string) (ApprovalRoute, bool) {
	if p == nil {
		return ApprovalRoute{}, false
	}
	for _, r := range p.Routes {
		if r.Matches(category, tool) {
			return r, true
		}
	}
	return ApprovalRoute{}, false
}

// Webhook returns the route webhook of the policy whose ID is id.
func (p *ApprovalPolicy) Webhook(id string) (ApprovalWebhook, bool) {
	if p == nil || id == "" {
		return ApprovalWebhook{}, false
	}
	for _, r := range p.Routes {
		for _, w := range r.Webhooks {
			if w.ID == id {
				return w, true
			}
		}
	}
	return ApprovalWebhook{}, false
}

// ApprovalWebhook is an endpoint a route's notices are posted to. Its URL
// may carry a credential (a Slack incoming webhook's path does) and its
// Secret signs each message, so both are sealed at rest, and a webhook
// encoded as JSON shows the URL's scheme and host only, never the secret:
// what a tenant's configuration shows, an audit entry or a log line cannot
// leak either.
type ApprovalWebhook struct {
	// ID names the endpoint ("whk_…"). A replace of the tenant's
	// configuration that gives the ID keeps its URL and secret unless it
	// gives new ones.
	ID string `json:"id"`
	// URL is https, or http to a loopback host.
	URL string `json:"url"`
	// Format is WebhookStandard (the default) or WebhookSlack.
	Format string `json:"format"`
	// Secret signs every message with the Standard Webhooks headers,
	// whatever the format: given ("whsec_…", or 16 characters or more), or
	// generated when the endpoint is created and shown once.
	Secret string `json:"secret,omitempty"`
}

// MarshalJSON writes the webhook with its URL redacted and without its
// secret.
func (w ApprovalWebhook) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		ID     string `json:"id"`
		URL    string `json:"url"`
		Format string `json:"format"`
	}{w.ID, RedactURL(w.URL), cmp.Or(w.Format, WebhookStandard)})
}

// RedactedSuffix ends a redacted URL.
const RedactedSuffix = "/…"

// RedactURL shows a URL as its scheme and host followed by "/…" ("" for
// none): its user, path and query may hold a credential.
func RedactURL(raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "…"
	}
	return u.Scheme + "://" + u.Host + RedactedSuffix
}
