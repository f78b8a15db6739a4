package metaads

// The insights and Campaign fields the sandbox accepts are the spec's
// (spec.go: graphInsightsFields, graphCampaignFields), from the v26.0 SDK.
// The sandbox answers a field outside them the way Graph does, so a name the
// adapter or an agent gets wrong fails here as it would against Meta.

// removedInsightFields are insights fields Meta removed, by the version that
// removed them; the SDK still lists some of them. The v19.0 set is from the
// Marketing API v19.0 changelog; the v26.0 set is what the SDK dropped between
// v25.0.3 and v26.0.0.
var removedInsightFields = map[string]string{
	"age_targeting": "v19.0", "gender_targeting": "v19.0", "labels": "v19.0", "location": "v19.0",
	"estimated_ad_recall_rate_lower_bound": "v19.0", "estimated_ad_recall_rate_upper_bound": "v19.0",
	"estimated_ad_recallers_lower_bound": "v19.0", "estimated_ad_recallers_upper_bound": "v19.0",
	"marketing_messages_website_add_to_cart": "v26.0", "marketing_messages_website_initiate_checkout": "v26.0",
	"marketing_messages_website_purchase": "v26.0", "marketing_messages_website_purchase_values": "v26.0",
}
