package apiversion

// The Google APIs below keep one stable version in their paths and have
// announced no sunset for it; the catalogue lists them so every provider has a
// version, a setting and a source.

func googleStable(key, name, setting, version, released, src string) Provider {
	return Provider{
		Key: key, Name: name, Setting: setting, Default: version, Pattern: googlePathVersion, Where: "path",
		Policy:   "a stable Google API version stays until Google announces its successor and a deprecation period",
		Versions: []Version{{Name: version, Released: day(released), Source: src}},
	}
}

func ga4() Provider {
	return googleStable("ga4", "Google Analytics Data API", "GTMGATE_GA4_API_VERSION", "v1beta", "2020-11-01",
		"https://developers.google.com/analytics/devguides/reporting/data/v1")
}

func searchConsole() Provider {
	return googleStable("search_console", "Search Console API", "GTMGATE_SEARCH_CONSOLE_API_VERSION", "v3", "2015-01-01",
		"https://developers.google.com/webmaster-tools/v1/api_reference_index")
}

func gmail() Provider {
	return googleStable("gmail", "Gmail API", "GTMGATE_GMAIL_API_VERSION", "v1", "2014-06-25",
		"https://developers.google.com/gmail/api/reference/rest")
}

func calendar() Provider {
	return googleStable("google_calendar", "Google Calendar API", "GTMGATE_GOOGLE_CALENDAR_API_VERSION", "v3", "2013-01-01",
		"https://developers.google.com/calendar/api/v3/reference")
}

func bigQuery() Provider {
	return googleStable("bigquery", "BigQuery API", "GTMGATE_BIGQUERY_API_VERSION", "v2", "2011-11-01",
		"https://cloud.google.com/bigquery/docs/reference/rest")
}

func sheets() Provider {
	return googleStable("sheets", "Google Sheets API", "GTMGATE_SHEETS_API_VERSION", "v4", "2016-05-01",
		"https://developers.google.com/sheets/api/reference/rest")
}
