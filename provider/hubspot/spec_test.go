package hubspot

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/apispec"
	"github.com/gtmgate/gtmgate/provider/providertest"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// specEnv is the sandbox behind a loopback server, with the tools at
// version; the test fails on any violation of HubSpot's spec it leaves.
func specEnv(t *testing.T, version string) *testEnv {
	t.Helper()
	sb := NewSandbox()
	opts := Options(providertest.Serve(t, sb), version)
	opts.Timeout, opts.Backoff = 5*time.Second, 10*time.Millisecond
	e := &testEnv{t: t, sandbox: sb.Handler.(*Sandbox), tools: map[string]gtmgate.Tool{}, account: sb.Accounts[0], token: sb.Token}
	for _, tool := range Tools(upstream.MustNew(opts)) {
		e.tools[tool.Name] = tool
	}
	return e
}

// TestEveryActionIsChecked walks each action of the package's tools against
// the enforced sandbox, at 2026-03 and at the legacy paths, once or more
// succeeding and once or more refused by HubSpot, and logs the spec
// operations each was checked against. An action that reached no operation
// would be one the facts do not cover. Every error answered carries
// HubSpot's error body.
func TestEveryActionIsChecked(t *testing.T) {
	t.Parallel()
	for _, version := range []string{"2026-03", legacyVersion} {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			e := specEnv(t, version)
			kit := providertest.Kit{Tools: e.tools, Account: e.account, Token: e.token}
			providertest.Walk(t, kit, e.sandbox.Spec, specWalks(e))
		})
	}
}

// specWalks is the walk of every action, in the order of the tools' names
// and their actions; the faults it arms are e's sandbox's.
func specWalks(e *testEnv) []providertest.ActionWalk {
	ok := func(input string) providertest.Step { return providertest.Step{Input: input} }
	refused := func(input, code string) providertest.Step {
		return providertest.Step{Input: input, WantCode: code, Check: hubspotErrorBody}
	}
	failing := func(status int, input, code string) providertest.Step {
		return providertest.Step{Input: input, WantCode: code,
			Before: func() { e.sandbox.Fail(status, 0) },
			Check: func(err error) error {
				e.sandbox.ClearFaults()
				return hubspotErrorBody(err)
			}}
	}
	const (
		unknownFilter = `"filter":{"property":"no_such_property","operator":"EQ","value":"x"}`
		missing       = "424242"
	)
	records := func(id, create, badCreate, update string) map[string][]providertest.Step {
		return map[string][]providertest.Step{
			"list": {ok(`{"rationale":"r","action":"list","limit":2}`),
				ok(`{"rationale":"r","action":"list","limit":2,"sort":{"property":"createdate","direction":"DESCENDING"}}`),
				refused(`{"rationale":"r","action":"list",`+unknownFilter+`}`, gtmgate.EUpstream)},
			"search": {ok(`{"rationale":"r","action":"search","query":"a","fields":["hs_object_id"]}`),
				refused(`{"rationale":"r","action":"search","query":"a","sort":{"property":"no_such_property"}}`, gtmgate.EUpstream)},
			"get": {ok(`{"rationale":"r","action":"get","id":"` + id + `"}`),
				refused(`{"rationale":"r","action":"get","id":"`+missing+`"}`, gtmgate.EUpstream)},
			"create": {ok(`{"rationale":"r","action":"create","properties":` + create + `}`),
				refused(`{"rationale":"r","action":"create","properties":`+badCreate+`}`, gtmgate.EUpstream)},
			"update": {ok(`{"rationale":"r","action":"update","id":"` + id + `","properties":` + update + `}`),
				refused(`{"rationale":"r","action":"update","id":"`+missing+`","properties":`+update+`}`, gtmgate.EUpstream)},
		}
	}
	steps := map[string]map[string][]providertest.Step{
		"crm_contacts": records("1501", `{"email":"walk@example.com","firstname":"Walk","lifecyclestage":"lead"}`,
			`{"lifecyclestage":"bogus"}`, `{"jobtitle":"VP Sales","notes_last_contacted":"2026-01-05T10:00:00Z"}`),
		"crm_companies": records("8801", `{"name":"Walk Co","numberofemployees":40,"industry":"RETAIL"}`,
			`{"name":"Walk Co","industry":"bogus"}`, `{"annualrevenue":1200000}`),
		"crm_deals": records("7207", `{"dealname":"Walk deal","amount":"1000","pipeline":"default","dealstage":"qualifiedtobuy"}`,
			`{"dealname":"Walk deal","pipeline":"default","dealstage":"70313301"}`, `{"amount":2500,"closedate":"2026-06-30"}`),
		"crm_notes": {
			"list": {ok(`{"rationale":"r","action":"list","limit":2}`), ok(`{"rationale":"r","action":"list","deal_id":"7203"}`),
				refused(`{"rationale":"r","action":"list",`+unknownFilter+`}`, gtmgate.EUpstream)},
			"create": {ok(`{"rationale":"r","action":"create","body":"<p>Walk</p>","contact_id":"1503","deal_id":"7203"}`),
				refused(`{"rationale":"r","action":"create","body":"x","contact_id":"`+missing+`"}`, gtmgate.EUpstream)},
		},
		"crm_tasks": {
			// Every filter operator, each answer checked (operators_test.go).
			"list": append([]providertest.Step{ok(`{"rationale":"r","action":"list","company_id":"8802"}`),
				refused(`{"rationale":"r","action":"list",`+unknownFilter+`}`, gtmgate.EUpstream)}, operatorSteps()...),
			"create": {ok(`{"rationale":"r","action":"create","subject":"Walk","priority":"HIGH","due":"2026-02-01T09:00:00Z","deal_id":"7207"}`),
				refused(`{"rationale":"r","action":"create","subject":"Walk","owner_id":"99999"}`, gtmgate.EUpstream)},
			"update": {ok(`{"rationale":"r","action":"update","id":"6401","status":"COMPLETED"}`),
				refused(`{"rationale":"r","action":"update","id":"`+missing+`","status":"COMPLETED"}`, gtmgate.EUpstream)},
		},
		"crm_associations": {
			"list": {ok(`{"rationale":"r","action":"list","from_type":"deals","from_id":"7207","to_type":"contacts","limit":1}`),
				refused(`{"rationale":"r","action":"list","from_type":"deals","from_id":"not-a-record","to_type":"contacts"}`, gtmgate.EUpstream)},
			"create": {ok(`{"rationale":"r","action":"create","from_type":"contacts","from_id":"1528","to_type":"deals","to_id":"7211"}`),
				refused(`{"rationale":"r","action":"create","from_type":"contacts","from_id":"1501","to_type":"deals","to_id":"`+missing+`"}`, gtmgate.EUpstream)},
		},
		"crm_pipelines": {
			"list": {ok(`{"rationale":"r","action":"list"}`), ok(`{"rationale":"r","action":"list","object_type":"tickets"}`),
				failing(503, `{"rationale":"r","action":"list"}`, gtmgate.EUpstream)},
		},
		"crm_properties": {
			"list": {ok(`{"rationale":"r","action":"list","object_type":"tasks","limit":5}`),
				failing(500, `{"rationale":"r","action":"list","object_type":"contacts"}`, gtmgate.EUpstream)},
		},
	}
	// Walk names the actions left out here; those of no tool would be lost.
	var walks []providertest.ActionWalk
	for _, name := range slices.Sorted(maps.Keys(e.tools)) {
		for _, a := range e.tools[name].Actions {
			if s, ok := steps[name][a.Name]; ok {
				walks = append(walks, providertest.ActionWalk{Tool: name, Action: a.Name, Steps: s})
			}
		}
	}
	return walks
}

// hubspotErrorBody says what is wrong with an error's upstream body as
// HubSpot's Error schema has it (nil when nothing is). The detail keeps the
// body's start only ("…" ends a cut one), so fields are looked for, not
// decoded, and those a cut may have dropped only in a whole body.
func hubspotErrorBody(err error) error {
	var ge *gtmgate.Error
	if !errors.As(err, &ge) {
		return fmt.Errorf("error %v is not a *gtmgate.Error", err)
	}
	d, ok := ge.Detail.(gtmgate.UpstreamDetail)
	if !ok {
		return fmt.Errorf("detail = %#v, want gtmgate.UpstreamDetail", ge.Detail)
	}
	whole := !strings.HasSuffix(d.Body, "…")
	if !strings.HasPrefix(d.Body, `{"status":"error","message":"`) ||
		whole && (!strings.Contains(d.Body, `"correlationId":"`) || !strings.Contains(d.Body, `"category":"`)) {
		return fmt.Errorf("HTTP %d %s is not HubSpot's error body", d.Status, d.Body)
	}
	return nil
}

// TestSpecCoverage: the spec describes the legacy paths and 2026-03; the
// sandbox serves 2026-09 too, unchecked.
func TestSpecCoverage(t *testing.T) {
	t.Parallel()
	s := NewSandboxHandler()
	for _, tt := range []struct{ path, op string }{
		{"/crm/objects/2026-03/contacts?limit=1", "GET /crm/objects/2026-03/contacts"},
		{"/crm/objects/2026-03/deals/7207", "GET /crm/objects/2026-03/{objectType}/{objectId}"},
		{"/crm/v3/objects/deals?limit=1", "GET /crm/v3/objects/{objectType}"},
		{"/crm/v4/objects/deals/7207/associations/contacts", "GET /crm/v4/objects/{objectType}/{objectId}/associations/{toObjectType}"},
		{"/crm/objects/2026-09/contacts?limit=1", ""},
	} {
		before := s.Spec.Checked()
		if w, _ := call(t, s, "GET", tt.path, "", nil); w.Code != 200 {
			t.Errorf("GET %s: %d %s", tt.path, w.Code, w.Body)
		}
		ops := providertest.CheckedSince(before, s.Spec.Checked())
		if want := []string{tt.op}; tt.op == "" && len(ops) > 0 || tt.op != "" && !slices.Equal(ops, want) {
			t.Errorf("GET %s checked against %v, want %q", tt.path, ops, tt.op)
		}
	}
}

// TestSpecCorrections: where the spec departs from HubSpot's documents, it
// says so in its corrections, and each is in the schemas.
func TestSpecCorrections(t *testing.T) {
	t.Parallel()
	var corrections []struct {
		Schema, Field, Why string
		To                 *apispec.Schema
	}
	if err := json.Unmarshal(crmSpec().Facts["corrections"], &corrections); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range corrections {
		got = append(got, c.Schema+"."+c.Field)
		if s := crmSpec().Schemas[c.Schema]; s == nil || !reflect.DeepEqual(s.Properties[c.Field], c.To) || !strings.Contains(c.Why, "github.com/HubSpot/") {
			t.Errorf("%s.%s: not applied, or no evidence cited (%q)", c.Schema, c.Field, c.Why)
		}
	}
	want := []string{"PublicObjectSearchRequest.sorts", "SimplePublicObject.properties", "SimplePublicObjectWithAssociations.properties"}
	if !slices.Equal(got, want) {
		t.Errorf("corrections %v, want %v", got, want)
	}
	if crmSpec().Commit == "" || !strings.Contains(crmSpec().Source, crmSpec().Commit) || crmSpec().Version != "2026-03" {
		t.Errorf("spec source %q commit %q version %q", crmSpec().Source, crmSpec().Commit, crmSpec().Version)
	}
}
