package main

import (
	"sort"

	"github.com/gtmgate/gtmgate/provider/apispec"
)

// target is what specgen keeps of one provider's document.
type target struct {
	// format is discovery (Google) or openapi.
	format string
	// out is the spec file written.
	out string
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
}

func targetNames() []string {
	var names []string
	for n := range targets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
