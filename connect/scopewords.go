package connect

// scopeWords says in plain words, for the person who consents, what each
// scope a link can ask for lets the operator do. TestEveryScopeHasWords
// holds it to every scope Scopes can return.
var scopeWords = map[string]string{
	"openid":                       "Confirm that it is you who signed in",
	"email":                        "See your email address",
	g + "adwords":                  "Read and change your Google Ads campaigns, budgets and keywords",
	g + "analytics.readonly":       "Read your Google Analytics reports and settings",
	g + "webmasters.readonly":      "Read your Search Console search traffic and site data",
	g + "gmail.readonly":           "Read your Gmail messages and settings",
	g + "gmail.send":               "Send email as you",
	g + "gmail.compose":            "Write drafts and send email as you",
	g + "calendar.events":          "Read and change the events in your Google calendars",
	g + "calendar.events.readonly": "Read the events in your Google calendars",
	g + "calendar.freebusy":        "See when you are free or busy in your Google calendars",
	g + "bigquery":                 "Read and change your BigQuery data, and run queries on it",
	g + "spreadsheets.readonly":    "Read your Google Sheets spreadsheets",
	g + "spreadsheets":             "Read and change your Google Sheets spreadsheets",
	"ads_read":                     "Read your Meta ad accounts, campaigns and their results",
	"ads_management":               "Read and change your Meta ad accounts, campaigns, ads and budgets",
	"r_ads":                        "Read your LinkedIn ad accounts and campaigns",
	"r_ads_reporting":              "Read your LinkedIn ads reports",
	"rw_ads":                       "Read and change your LinkedIn ad accounts and campaigns",
	"crm.objects.contacts.read":    "Read your HubSpot contacts, with their notes and tasks",
	"crm.objects.companies.read":   "Read your HubSpot companies",
	"crm.objects.deals.read":       "Read your HubSpot deals",
	"crm.schemas.contacts.read":    "See which properties your HubSpot contacts have",
	"crm.schemas.companies.read":   "See which properties your HubSpot companies have",
	"crm.schemas.deals.read":       "See which properties your HubSpot deals have",
	"crm.objects.contacts.write":   "Create and change your HubSpot contacts, with their notes and tasks",
	"crm.objects.companies.write":  "Create and change your HubSpot companies",
	"crm.objects.deals.write":      "Create and change your HubSpot deals",
}

// ScopeWords says in plain words what scope lets the operator do; ok is
// false for a scope gtmgate does not know (an OAuth app's extra scope),
// which a page then shows as itself.
func ScopeWords(scope string) (words string, ok bool) {
	words, ok = scopeWords[scope]
	return words, ok
}

// productTitles are the provider keys' product names for people.
var productTitles = map[string]string{
	"google_ads": "Google Ads", "ga4": "Google Analytics", "search_console": "Google Search Console",
	"gmail": "Gmail", "google_calendar": "Google Calendar", "bigquery": "BigQuery", "sheets": "Google Sheets",
	"hubspot": "HubSpot", "meta_ads": "Meta Ads", "linkedin_ads": "LinkedIn Ads",
}

// ProductTitle is the name people know a provider key's product by
// ("Google Ads" for google_ads); the key itself when it has none.
func ProductTitle(key string) string {
	if t, ok := productTitles[key]; ok {
		return t
	}
	return key
}

// LinkTitle names what a link for products of p connects, as its owner
// knows it: the one product it covers ("Gmail", "Meta Ads"), else the
// family's title ("Google").
func (p Provider) LinkTitle(products []string) string {
	switch {
	case len(products) == 1:
		return ProductTitle(products[0])
	case len(p.Covers) == 1:
		return ProductTitle(p.Covers[0])
	}
	return p.Title
}
