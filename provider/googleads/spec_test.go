package googleads

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

// sandboxResources are the GAQL resources the sandbox serves.
var sandboxResources = []string{"customer", "campaign_budget", "campaign", "ad_group", "keyword_view",
	"ad_group_criterion", "campaign_criterion", "geo_target_constant"}

// TestSpecIsTheDefaultVersion: the sandbox enforces the protos of the
// version the adapter calls by default.
func TestSpecIsTheDefaultVersion(t *testing.T) {
	if adsSpec().Version != DefaultVersion() || !adsSpec().PathVersion {
		t.Errorf("spec version %s (path_version %v), adapter default %s: regenerate apispec.json (cmd/specgen, target google_ads)",
			adsSpec().Version, adsSpec().PathVersion, DefaultVersion())
	}
}

// TestGAQLFieldsInSpec: every GAQL field the adapter names or the sandbox
// models exists in the spec's version with the type the code assumes.
func TestGAQLFieldsInSpec(t *testing.T) {
	want := func(name, category, dataType string) {
		t.Helper()
		f, ok := gaqlFields[name]
		switch {
		case !ok:
			t.Errorf("%s is not in the spec's gaql_fields: add it to the google_ads target of cmd/specgen, or the API removed it", name)
		case f.Category != category || dataType != "" && f.DataType != dataType:
			t.Errorf("%s is %s %s, want %s %s", name, f.Category, f.DataType, category, dataType)
		}
	}
	category := func(f string) string {
		switch {
		case strings.HasPrefix(f, "metrics."):
			return "METRIC"
		case strings.HasPrefix(f, "segments."):
			return "SEGMENT"
		}
		return "ATTRIBUTE"
	}
	for _, q := range []string{campaignSelect, keywordSelect} {
		parsed, err := parseGAQL(q)
		if err != nil {
			t.Fatal(err)
		}
		want(parsed.Resource, "RESOURCE", "MESSAGE")
		for _, f := range parsed.Fields {
			want(f, category(f), "")
		}
	}
	for _, m := range microsMetrics {
		want(m, "METRIC", "DOUBLE")
	}
	for r := range selectsCustomer {
		want(r, "RESOURCE", "MESSAGE")
	}
	want("customer.currency_code", "ATTRIBUTE", "STRING")
	want("segments.date", "SEGMENT", "DATE")
	c := newSandbox(nil).customers["1234567890"]
	for _, r := range sandboxResources {
		want(r, "RESOURCE", "MESSAGE")
		for _, f := range c.modeledFields(r) {
			want(f, category(f), "")
		}
	}
	for f, v := range gaqlFields {
		for _, suffix := range boolFields {
			if strings.HasSuffix(f, suffix) && v.DataType != "BOOLEAN" {
				t.Errorf("%s is %s; rows.go fills it with false when Google omits it", f, v.DataType)
			}
		}
	}
}

// TestSandboxAnswersEveryFieldAsTheSpecTypesIt selects every field the
// sandbox models from each resource, so each value it can send is checked
// against the spec's response schema (Serve fails the test on a violation).
func TestSandboxAnswersEveryFieldAsTheSpecTypesIt(t *testing.T) {
	e := newEnv(t)
	c := e.sb.customers["1234567890"]
	for _, r := range sandboxResources {
		fields := slices.DeleteFunc(c.modeledFields(r), func(f string) bool { return f == "segments.date" })
		q := "SELECT " + strings.Join(fields, ", ") + " FROM " + r
		if metricResources[r] {
			q += " WHERE segments.date DURING LAST_30_DAYS"
		}
		before := e.sb.Spec.Checked()["GoogleAdsService.Search"]
		out, err := e.Run(t, "google_ads_report", `{"rationale":"r","query":"`+q+`","limit":5}`)
		if err != nil {
			t.Fatalf("%s: %v", r, err)
		}
		if len(providertest.Items(t, out)) == 0 {
			t.Errorf("%s: no rows", r)
		}
		if e.sb.Spec.Checked()["GoogleAdsService.Search"] == before {
			t.Errorf("%s: the search was not checked against the spec", r)
		}
	}
}

// TestSpecRefusesWhatGoogleRefuses: a request the protos do not allow gets
// Google's error shape and is kept as a violation (taken here).
func TestSpecRefusesWhatGoogleRefuses(t *testing.T) {
	tests := []struct {
		name, path, body, login string
		status                  int
		code                    string // in the GoogleAdsFailure; "" for Google's 404 page
	}{
		{"unknown body field", "googleAds:search", `{"query":"SELECT customer.id FROM customer","pageLimit":5}`, "", 400, `"fieldError":"INVALID_VALUE"`},
		{"query missing", "googleAds:search", `{"pageToken":"x"}`, "", 400, `"fieldError":"REQUIRED"`},
		{"bad enum", "campaigns:mutate", `{"operations":[{"remove":"customers/1234567890/campaigns/1"}],"responseContentType":"FULL"}`, "", 400, `"requestError":"INVALID_ENUM_VALUE"`},
		{"int64 field as a word", "campaignBudgets:mutate", `{"operations":[{"update":{"resourceName":"customers/1234567890/campaignBudgets/1","amountMicros":"ten"},"updateMask":"amountMicros"}]}`, "", 400, `"fieldError":"INVALID_VALUE"`},
		{"login-customer-id with dashes", "googleAds:search", `{"query":"SELECT customer.id FROM customer"}`, "555-000-1111", 400, `"headerError":"INVALID_LOGIN_CUSTOMER_ID"`},
		{"service the spec does not have", "adGroups:mutate", `{"operations":[]}`, "", 404, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			req, _ := http.NewRequest(http.MethodPost, e.url+"/v25/customers/1234567890/"+tt.path, strings.NewReader(tt.body))
			req.Header.Set("Authorization", "Bearer "+SandboxToken)
			req.Header.Set("developer-token", "t")
			req.Header.Set("Content-Type", "application/json")
			if tt.login != "" {
				req.Header.Set("login-customer-id", tt.login)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.status || !strings.Contains(string(body), tt.code) ||
				tt.code != "" && !strings.Contains(string(body), "google.ads.googleads.v25.errors.GoogleAdsFailure") ||
				tt.code == "" && !strings.Contains(string(body), "was not found on this server") {
				t.Fatalf("status %d, body %s; want %d %s", resp.StatusCode, body, tt.status, tt.code)
			}
			if v := e.sb.Spec.TakeViolations(); len(v) != 1 {
				t.Errorf("violations %q, want one", v)
			}
		})
	}
}

// TestBadEnumConstantInQuery: a condition on an ENUM field with a value the
// version does not have is refused as Google refuses it.
func TestBadEnumConstantInQuery(t *testing.T) {
	e := newEnv(t)
	_, err := e.Run(t, "google_ads_report", `{"rationale":"r","resource":"campaign","fields":["name"],"filter":{"property":"status","operator":"EQ","value":"PAUSD"}}`)
	ge := providertest.WantCode(t, err, gtmgate.EUpstream)
	if d := ge.Detail.(gtmgate.UpstreamDetail); d.Status != 400 || !strings.Contains(d.Body, "BAD_ENUM_CONSTANT") {
		t.Fatalf("status %d, body %s", d.Status, d.Body)
	}
}

// TestEveryActionIsChecked walks every action of the three tools, once
// succeeding and once refused by Google with the GoogleAdsFailure code the
// body must carry, and logs the spec operations each was checked against;
// an action that reached none fails.
func TestEveryActionIsChecked(t *testing.T) {
	e := newEnv(t)
	denied := &gtmgate.Account{ID: "4440002222"} // a client reached only through its manager
	failsWith := func(input, code string) providertest.Step {
		return providertest.Step{Input: input, WantCode: gtmgate.EUpstream, Check: bodyHas(code)}
	}
	deniedWith := func(input string) providertest.Step {
		s := failsWith(input, "USER_PERMISSION_DENIED")
		s.Account = denied
		return s
	}
	providertest.Walk(t, e.Kit, e.sb.Spec, []providertest.ActionWalk{
		{Tool: "google_ads_report", Action: "report", Steps: []providertest.Step{
			{Input: `{"rationale":"r","resource":"campaign","fields":["name"],"metrics":["clicks","cost_micros"],"date_range":"LAST_7_DAYS"}`},
			failsWith(`{"rationale":"r","query":"SELECT campaign.colour FROM campaign"}`, "UNRECOGNIZED_FIELD")}},
		{Tool: "google_ads_campaigns", Action: "list", Steps: []providertest.Step{
			{Input: listInput},
			deniedWith(listInput)}},
		{Tool: "google_ads_campaigns", Action: "get", Steps: []providertest.Step{
			{Input: `{"rationale":"r","action":"get","campaign_id":"21000100001"}`},
			{Input: `{"rationale":"r","action":"get","campaign_id":"21000100001"}`, Before: func() { e.sb.FailNext(400, 1) },
				WantCode: gtmgate.EUpstream, Check: bodyHas("INVALID_VALUE")}}},
		{Tool: "google_ads_campaigns", Action: "update_status", Steps: []providertest.Step{
			{Input: `{"rationale":"r","action":"update_status","campaign_id":"21000100001","status":"PAUSED"}`},
			failsWith(`{"rationale":"r","action":"update_status","campaign_id":"21000100007","status":"PAUSED"}`, "OPERATION_NOT_PERMITTED_FOR_REMOVED_RESOURCE")}},
		{Tool: "google_ads_campaigns", Action: "update_budget", Steps: []providertest.Step{
			{Input: `{"rationale":"r","action":"update_budget","campaign_id":"21000100002","amount":80}`},
			deniedWith(`{"rationale":"r","action":"update_budget","campaign_id":"21000100002","amount":80}`)}},
		{Tool: "google_ads_keywords", Action: "list", Steps: []providertest.Step{
			{Input: `{"rationale":"r","action":"list","campaign_id":"21000100002"}`},
			failsWith(`{"rationale":"r","action":"list","filter":{"property":"keyword.match_type","operator":"EQ","value":"EXACTLY"}}`, "BAD_ENUM_CONSTANT")}},
		{Tool: "google_ads_keywords", Action: "add_negative", Steps: []providertest.Step{
			{Input: `{"rationale":"r","action":"add_negative","campaign_id":"21000100001","keyword_text":"careers","match_type":"PHRASE"}`},
			failsWith(`{"rationale":"r","action":"add_negative","campaign_id":"21000100003","keyword_text":"free","match_type":"BROAD"}`, "RESOURCE_ALREADY_EXISTS")}},
	})
}

// bodyHas checks that an error's upstream body carries a GoogleAdsFailure code.
func bodyHas(code string) func(error) error {
	return func(err error) error {
		var ge *gtmgate.Error
		if !errors.As(err, &ge) {
			return fmt.Errorf("error %v is not a *gtmgate.Error", err)
		}
		if d, ok := ge.Detail.(gtmgate.UpstreamDetail); !ok || !strings.Contains(d.Body, code) {
			return fmt.Errorf("body %s lacks %s", d.Body, code)
		}
		return nil
	}
}

// TestSandboxErrorCodesInSpec: every GoogleAdsFailure code and status the
// sandbox's source answers with exists in the spec's version (facts
// error_codes and status_codes), so the sandbox invents none.
func TestSandboxErrorCodesInSpec(t *testing.T) {
	var codes map[string][]string
	var statuses []string
	if err := json.Unmarshal(adsSpec().Facts["error_codes"], &codes); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(adsSpec().Facts["status_codes"], &statuses); err != nil {
		t.Fatal(err)
	}
	kindCode := regexp.MustCompile(`"([a-z][A-Za-z]*Error)",\s*"([A-Z][A-Z_]*)"`)
	queryCode := regexp.MustCompile(`(?:qerr\(|code :?= )"([A-Z][A-Z_]*)"`)
	status := regexp.MustCompile(`googleError\([^,]+,\s*"([A-Z][A-Z_]*)"`)
	files, _ := filepath.Glob("sandbox*.go")
	seen := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		check := func(kind, code string) {
			seen++
			if !slices.Contains(codes[kind], code) {
				t.Errorf("%s: %s.%s is not an error code of %s (or the kind is not in the google_ads target's errorKinds)", name, kind, code, adsSpec().Version)
			}
		}
		for _, m := range kindCode.FindAllStringSubmatch(string(b), -1) {
			check(m[1], m[2])
		}
		for _, m := range queryCode.FindAllStringSubmatch(string(b), -1) {
			check("queryError", m[1])
		}
		for _, m := range status.FindAllStringSubmatch(string(b), -1) {
			seen++
			if !slices.Contains(statuses, m[1]) {
				t.Errorf("%s: status %s is not a google.rpc.Code", name, m[1])
			}
		}
	}
	t.Logf("%d error codes and statuses checked", seen)
	if seen < 40 {
		t.Errorf("found %d codes in the sandbox's source; the patterns no longer match it", seen)
	}
}

// TestValidateOnlyMutatesNothing: a mutate with validateOnly is checked and
// answered without results, and changes nothing (MutateCampaignsRequest).
func TestValidateOnlyMutatesNothing(t *testing.T) {
	e := newEnv(t)
	req, _ := http.NewRequest(http.MethodPost, e.url+"/v25/customers/1234567890/campaigns:mutate", strings.NewReader(
		`{"validateOnly":true,"operations":[{"updateMask":"status","update":{"resourceName":"customers/1234567890/campaigns/21000100001","status":"PAUSED"}}]}`))
	req.Header.Set("Authorization", "Bearer "+SandboxToken)
	req.Header.Set("developer-token", "t")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || strings.TrimSpace(string(body)) != "{}" {
		t.Fatalf("status %d, body %s", resp.StatusCode, body)
	}
	if got := e.MustRun(t, "google_ads_campaigns", `{"rationale":"r","action":"get","campaign_id":"21000100001"}`); got["status"] != "ENABLED" {
		t.Errorf("validateOnly changed the status to %v", got["status"])
	}
}
