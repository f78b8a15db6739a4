package admin_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
)

// slackURL is an incoming-webhook URL whose path is its credential.
const slackURL = "https://hooks.slack.com/services/T0001/B0001/SLACKPATHSECRET"

// routesTenant is acme's configuration with an approval policy holding
// routes.
func routesTenant(routes string) string {
	return strings.TrimSuffix(acmeTenant(""), "}") + `, "approval_policy": {"categories": ["ads_mutate", "email_send"], "destructive": true, "routes": ` + routes + `}}`
}

// TestApprovalRoutes: a tenant's approval routes are checked and completed
// when its configuration is replaced: approvers by email become ids, a new
// webhook gets an id and (unless given) a signing secret shown once; the
// configuration shows webhook URLs redacted and never a secret, a replace
// naming a webhook by id keeps its URL and secret, and no answer or audit
// entry repeats a URL or a secret.
func TestApprovalRoutes(t *testing.T) {
	t.Parallel()
	e := startToolsets(t)
	ada, err := e.store.SignedIn(t.Context(), "corp", gtmgate.Identity{Issuer: "https://idp.example", Subject: "ada", Email: "ada@acme.example"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	a := e.do("PUT", "/admin/tenants/acme", routesTenant(`[
		{"categories": ["ads_mutate"], "tools": ["crm_deals"], "approvers": ["ada@acme.example"],
		 "webhooks": [{"url": "`+slackURL+`", "format": "slack"},
		              {"url": "http://127.0.0.1:9/hook?token=LOOPBACKTOKEN", "secret": "0123456789abcdef-given"}]},
		{"webhooks": [{"url": "https://ops.example.com/gtm"}]}]`))
	if a.Status != 200 {
		t.Fatalf("put: %d %s", a.Status, a.Body)
	}
	var put struct {
		Tenant struct {
			Approval gtmgate.ApprovalPolicy `json:"approval_policy"`
		}
		Secrets []struct{ ID, URL, Secret string } `json:"webhook_secrets"`
	}
	json.Unmarshal([]byte(a.Body), &put)
	routes := put.Tenant.Approval.Routes
	if len(routes) != 2 || len(routes[0].Webhooks) != 2 || routes[0].Approvers[0] != ada.ID {
		t.Fatalf("routes %+v", routes)
	}
	slack, loop, ops := routes[0].Webhooks[0], routes[0].Webhooks[1], routes[1].Webhooks[0]
	if !strings.HasPrefix(slack.ID, "whk_") || slack.URL != "https://hooks.slack.com/…" || slack.Format != "slack" || slack.Secret != "" ||
		loop.URL != "http://127.0.0.1:9/…" || loop.Format != "standard" || ops.URL != "https://ops.example.com/…" {
		t.Errorf("webhooks as shown: %+v %+v %+v", slack, loop, ops)
	}
	// Generated secrets, for the two webhooks given none, shown once.
	if len(put.Secrets) != 2 || put.Secrets[0].ID != slack.ID || put.Secrets[1].ID != ops.ID || !strings.HasPrefix(put.Secrets[0].Secret, "whsec_") ||
		put.Secrets[0].URL != "https://hooks.slack.com/…" {
		t.Fatalf("secrets %+v", put.Secrets)
	}
	stored, err := e.store.GetTenant(t.Context(), "acme")
	if err != nil {
		t.Fatal(err)
	}
	w := stored.Approval.Routes[0].Webhooks
	if w[0].URL != slackURL || w[0].Secret != put.Secrets[0].Secret || w[1].Secret != "0123456789abcdef-given" {
		t.Fatalf("stored webhooks %+v", w)
	}

	// GET, edit, PUT back: the webhooks shown (id and redacted URL) keep
	// their URLs and secrets; no new secret is made.
	got := e.do("GET", "/admin/tenants/acme", "")
	var view struct {
		Tenant map[string]any `json:"tenant"`
	}
	json.Unmarshal([]byte(got.Body), &view)
	for _, k := range []string{"id", "created_at", "updated_at"} {
		delete(view.Tenant, k)
	}
	view.Tenant["name"] = "Acme renamed"
	body, _ := json.Marshal(view.Tenant)
	again := e.do("PUT", "/admin/tenants/acme", string(body))
	if again.Status != 200 || strings.Contains(again.Body, "webhook_secrets") {
		t.Fatalf("round trip: %d %s", again.Status, again.Body)
	}
	kept, _ := e.store.GetTenant(t.Context(), "acme")
	if kw := kept.Approval.Routes[0].Webhooks; kw[0].URL != slackURL || kw[0].Secret != w[0].Secret || kw[1].URL != w[1].URL ||
		kept.Approval.Routes[1].Webhooks[0].Secret != put.Secrets[1].Secret {
		t.Errorf("after the round trip: %+v", kw)
	}

	for _, answer := range []string{a.Body, got.Body, again.Body, e.do("GET", "/admin/tenants", "").Body} {
		for _, clear := range []string{"SLACKPATHSECRET", "LOOPBACKTOKEN", "0123456789abcdef-given", w[0].Secret[len("whsec_"):]} {
			if strings.Contains(answer, clear) && !(clear == w[0].Secret[len("whsec_"):] && answer == a.Body) {
				t.Errorf("an answer repeats %q: %s", clear, answer)
			}
		}
	}
	for _, entry := range e.audit.Entries() {
		b, _ := json.Marshal(entry)
		if strings.Contains(string(b), "SLACKPATHSECRET") || strings.Contains(string(b), "whsec_") {
			t.Errorf("audit entry %s", b)
		}
	}
	if !strings.Contains(auditDetails(e), "approval route webhooks added: "+slack.ID+", "+ops.ID) {
		t.Errorf("audit details %q", auditDetails(e))
	}
}

func auditDetails(e *toolsetsEnv) string {
	var out []string
	for _, a := range e.audit.Entries() {
		out = append(out, a.Detail)
	}
	return strings.Join(out, "; ")
}

// TestApprovalRoutesRefused: routes naming unknown categories, tools or
// people, webhooks that are not https (but to loopback), unknown ids,
// formats or short secrets are refused, without repeating the URL.
func TestApprovalRoutesRefused(t *testing.T) {
	t.Parallel()
	e := startToolsets(t)
	// Dana signs in through tenant other's own IdP: she is not acme's.
	ctx := t.Context()
	if _, err := e.store.PutTenant(ctx, &gtmgate.Tenant{ID: "other", Name: "Other", Status: gtmgate.TenantActive}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.store.PutIdP(ctx, &gtmgate.IdP{Name: "other-idp", Issuer: "https://other.example", ClientID: "c", ClientSecret: "s",
		TenantID: "other"}); err != nil {
		t.Fatal(err)
	}
	dana, err := e.store.SignedIn(ctx, "other-idp", gtmgate.Identity{Issuer: "https://other.example", Subject: "dana"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, routes, mention string
	}{
		{"an unknown category", `[{"categories": ["ads_mutat"]}]`, `routes[0].categories[0]: unknown category "ads_mutat"`},
		{"an unknown tool", `[{"tools": ["crm_deal"]}]`, `routes[0].tools[0]: unknown tool "crm_deal"`},
		{"nobody who signed in", `[{"approvers": ["p_0123"]}]`, `routes[0].approvers[0] "p_0123" is nobody who has signed in`},
		{"an email nobody signed in with", `[{"approvers": ["bea@acme.example"]}]`, "is nobody who has signed in"},
		{"another tenant's person", `[{"approvers": ["` + dana.ID + `"]}]`, `signs in through tenant "other"'s own IdP`},
		{"plain http", `[{"webhooks": [{"url": "http://hooks.example.com/SECRETPATH"}]}]`, "routes[0].webhooks[0].url must be an absolute https URL"},
		{"another scheme", `[{"webhooks": [{"url": "ftp://hooks.example.com/SECRETPATH"}]}]`, "must be an absolute https URL"},
		{"not absolute", `[{"webhooks": [{"url": "/SECRETPATH"}]}]`, "must be an absolute https URL"},
		{"no url", `[{"webhooks": [{"format": "slack"}]}]`, "routes[0].webhooks[0].url is required"},
		{"a redacted URL without its id", `[{"webhooks": [{"url": "https://hooks.slack.com/…"}]}]`, "is a redacted URL"},
		{"an id the tenant does not have", `[{"webhooks": [{"id": "whk_SECRETPATH"}]}]`, "is not one of tenant acme's route webhooks"},
		{"an unknown format", `[{"webhooks": [{"url": "https://hooks.example.com/SECRETPATH", "format": "teams"}]}]`, `format "teams" is not standard or slack`},
		{"a short secret", `[{"webhooks": [{"url": "https://hooks.example.com/SECRETPATH", "secret": "SECRETPATH"}]}]`, "secret: the secret must be at least 16 characters"},
		{"too many routes", "[" + strings.TrimSuffix(strings.Repeat(`{"tools": ["crm_deals"]},`, 21), ",") + "]", "at most 20 are allowed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := e.do("PUT", "/admin/tenants/acme", routesTenant(tc.routes))
			wantError(t, a, 400, "VALIDATION_ERROR", tc.mention)
			if strings.Contains(a.Body, "SECRETPATH") && tc.name != "an id the tenant does not have" {
				t.Errorf("the refusal repeats the URL or secret: %s", a.Body)
			}
		})
	}
	// A policy of routes alone would hold nothing: refused, unless it says so.
	only := strings.TrimSuffix(acmeTenant(""), "}") + `, "approval_policy": {"routes": [{"tools": ["crm_deals"]}]}}`
	wantError(t, e.do("PUT", "/admin/tenants/acme", only), 400, "VALIDATION_ERROR", "says nothing of what is held")
	none := strings.TrimSuffix(acmeTenant(""), "}") + `, "approval_policy": {"categories": [], "routes": [{"tools": ["crm_deals"]}]}}`
	if a := e.do("PUT", "/admin/tenants/acme", none); a.Status != 200 {
		t.Errorf("routes with an explicit empty policy: %d %s", a.Status, a.Body)
	}
}
