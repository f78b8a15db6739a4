package main

import (
	"slices"
	"sort"

	"github.com/gtmgate/gtmgate/provider/apispec"
)

// target is what specgen keeps of one provider's document.
type target struct {
	// format is discovery (Google), openapi or googleads-proto.
	format string
	// out is the spec file written.
	out string
	// title names the API when it is published in several documents (default:
	// the first document's title).
	title string
	// operations are the provider's ids of the operations the tools use
	// (OpenAPI operations without an id as "METHOD /path").
	operations []string
	// requestTypes are operations whose body is not JSON, by id.
	requestTypes map[string]string
	headers      []apispec.Param
	pathVersion  bool
	// enumsFoldCase: the API takes enum values in another case than its
	// document lists (see apispec.Spec.EnumsFoldCase).
	enumsFoldCase bool
	// corrections change extracted schemas where the document contradicts
	// what the API is documented to do (openapi).
	corrections []correction
	// gaql are the GAQL names (googleads-proto) the spec keeps, with their
	// facts: resources, resource.field, metrics.*, segments.*.
	gaql []string
	// errorKinds are the GoogleAdsFailure error kinds (fields of
	// errors.ErrorCode) whose codes the spec lists (googleads-proto).
	errorKinds []string
	// gaqlDates are GAQL fields the protos type as strings that Google's
	// field service reports as DATE (developers.google.com/google-ads/api/fields/vNN/segments).
	gaqlDates []string
}

// correction replaces one field of a schema, in every document that defines
// the schema, where the provider's document contradicts the API's documented
// behaviour; Why cites the evidence. The spec file lists the corrections
// made (facts "corrections"), so no one takes them for the document's.
type correction struct {
	Schema string          `json:"schema"`
	Field  string          `json:"field"`
	To     *apispec.Schema `json:"to"`
	Why    string          `json:"why"`
}

// targets lists, per provider, the operations gtmgate's tools call.
var targets = map[string]target{
	"gmail": {format: "discovery", out: "provider/gmail/apispec.json", operations: []string{
		"gmail.users.messages.list", "gmail.users.messages.get", "gmail.users.messages.send",
		"gmail.users.drafts.create", "gmail.users.drafts.get", "gmail.users.threads.list", "gmail.users.threads.get",
	}},
	"google_calendar": {format: "discovery", out: "provider/gcalendar/apispec.json", operations: []string{
		"calendar.events.list", "calendar.events.get", "calendar.events.insert", "calendar.events.patch", "calendar.events.delete",
		"calendar.freebusy.query",
	}},
	"sheets": {format: "discovery", out: "provider/sheets/apispec.json", operations: []string{
		"sheets.spreadsheets.values.get", "sheets.spreadsheets.values.append",
	}},
	// The Search Analytics reference (developers.google.com/webmaster-tools/v1/searchanalytics/query)
	// documents lowercase and camelCase values ("query", "notContains", "and").
	"search_console": {format: "discovery", out: "provider/searchconsole/apispec.json", enumsFoldCase: true, operations: []string{
		"webmasters.searchanalytics.query",
	}},
	"ga4": {format: "discovery", out: "provider/ga4/apispec.json", operations: []string{
		"analyticsdata.properties.getMetadata", "analyticsdata.properties.runReport", "analyticsdata.properties.runRealtimeReport",
	}},
	"bigquery": {format: "discovery", out: "provider/bigquery/apispec.json", operations: []string{
		"bigquery.datasets.list", "bigquery.tables.list", "bigquery.tables.get",
		"bigquery.jobs.insert", "bigquery.jobs.query", "bigquery.jobs.getQueryResults",
	}},
	// HubSpot: the CRM endpoints the adapter calls (provider/hubspot), at the
	// date-based version 2026-03 and at the legacy v3 paths (v4 for
	// associations), from HubSpot/HubSpot-public-api-spec-collection
	// PublicApiSpecs/CRM, one document per object type and API area; see
	// scripts/specgen for the files and the command line.
	"hubspot": {format: "openapi", out: "provider/hubspot/apispec.json", title: "HubSpot CRM API",
		operations: slices.Concat(hubspotOperations("/crm/objects/2026-03", "/crm/objects/2026-03", "/crm/pipelines/2026-03", "/crm/properties/2026-03"),
			hubspotOperations("/crm/v3/objects", "/crm/v4/objects", "/crm/v3/pipelines", "/crm/v3/properties")),
		corrections: hubspotCorrections},
	// Google Ads: GoogleAdsService.Search and the mutates of the Google Ads
	// tools, from googleapis/googleapis google/ads/googleads/vNN:
	//
	//	git clone https://github.com/googleapis/googleapis && cd googleapis && git checkout COMMIT
	//	go run ./cmd/specgen -provider google_ads -in DIR/google/ads/googleads/v25 \
	//	    -source https://github.com/googleapis/googleapis/tree/COMMIT/google/ads/googleads/v25 -commit COMMIT
	//
	// developer-token is optional since Google sunset developer tokens on
	// 2026-09-09; login-customer-id is the manager's customer id, ten digits
	// without dashes (developers.google.com/google-ads/api/rest/auth). The
	// GAQL names are those the tools (provider/googleads: search.go,
	// campaigns.go, keywords.go, rows.go' micros metrics, the report tool's
	// examples) and the sandbox use. The facts also list the error codes of
	// the kinds the sandbox answers with, and google.rpc.Code's statuses.
	// Each operation's scopes are its service's google.api.oauth_scopes:
	// https://www.googleapis.com/auth/adwords, the API's one OAuth scope
	// (developers.google.com/google-ads/api/docs/oauth/overview).
	"google_ads": {format: "googleads-proto", out: "provider/googleads/apispec.json", pathVersion: true,
		operations: []string{"GoogleAdsService.Search", "CampaignService.MutateCampaigns",
			"CampaignBudgetService.MutateCampaignBudgets", "CampaignCriterionService.MutateCampaignCriteria"},
		headers: []apispec.Param{{Name: "developer-token", In: "header", Type: "string"},
			{Name: "login-customer-id", In: "header", Type: "string", Pattern: "[0-9]{10}"}},
		gaql: []string{
			"customer", "customer.resource_name", "customer.id", "customer.descriptive_name", "customer.currency_code",
			"customer.time_zone", "customer.manager",
			"campaign_budget", "campaign_budget.resource_name", "campaign_budget.id", "campaign_budget.name",
			"campaign_budget.amount_micros", "campaign_budget.explicitly_shared", "campaign_budget.delivery_method",
			"campaign_budget.status",
			"campaign", "campaign.resource_name", "campaign.id", "campaign.name", "campaign.status", "campaign.serving_status",
			"campaign.advertising_channel_type", "campaign.bidding_strategy_type", "campaign.campaign_budget",
			"ad_group", "ad_group.resource_name", "ad_group.id", "ad_group.name", "ad_group.status", "ad_group.type", "ad_group.campaign",
			"keyword_view", "keyword_view.resource_name",
			"ad_group_criterion", "ad_group_criterion.resource_name", "ad_group_criterion.criterion_id",
			"ad_group_criterion.keyword.text", "ad_group_criterion.keyword.match_type", "ad_group_criterion.status",
			"ad_group_criterion.negative", "ad_group_criterion.type",
			"campaign_criterion", "campaign_criterion.resource_name", "campaign_criterion.criterion_id",
			"campaign_criterion.campaign", "campaign_criterion.negative", "campaign_criterion.type",
			"campaign_criterion.keyword.text", "campaign_criterion.keyword.match_type",
			"geo_target_constant", "geo_target_constant.resource_name", "geo_target_constant.id", "geo_target_constant.name",
			"geo_target_constant.canonical_name", "geo_target_constant.country_code", "geo_target_constant.target_type",
			"geo_target_constant.status",
			"ad_group_ad", "search_term_view",
			"metrics.impressions", "metrics.clicks", "metrics.cost_micros", "metrics.conversions", "metrics.conversions_value",
			"metrics.ctr", "metrics.average_cpc", "metrics.average_cpm", "metrics.average_cost", "metrics.average_cpe",
			"metrics.cost_per_conversion", "metrics.cost_per_all_conversions",
			"metrics.cost_per_current_model_attributed_conversion", "metrics.cost_per_platform_comparable_conversion",
			"metrics.active_view_impressions", "metrics.active_view_cpm", "metrics.video_trueview_views",
			"metrics.trueview_average_cpv",
			"segments.date", "segments.device", "segments.ad_network_type",
		},
		gaqlDates: []string{"segments.date"},
		// The error kinds the sandbox answers with.
		errorKinds: []string{"authentication_error", "authorization_error", "campaign_budget_error", "criterion_error",
			"field_error", "field_mask_error", "header_error", "internal_error", "mutate_error",
			"operation_access_denied_error", "query_error", "quota_error", "request_error"},
	},
}

// hubspotCorrections: HubSpot's documents type a search's sorts as strings
// and record property values as non-null strings; the API takes sorts as
// objects and returns null for a requested property that has no value.
var hubspotCorrections = func() []correction {
	sortObjects := &apispec.Schema{Type: "array", Items: &apispec.Schema{Type: "object", Properties: map[string]*apispec.Schema{
		"propertyName": {Type: "string"}, "direction": {Type: "string", Enum: []string{"ASCENDING", "DESCENDING"}}}}}
	values := &apispec.Schema{Type: "object", AdditionalProperties: &apispec.Schema{Type: "string", Nullable: true}}
	const (
		sorts = "the search guide sorts with objects, {\"propertyName\": \"createdate\", \"direction\": \"DESCENDING\"} " +
			"(developers.hubspot.com/docs/api/crm/search, Sort search results); a string is not read as a sort " +
			"(github.com/HubSpot/hubspot-api-python/issues/236, github.com/HubSpot/hubspot-api-ruby/issues/257)"
		nulls = "a requested property that has no value is returned as null (github.com/HubSpot/hubspot-api-nodejs/issues/323)"
	)
	return []correction{
		{Schema: "PublicObjectSearchRequest", Field: "sorts", To: sortObjects, Why: sorts},
		{Schema: "SimplePublicObject", Field: "properties", To: values, Why: nulls},
		{Schema: "SimplePublicObjectWithAssociations", Field: "properties", To: values, Why: nulls},
	}
}()

// hubspotOperations are the HubSpot operations the adapter calls under one
// version's roots. Contacts, companies, notes and tasks are read from their
// own documents; deals from the generic objects document, since the deals
// document names the type by its id (0-3) where the adapter says "deals".
func hubspotOperations(objects, associations, pipelines, properties string) []string {
	var ops []string
	for _, t := range []struct{ name, id string }{
		{"contacts", "{contactId}"}, {"companies", "{companyId}"}, {"notes", "{noteId}"}, {"tasks", "{taskId}"}, {"{objectType}", "{objectId}"},
	} {
		root := objects + "/" + t.name
		ops = append(ops, "GET "+root, "POST "+root, "POST "+root+"/search", "GET "+root+"/"+t.id, "PATCH "+root+"/"+t.id)
	}
	return append(ops,
		"GET "+associations+"/{objectType}/{objectId}/associations/{toObjectType}",
		"PUT "+associations+"/{fromObjectType}/{fromObjectId}/associations/default/{toObjectType}/{toObjectId}",
		"GET "+pipelines+"/{objectType}",
		"GET "+properties+"/{objectType}")
}

func targetNames() []string {
	var names []string
	for n := range targets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
