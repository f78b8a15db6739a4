package bigquery

import (
	"time"
)

// sbTable is one seeded sandbox table; rows hold Go values in field order
// (string, int64, float64, bool, time.Time, nil, []any for REPEATED and
// RECORD).
type sbTable struct {
	id, description string
	fields          []fieldSchema
	rows            [][]any
}

type sbDataset struct {
	id, friendlyName, location string
	labels                     map[string]string
	tables                     []*sbTable
}

func ts(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

var utmFields = []fieldSchema{
	{Name: "source", Type: "STRING", Mode: "NULLABLE"},
	{Name: "medium", Type: "STRING", Mode: "NULLABLE"},
	{Name: "campaign", Type: "STRING", Mode: "NULLABLE"},
}

// seedDatasets returns the demo project's data: marketing (web sessions, ad
// spend) and sales (opportunities).
func seedDatasets() []*sbDataset {
	webSessions := &sbTable{id: "web_sessions", description: "One row per website session, from GA4 export.",
		fields: []fieldSchema{
			{Name: "session_id", Type: "STRING", Mode: "REQUIRED", Description: "GA4 session id"},
			{Name: "session_date", Type: "DATE", Mode: "NULLABLE"},
			{Name: "channel", Type: "STRING", Mode: "NULLABLE", Description: "Default channel group"},
			{Name: "landing_page", Type: "STRING", Mode: "NULLABLE"},
			{Name: "pageviews", Type: "INTEGER", Mode: "NULLABLE"},
			{Name: "converted", Type: "BOOLEAN", Mode: "NULLABLE", Description: "Submitted a demo request"},
			{Name: "started_at", Type: "TIMESTAMP", Mode: "NULLABLE"},
			{Name: "utm", Type: "RECORD", Mode: "NULLABLE", Fields: utmFields},
		},
		rows: [][]any{
			{"s-1001", "2025-11-03", "Paid Search", "/pricing", int64(4), true, ts("2025-11-03T09:12:00Z"), []any{"google", "cpc", "brand-q4"}},
			{"s-1002", "2025-11-03", "Organic Search", "/blog/icp-template", int64(2), false, ts("2025-11-03T10:40:00Z"), []any{nil, nil, nil}},
			{"s-1003", "2025-11-04", "Paid Social", "/demo", int64(3), true, ts("2025-11-04T14:05:00Z"), []any{"linkedin", "paid_social", "abm-enterprise"}},
			{"s-1004", "2025-11-04", "Direct", "/", int64(1), false, ts("2025-11-04T16:22:00Z"), []any{nil, nil, nil}},
			{"s-1005", "2025-11-05", "Paid Search", "/features", int64(6), false, ts("2025-11-05T08:01:00Z"), []any{"google", "cpc", "generic-crm"}},
			{"s-1006", "2025-11-05", "Email", "/webinar", int64(2), true, ts("2025-11-05T11:30:00Z"), []any{"hubspot", "email", "nov-newsletter"}},
			{"s-1007", "2025-11-06", "Organic Search", "/pricing", int64(5), true, ts("2025-11-06T13:45:00Z"), []any{nil, nil, nil}},
			{"s-1008", "2025-11-06", "Paid Social", "/case-studies", int64(2), false, ts("2025-11-06T15:10:00Z"), []any{"meta", "paid_social", "retargeting"}},
			{"s-1009", "2025-11-07", "Referral", "/integrations", int64(3), false, ts("2025-11-07T09:55:00Z"), []any{"g2", "referral", nil}},
			{"s-1010", "2025-11-07", "Paid Search", "/pricing", int64(7), true, ts("2025-11-07T17:20:00Z"), []any{"google", "cpc", "brand-q4"}},
			{"s-1011", "2025-11-08", "Direct", "/login", int64(1), false, ts("2025-11-08T07:05:00Z"), []any{nil, nil, nil}},
			{"s-1012", "2025-11-08", "Organic Search", "/blog/pipeline-stages", int64(3), false, ts("2025-11-08T12:00:00Z"), []any{nil, nil, nil}},
		}}
	adSpend := &sbTable{id: "ad_spend", description: "Daily spend per campaign across ad platforms.",
		fields: []fieldSchema{
			{Name: "date", Type: "DATE", Mode: "REQUIRED"},
			{Name: "channel", Type: "STRING", Mode: "REQUIRED", Description: "google_ads, meta_ads or linkedin_ads"},
			{Name: "campaign", Type: "STRING", Mode: "NULLABLE"},
			{Name: "impressions", Type: "INTEGER", Mode: "NULLABLE"},
			{Name: "clicks", Type: "INTEGER", Mode: "NULLABLE"},
			{Name: "cost", Type: "FLOAT", Mode: "NULLABLE", Description: "Spend in currency"},
			{Name: "currency", Type: "STRING", Mode: "NULLABLE"},
		},
		rows: [][]any{
			{"2025-11-03", "google_ads", "brand-q4", int64(12040), int64(611), 402.18, "USD"},
			{"2025-11-03", "linkedin_ads", "abm-enterprise", int64(8200), int64(64), 690.5, "USD"},
			{"2025-11-03", "meta_ads", "retargeting", int64(30110), int64(288), 151.02, "USD"},
			{"2025-11-04", "google_ads", "brand-q4", int64(11876), int64(598), 395.4, "USD"},
			{"2025-11-04", "google_ads", "generic-crm", int64(20500), int64(402), 812.77, "USD"},
			{"2025-11-04", "linkedin_ads", "abm-enterprise", int64(7950), int64(59), 655.0, "USD"},
			{"2025-11-05", "meta_ads", "retargeting", int64(28740), int64(301), 149.99, "USD"},
			{"2025-11-05", "google_ads", "generic-crm", int64(19870), int64(377), 790.12, "USD"},
			{"2025-11-06", "linkedin_ads", "abm-enterprise", int64(8420), int64(71), 702.35, "USD"},
			{"2025-11-06", "google_ads", "brand-q4", int64(12533), int64(640), 418.6, "USD"},
		}}
	opportunities := &sbTable{id: "opportunities", description: "CRM opportunities synced nightly from HubSpot.",
		fields: []fieldSchema{
			{Name: "opportunity_id", Type: "STRING", Mode: "REQUIRED"},
			{Name: "account_name", Type: "STRING", Mode: "NULLABLE"},
			{Name: "stage", Type: "STRING", Mode: "NULLABLE", Description: "Pipeline stage"},
			{Name: "amount", Type: "NUMERIC", Mode: "NULLABLE", Description: "Annual contract value, USD"},
			{Name: "close_date", Type: "DATE", Mode: "NULLABLE"},
			{Name: "owner", Type: "STRING", Mode: "NULLABLE"},
			{Name: "source_channel", Type: "STRING", Mode: "NULLABLE"},
			{Name: "products", Type: "STRING", Mode: "REPEATED"},
		},
		rows: [][]any{
			{"opp-201", "Northwind Traders", "closed_won", "48000", "2025-10-28", "maria@acme.example", "Paid Search", []any{"crm", "analytics"}},
			{"opp-202", "Globex", "negotiation", "120000", "2025-12-15", "sam@acme.example", "Paid Social", []any{"crm", "ads", "analytics"}},
			{"opp-203", "Initech", "discovery", "18000", "2026-01-20", "maria@acme.example", "Organic Search", []any{"crm"}},
			{"opp-204", "Umbrella Health", "proposal", "76500.50", "2025-12-01", "li@acme.example", "Email", []any{"analytics"}},
			{"opp-205", "Stark Logistics", "closed_lost", "30000", "2025-11-02", "sam@acme.example", "Referral", []any{}},
			{"opp-206", "Wayne Retail", "closed_won", "95000", "2025-11-07", "li@acme.example", "Paid Search", []any{"crm", "ads"}},
			{"opp-207", "Acme Robotics", "qualification", "22000", "2026-02-10", "maria@acme.example", "Direct", []any{"ads"}},
			{"opp-208", "Soylent Foods", "proposal", "64000", "2025-12-20", "sam@acme.example", "Paid Social", []any{"crm", "analytics"}},
		}}
	return []*sbDataset{
		{id: "marketing", friendlyName: "Marketing", location: "US", labels: map[string]string{"team": "growth"},
			tables: []*sbTable{adSpend, webSessions}},
		{id: "sales", friendlyName: "Sales", location: "US", labels: map[string]string{"team": "revops"},
			tables: []*sbTable{opportunities}},
	}
}
