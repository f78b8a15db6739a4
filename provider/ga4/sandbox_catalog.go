package ga4

// metricDef is a sandbox metric: its metadata and how it is computed from
// summed base measures.
type metricDef struct {
	MetricMetadata
	compute func(v *[nBase]float64) float64
}

// catalog is what one report endpoint of the sandbox can answer.
type catalog struct {
	dimensions []DimensionMetadata
	metrics    []metricDef
}

func (c *catalog) metric(name string) (metricDef, bool) {
	for _, m := range c.metrics {
		if m.APIName == name {
			return m, true
		}
	}
	return metricDef{}, false
}

func (c *catalog) hasDimension(name string) bool {
	for _, d := range c.dimensions {
		if d.APIName == name {
			return true
		}
	}
	return false
}

func sum(i int) func(v *[nBase]float64) float64 {
	return func(v *[nBase]float64) float64 { return v[i] }
}

func ratio(num, den int) func(v *[nBase]float64) float64 {
	return func(v *[nBase]float64) float64 {
		if v[den] == 0 {
			return 0
		}
		return v[num] / v[den]
	}
}

func metric(api, ui, typ, desc string, f func(v *[nBase]float64) float64) metricDef {
	return metricDef{MetricMetadata{APIName: api, UIName: ui, Description: desc, Type: typ, Category: category(api)}, f}
}

func category(api string) string {
	switch api {
	case "totalRevenue", "purchaseRevenue":
		return "Revenue"
	case "keyEvents", "conversions":
		return "Key events"
	case "totalUsers", "newUsers", "activeUsers":
		return "User"
	case "screenPageViews", "eventCount":
		return "Event"
	}
	return "Session"
}

// reportCatalog is the Data API's core schema, restricted to what the
// sandbox data holds.
var reportCatalog = &catalog{
	dimensions: []DimensionMetadata{
		{APIName: "date", UIName: "Date", Description: "The date of the event, formatted as YYYYMMDD.", Category: "Time"},
		{APIName: "sessionDefaultChannelGroup", UIName: "Session default channel group", Description: "The session's default channel group is based primarily on source and medium.", Category: "Traffic source"},
		{APIName: "country", UIName: "Country", Description: "The country from which the user activity originated.", Category: "Geography"},
		{APIName: "deviceCategory", UIName: "Device category", Description: "The type of device: Desktop, Tablet, or Mobile.", Category: "Platform / Device"},
		{APIName: "landingPage", UIName: "Landing page", Description: "The page path associated with the first pageview in a session.", Category: "Page / Screen"},
	},
	metrics: []metricDef{
		metric("sessions", "Sessions", "TYPE_INTEGER", "The number of sessions that began on your site or app.", sum(bSessions)),
		metric("totalUsers", "Total users", "TYPE_INTEGER", "The number of distinct users who have logged at least one event.", sum(bUsers)),
		metric("activeUsers", "Active users", "TYPE_INTEGER", "The number of distinct users who visited your site or app.", sum(bUsers)),
		metric("newUsers", "New users", "TYPE_INTEGER", "The number of users who interacted with your site or launched your app for the first time.", sum(bNewUsers)),
		metric("engagedSessions", "Engaged sessions", "TYPE_INTEGER", "The number of sessions that lasted longer than 10 seconds, or had a key event, or had 2 or more screen views.", sum(bEngaged)),
		metric("engagementRate", "Engagement rate", "TYPE_FLOAT", "The percentage of engaged sessions (Engaged sessions divided by Sessions).", ratio(bEngaged, bSessions)),
		metric("bounceRate", "Bounce rate", "TYPE_FLOAT", "The percentage of sessions that were not engaged.", func(v *[nBase]float64) float64 {
			if v[bSessions] == 0 {
				return 0
			}
			return 1 - v[bEngaged]/v[bSessions]
		}),
		metric("averageSessionDuration", "Average session duration", "TYPE_SECONDS", "The average duration (in seconds) of users' sessions.", ratio(bDuration, bSessions)),
		metric("screenPageViews", "Views", "TYPE_INTEGER", "The number of app screens or web pages your users viewed.", sum(bViews)),
		metric("eventCount", "Event count", "TYPE_INTEGER", "The count of events.", sum(bEvents)),
		metric("keyEvents", "Key events", "TYPE_FLOAT", "The count of key events (demo requests, sign-ups, purchases).", sum(bKeyEvents)),
		metric("conversions", "Conversions", "TYPE_FLOAT", "Deprecated: renamed keyEvents.", sum(bKeyEvents)),
		metric("sessionKeyEventRate", "Session key event rate", "TYPE_FLOAT", "The percentage of sessions in which any key event was triggered.", ratio(bKeyEvents, bSessions)),
		metric("totalRevenue", "Total revenue", "TYPE_CURRENCY", "The sum of revenue from purchases, subscriptions and advertising.", sum(bRevenue)),
	},
}

// realtimeCatalog is the Realtime API schema the sandbox answers.
var realtimeCatalog = &catalog{
	dimensions: []DimensionMetadata{
		{APIName: "minutesAgo", UIName: "Realtime minutes ago", Description: "The number of minutes ago that an event was collected. 00 is the current minute."},
		{APIName: "country", UIName: "Country", Description: "The country from which the user activity originated."},
		{APIName: "deviceCategory", UIName: "Device category", Description: "The type of device: Desktop, Tablet, or Mobile."},
		{APIName: "unifiedScreenName", UIName: "Page title and screen name", Description: "The page title (web) or screen name (app) on which the event was logged."},
	},
	metrics: []metricDef{
		metric("activeUsers", "Active users", "TYPE_INTEGER", "The number of distinct users who visited your site or app.", sum(bUsers)),
		metric("screenPageViews", "Views", "TYPE_INTEGER", "The number of app screens or web pages your users viewed.", sum(bViews)),
		metric("eventCount", "Event count", "TYPE_INTEGER", "The count of events.", sum(bEvents)),
		metric("keyEvents", "Key events", "TYPE_FLOAT", "The count of key events.", sum(bKeyEvents)),
	},
}
