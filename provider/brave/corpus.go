package brave

// doc is one seeded sandbox document.
type doc struct {
	title, url, host, source, description, age, pageAge string
}

// webCorpus is the sandbox's small web index: go-to-market topics an agent
// of this gateway is likely to look up.
var webCorpus = []doc{
	{"What Is Go-to-Market Strategy? A Practical Guide", "https://www.example-gtm.com/guides/go-to-market-strategy", "www.example-gtm.com", "Example GTM",
		"A go-to-market strategy defines the ideal customer profile, positioning, pricing, channels and sales motion for a launch.", "3 weeks ago", "2025-10-02T09:00:00"},
	{"Ideal Customer Profile (ICP) Template for B2B SaaS", "https://blog.pipelinecraft.io/icp-template", "blog.pipelinecraft.io", "PipelineCraft",
		"Download an ideal customer profile template: firmographics, technographics, buying triggers and disqualifiers for B2B SaaS sales teams.", "2 months ago", "2025-08-14T12:30:00"},
	{"HubSpot CRM Pricing and Plans", "https://www.hubspot.com/pricing/crm", "www.hubspot.com", "HubSpot",
		"Compare HubSpot CRM plans: free tools, Starter, Professional and Enterprise seats for sales, marketing and service hubs.", "5 days ago", "2025-11-10T08:00:00"},
	{"Product-Led Growth vs Sales-Led Growth", "https://www.example-gtm.com/blog/plg-vs-slg", "www.example-gtm.com", "Example GTM",
		"Product-led growth lets users adopt before talking to sales; sales-led growth relies on outbound and demos. Most B2B SaaS companies blend both.", "1 month ago", "2025-09-28T15:00:00"},
	{"Benchmarks: B2B SaaS Conversion Rates by Funnel Stage", "https://research.funnelmetrics.com/b2b-saas-benchmarks", "research.funnelmetrics.com", "Funnel Metrics",
		"Median visitor-to-lead conversion is 1.4%, lead-to-opportunity 13%, opportunity-to-close 21% across 600 B2B SaaS companies.", "4 months ago", "2025-07-01T00:00:00"},
	{"Google Ads Performance Max: Best Practices", "https://support.google.com/google-ads/answer/performance-max", "support.google.com", "Google Ads Help",
		"Set up Performance Max campaigns with conversion goals, audience signals and asset groups; measure incrementality before scaling budget.", "2 weeks ago", "2025-10-30T10:00:00"},
	{"LinkedIn Ads Targeting for Account-Based Marketing", "https://business.linkedin.com/marketing-solutions/abm", "business.linkedin.com", "LinkedIn Marketing Solutions",
		"Upload target account lists, layer job function and seniority, and measure account-based marketing engagement with LinkedIn Ads.", "6 weeks ago", "2025-09-20T11:00:00"},
	{"Cold Email Deliverability Checklist", "https://www.mailwarmth.dev/deliverability-checklist", "www.mailwarmth.dev", "MailWarmth",
		"SPF, DKIM and DMARC alignment, warm-up schedules, bounce handling and volume limits that keep cold email out of spam folders.", "3 months ago", "2025-08-03T07:45:00"},
	{"Sales Pipeline Stages Explained", "https://blog.pipelinecraft.io/pipeline-stages", "blog.pipelinecraft.io", "PipelineCraft",
		"Define pipeline stages from discovery to closed won with exit criteria, probabilities and the CRM fields each stage should fill.", "2 months ago", "2025-08-25T09:15:00"},
	{"GA4 Attribution Models Compared", "https://analytics.example-data.com/ga4-attribution", "analytics.example-data.com", "Example Data",
		"Data-driven, last click and paid-and-organic last click attribution in Google Analytics 4, and when each model misleads.", "7 weeks ago", "2025-09-15T13:00:00"},
	{"Pricing Page Teardown: 20 SaaS Companies", "https://www.example-gtm.com/research/pricing-page-teardown", "www.example-gtm.com", "Example GTM",
		"How 20 B2B SaaS companies present tiers, usage-based pricing, annual discounts and enterprise contact-sales paths.", "10 days ago", "2025-11-05T16:20:00"},
	{"Account-Based Marketing Playbook", "https://research.funnelmetrics.com/abm-playbook", "research.funnelmetrics.com", "Funnel Metrics",
		"Tiered account-based marketing: one-to-one, one-to-few and one-to-many programmes with sales and marketing alignment.", "5 months ago", "2025-06-10T00:00:00"},
	{"BigQuery for Marketing Analytics", "https://cloud.google.com/bigquery/docs/marketing-analytics", "cloud.google.com", "Google Cloud",
		"Join ad spend, web sessions and CRM opportunities in BigQuery to compute pipeline-sourced ROI and customer acquisition cost.", "1 month ago", "2025-10-12T10:00:00"},
	{"Customer Acquisition Cost (CAC) Payback Calculator", "https://analytics.example-data.com/cac-payback", "analytics.example-data.com", "Example Data",
		"Calculate customer acquisition cost and CAC payback months from sales and marketing spend, new customers and gross margin.", "3 weeks ago", "2025-10-20T12:00:00"},
	{"Competitive Battlecards for Sales Teams", "https://blog.pipelinecraft.io/battlecards", "blog.pipelinecraft.io", "PipelineCraft",
		"Build competitive battlecards with positioning, objection handling and landmines to lay against each competitor in B2B sales.", "4 weeks ago", "2025-10-15T14:00:00"},
}

// newsCorpus is the sandbox's news index.
var newsCorpus = []doc{
	{"B2B SaaS Funding Rebounds in Q3 as AI Sales Tools Lead", "https://news.example-wire.com/2025/11/saas-funding-q3", "news.example-wire.com", "Example Wire",
		"Venture funding for B2B SaaS rose 18% quarter over quarter, led by AI sales and go-to-market automation startups.", "2 days ago", "2025-11-13T06:00:00"},
	{"HubSpot Announces New AI Agents for CRM", "https://www.techdaily.example/hubspot-ai-agents-crm", "www.techdaily.example", "TechDaily",
		"HubSpot introduced AI agents that draft follow-ups, enrich contacts and update deal stages inside its CRM.", "1 day ago", "2025-11-14T15:30:00"},
	{"Google Ads Changes Performance Max Reporting", "https://www.searchnews.example/google-ads-pmax-reporting", "www.searchnews.example", "Search News",
		"Advertisers now see channel-level reporting for Performance Max campaigns, a long-requested change to Google Ads.", "4 days ago", "2025-11-11T09:10:00"},
	{"LinkedIn Reports Record Ad Revenue", "https://news.example-wire.com/2025/10/linkedin-ad-revenue", "news.example-wire.com", "Example Wire",
		"LinkedIn's advertising revenue grew 12% year over year as B2B marketers shifted budget to account-based marketing.", "3 weeks ago", "2025-10-24T18:00:00"},
	{"Gmail Tightens Bulk Sender Rules Again", "https://www.mailnews.example/gmail-bulk-sender-rules", "www.mailnews.example", "Mail News",
		"Bulk email senders must keep spam complaint rates under 0.3% and support one-click unsubscribe, Gmail said.", "6 days ago", "2025-11-09T12:00:00"},
	{"Survey: Sales Teams Spend 30% of Time in the CRM", "https://www.techdaily.example/sales-crm-time-survey", "www.techdaily.example", "TechDaily",
		"A survey of 1,200 sales reps finds nearly a third of selling time goes to CRM data entry and pipeline updates.", "2 weeks ago", "2025-11-01T08:00:00"},
	{"BigQuery Adds Cheaper Storage Tier for Analytics", "https://www.cloudnews.example/bigquery-storage-tier", "www.cloudnews.example", "Cloud News",
		"Google Cloud introduced a lower-cost storage tier for BigQuery tables that analytics teams query rarely.", "1 week ago", "2025-11-08T10:00:00"},
}
