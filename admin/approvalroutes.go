package admin

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/egress"
	"github.com/gtmgate/gtmgate/secret"
)

// Bounds of an approval policy's routes.
const (
	maxRoutes         = 20
	maxRouteMatches   = 50 // categories, and tools, of one route
	maxRouteApprovers = 20
	maxRouteWebhooks  = 5
	maxWebhookURL     = 2048
)

// invalid is the VALIDATION_ERROR of a route's configuration.
func invalid(format string, args ...any) *gtmgate.Error {
	return gtmgate.Errorf(gtmgate.EValidation, format, args...)
}

// WebhookSecret is the signing secret of an approval route webhook that a
// replace of the tenant created: its answer is the only place it is shown.
type WebhookSecret struct {
	ID string `json:"id"`
	// URL is the webhook's URL redacted to its scheme and host.
	URL    string `json:"url"`
	Secret string `json:"secret"`
}

// approvalRoutes checks the routes of p, the approval policy a replace of
// tenantID gives, and completes them: approvers named by email become
// their ids; a webhook given by id keeps its stored URL and secret unless
// new ones are given; a new webhook gets an id and, without a secret of
// its own, a generated one, returned to be shown once. Its errors never
// repeat a webhook's URL or secret.
func (h *Handler) approvalRoutes(ctx context.Context, tenantID string, p *gtmgate.ApprovalPolicy) ([]WebhookSecret, error) {
	if p == nil || len(p.Routes) == 0 {
		return nil, nil
	}
	if p.Categories == nil && p.Actions == nil && !p.Destructive {
		// A policy of routes alone would replace the default with one that
		// holds nothing.
		return nil, invalid("approval_policy has routes but says nothing of what is held: it replaces the default policy, so give its categories, " +
			`actions or destructive too (the default: "categories": ["ads_mutate", "email_send"], "destructive": true), or "categories": [] to hold nothing`)
	}
	if len(p.Routes) > maxRoutes {
		return nil, invalid("approval_policy.routes holds %d routes, at most %d are allowed", len(p.Routes), maxRoutes)
	}
	stored, err := h.storedWebhooks(ctx, tenantID)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var made []WebhookSecret
	for i := range p.Routes {
		r := &p.Routes[i]
		field := fmt.Sprintf("approval_policy.routes[%d]", i)
		if err := h.checkRouteMatch(field, r); err != nil {
			return nil, err
		}
		if len(r.Approvers) > maxRouteApprovers {
			return nil, invalid("%s.approvers names %d people, at most %d are allowed", field, len(r.Approvers), maxRouteApprovers)
		}
		var approvers []string
		for j, ref := range r.Approvers {
			person, err := gtmgate.PersonOfTenant(ctx, h.opts.Store, tenantID, fmt.Sprintf("%s.approvers[%d]", field, j), ref)
			if err != nil {
				return nil, err
			}
			if !slices.Contains(approvers, person.ID) {
				approvers = append(approvers, person.ID)
			}
		}
		r.Approvers = approvers
		if len(r.Webhooks) > maxRouteWebhooks {
			return nil, invalid("%s.webhooks holds %d webhooks, at most %d are allowed", field, len(r.Webhooks), maxRouteWebhooks)
		}
		for j := range r.Webhooks {
			w := &r.Webhooks[j]
			wf := fmt.Sprintf("%s.webhooks[%d]", field, j)
			generated, err := completeWebhook(wf, tenantID, w, stored)
			if err != nil {
				return nil, err
			}
			if seen[w.ID] {
				return nil, invalid("%s.id %s appears twice: a webhook belongs to one route", wf, w.ID)
			}
			seen[w.ID] = true
			if generated {
				made = append(made, WebhookSecret{ID: w.ID, URL: gtmgate.RedactURL(w.URL), Secret: w.Secret})
			}
		}
	}
	return made, nil
}

// storedWebhooks are the route webhooks tenantID has now, by id.
func (h *Handler) storedWebhooks(ctx context.Context, tenantID string) (map[string]gtmgate.ApprovalWebhook, error) {
	out := map[string]gtmgate.ApprovalWebhook{}
	t, err := h.opts.Store.GetTenant(ctx, tenantID)
	if errors.Is(err, gtmgate.ErrNotFound) {
		return out, nil
	} else if err != nil {
		return nil, err
	}
	if t.Approval != nil {
		for _, r := range t.Approval.Routes {
			for _, w := range r.Webhooks {
				out[w.ID] = w
			}
		}
	}
	return out, nil
}

// checkRouteMatch checks what a route matches: known approval categories
// and tools (a tool of an upstream MCP server, "server__tool", comes and
// goes with it and is taken as named).
func (h *Handler) checkRouteMatch(field string, r *gtmgate.ApprovalRoute) error {
	if len(r.Categories) > maxRouteMatches || len(r.Tools) > maxRouteMatches {
		return invalid("%s names %d categories and %d tools, at most %d of each are allowed", field, len(r.Categories), len(r.Tools), maxRouteMatches)
	}
	for j, c := range r.Categories {
		if !slices.Contains(gtmgate.Categories, gtmgate.Category(c)) {
			return invalid("%s.categories[%d]: unknown category %q", field, j, c)
		}
	}
	reg := h.builtinTools()
	for j, name := range r.Tools {
		if strings.Contains(name, gtmgate.FederatedSeparator) {
			continue
		}
		if _, ok := reg.Tool(name); !ok {
			return invalid("%s.tools[%d]: unknown tool %q", field, j, name)
		}
	}
	return nil
}

// completeWebhook checks w and fills it in: a known id keeps the stored
// URL (when w gives none, or the redacted one its configuration shows) and
// secret (when w gives none); no id makes a new webhook. generated reports
// a secret made for it.
func completeWebhook(field, tenantID string, w *gtmgate.ApprovalWebhook, stored map[string]gtmgate.ApprovalWebhook) (generated bool, err error) {
	switch w.Format {
	case "":
		w.Format = gtmgate.WebhookStandard
	case gtmgate.WebhookStandard, gtmgate.WebhookSlack:
	default:
		return false, invalid("%s.format %q is not %s or %s", field, w.Format, gtmgate.WebhookStandard, gtmgate.WebhookSlack)
	}
	if w.ID != "" {
		prev, ok := stored[w.ID]
		if !ok {
			return false, invalid("%s.id %q is not one of tenant %s's route webhooks", field, w.ID, tenantID).
				WithHint("leave id out and give the url to add a webhook")
		}
		if w.URL == "" || w.URL == gtmgate.RedactURL(prev.URL) {
			w.URL = prev.URL
		}
		if w.Secret == "" {
			w.Secret = prev.Secret
		}
	} else {
		w.ID = gtmgate.NewID("whk_")
	}
	if err := checkWebhookURL(field, w.URL); err != nil {
		return false, err
	}
	if w.Secret == "" {
		if w.Secret, err = secret.NewWebhookSecret(); err != nil {
			return false, err
		}
		return true, nil
	}
	if _, err := secret.ParseWebhookSecret(w.Secret); err != nil {
		return false, invalid("%s.secret: %v", field, err).WithHint(`leave it out to have one generated ("whsec_…", shown once)`)
	}
	return false, nil
}

// checkWebhookURL accepts an https URL, or http to a loopback host, as
// ALERT_WEBHOOK_URL. It never repeats the URL: it may hold a credential.
func checkWebhookURL(field, raw string) error {
	if raw == "" {
		return invalid("%s.url is required (or the id of a webhook the tenant has)", field)
	}
	if strings.HasSuffix(raw, gtmgate.RedactedSuffix) {
		return invalid("%s.url is a redacted URL: give the webhook's id to keep its URL, or the whole URL", field)
	}
	if len(raw) > maxWebhookURL {
		return invalid("%s.url is longer than %d characters", field, maxWebhookURL)
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "https" && (u.Scheme != "http" || !egress.LoopbackHost(u.Hostname()))) {
		return invalid("%s.url must be an absolute https URL (http is accepted for loopback receivers only)", field)
	}
	return nil
}
