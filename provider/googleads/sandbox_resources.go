package googleads

import (
	"fmt"
	"maps"
	"slices"
	"time"
)

// sbEntity is one row of a resource before metrics: its attribute fields and,
// for resources with metrics, its metrics on a day.
type sbEntity struct {
	attrs map[string]any
	daily func(day time.Time) counters
}

// metricResources are the resources the sandbox reports metrics for.
var metricResources = map[string]bool{"customer": true, "campaign": true, "ad_group": true, "keyword_view": true}

// metricFields are the metrics the sandbox computes: those withMetricValues
// sets. Which of them the API version has is the spec's gaql_fields.
var metricFields = slices.Sorted(maps.Keys(withMetricValues(map[string]any{}, counters{})))

func (c *sbCustomer) customerAttrs() map[string]any {
	return map[string]any{"customer.resource_name": "customers/" + c.ID, "customer.id": mustInt(c.ID),
		"customer.descriptive_name": c.Name, "customer.currency_code": c.Currency, "customer.time_zone": c.TimeZone,
		"customer.manager": c.Manager}
}

// geoTargets are a few geo target constants. Their resource names are not
// under customers/, so, like every constant, they carry no customer fields.
var geoTargets = []struct {
	id                  int64
	name, country, kind string
}{{2036, "Australia", "AU", "Country"}, {2276, "Germany", "DE", "Country"}, {2840, "United States", "US", "Country"}}

func geoTargetAttrs(i int) map[string]any {
	g := geoTargets[i]
	return map[string]any{"geo_target_constant.resource_name": fmt.Sprintf("geoTargetConstants/%d", g.id),
		"geo_target_constant.id": g.id, "geo_target_constant.name": g.name, "geo_target_constant.canonical_name": g.name,
		"geo_target_constant.country_code": g.country, "geo_target_constant.target_type": g.kind,
		"geo_target_constant.status": "ENABLED"}
}

func (c *sbCustomer) budgetAttrs(b *sbBudget) map[string]any {
	m := c.customerAttrs()
	m["campaign_budget.resource_name"] = fmt.Sprintf("customers/%s/campaignBudgets/%d", c.ID, b.ID)
	m["campaign_budget.id"] = b.ID
	m["campaign_budget.name"] = b.Name
	m["campaign_budget.amount_micros"] = b.AmountMicros
	m["campaign_budget.explicitly_shared"] = b.Shared
	m["campaign_budget.delivery_method"] = "STANDARD"
	m["campaign_budget.status"] = "ENABLED"
	return m
}

func (c *sbCustomer) campaignAttrs(k *sbCampaign) map[string]any {
	m := c.budgetAttrs(k.Budget)
	serving := "SERVING"
	if k.Status == "REMOVED" {
		serving = "ENDED"
	}
	maps.Copy(m, map[string]any{"campaign.resource_name": fmt.Sprintf("customers/%s/campaigns/%d", c.ID, k.ID),
		"campaign.id": k.ID, "campaign.name": k.Name, "campaign.status": k.Status, "campaign.serving_status": serving,
		"campaign.advertising_channel_type": k.Channel, "campaign.bidding_strategy_type": k.Bidding,
		"campaign.campaign_budget": m["campaign_budget.resource_name"]})
	return m
}

func (c *sbCustomer) adGroupAttrs(g *sbAdGroup) map[string]any {
	m := c.campaignAttrs(g.Campaign)
	maps.Copy(m, map[string]any{"ad_group.resource_name": fmt.Sprintf("customers/%s/adGroups/%d", c.ID, g.ID),
		"ad_group.id": g.ID, "ad_group.name": g.Name, "ad_group.status": g.Status, "ad_group.type": "SEARCH_STANDARD",
		"ad_group.campaign": m["campaign.resource_name"]})
	return m
}

func (c *sbCustomer) keywordAttrs(k *sbKeyword) map[string]any {
	m := c.adGroupAttrs(k.AdGroup)
	key := fmt.Sprintf("%d~%d", k.AdGroup.ID, k.ID)
	maps.Copy(m, map[string]any{"keyword_view.resource_name": "customers/" + c.ID + "/keywordViews/" + key,
		"ad_group_criterion.resource_name": "customers/" + c.ID + "/adGroupCriteria/" + key,
		"ad_group_criterion.criterion_id":  k.ID, "ad_group_criterion.keyword.text": k.Text,
		"ad_group_criterion.keyword.match_type": k.MatchType, "ad_group_criterion.status": k.Status,
		"ad_group_criterion.negative": false, "ad_group_criterion.type": "KEYWORD"})
	return m
}

func (c *sbCustomer) negativeAttrs(n *sbNegative) map[string]any {
	m := c.campaignAttrs(n.Campaign)
	maps.Copy(m, map[string]any{"campaign_criterion.resource_name": fmt.Sprintf("customers/%s/campaignCriteria/%d~%d", c.ID, n.Campaign.ID, n.ID),
		"campaign_criterion.criterion_id": n.ID, "campaign_criterion.negative": true, "campaign_criterion.type": "KEYWORD",
		"campaign_criterion.keyword.text": n.Text, "campaign_criterion.keyword.match_type": n.MatchType,
		"campaign_criterion.campaign": m["campaign.resource_name"]})
	return m
}

// entities returns the rows of resource, false when the sandbox does not know it.
func (c *sbCustomer) entities(resource string, today time.Time) ([]sbEntity, bool) {
	var out []sbEntity
	switch resource {
	case "customer":
		out = append(out, sbEntity{c.customerAttrs(), func(d time.Time) counters {
			var sum counters
			for _, k := range c.Campaigns {
				sum = sum.add(k.daily(d, today))
			}
			return sum
		}})
	case "campaign_budget":
		for _, b := range c.Budgets {
			out = append(out, sbEntity{attrs: c.budgetAttrs(b)})
		}
	case "campaign":
		for _, k := range c.Campaigns {
			out = append(out, sbEntity{c.campaignAttrs(k), func(d time.Time) counters { return k.daily(d, today) }})
		}
	case "ad_group":
		for _, g := range c.AdGroups {
			out = append(out, sbEntity{c.adGroupAttrs(g), func(d time.Time) counters { return g.Campaign.daily(d, today).share(g.weight) }})
		}
	case "keyword_view", "ad_group_criterion":
		for _, k := range c.Keywords {
			e := sbEntity{attrs: c.keywordAttrs(k)}
			if resource == "keyword_view" {
				e.daily = func(d time.Time) counters {
					return k.AdGroup.Campaign.daily(d, today).share(k.AdGroup.weight * k.weight)
				}
			} else {
				delete(e.attrs, "keyword_view.resource_name")
			}
			out = append(out, e)
		}
	case "campaign_criterion":
		for _, n := range c.Negatives {
			out = append(out, sbEntity{attrs: c.negativeAttrs(n)})
		}
	case "geo_target_constant":
		for i := range geoTargets {
			out = append(out, sbEntity{attrs: geoTargetAttrs(i)})
		}
	default:
		return nil, false
	}
	return out, true
}

// knownFields lists the fields resource can select, for UNRECOGNIZED_FIELD:
// those the sandbox models that the spec's version has.
func (c *sbCustomer) knownFields(resource string) map[string]bool {
	known := map[string]bool{}
	for _, f := range c.modeledFields(resource) {
		if _, ok := gaqlFields[f]; ok {
			known[f] = true
		}
	}
	return known
}

// modeledFields are the fields the sandbox has values for in resource's rows.
func (c *sbCustomer) modeledFields(resource string) []string {
	// A sample entity of the seed shape, so a customer with no campaigns (a
	// manager) knows the same fields.
	sample := seedCustomer(c.ID, c.Name, c.Currency, c.TimeZone, 1, 1)
	var attrs map[string]any
	switch resource {
	case "customer":
		attrs = c.customerAttrs()
	case "campaign_budget":
		attrs = sample.budgetAttrs(sample.Budgets[0])
	case "campaign":
		attrs = sample.campaignAttrs(sample.Campaigns[0])
	case "ad_group":
		attrs = sample.adGroupAttrs(sample.AdGroups[0])
	case "keyword_view", "ad_group_criterion":
		attrs = sample.keywordAttrs(sample.Keywords[0])
		if resource == "ad_group_criterion" {
			delete(attrs, "keyword_view.resource_name") // as entities: not attributed to ad_group_criterion
		}
	case "campaign_criterion":
		attrs = sample.negativeAttrs(sample.Negatives[0])
	case "geo_target_constant":
		attrs = geoTargetAttrs(0)
	case "customer_client":
		attrs = c.customerClientAttrs(c, 0)
	}
	modeled := slices.Sorted(maps.Keys(attrs))
	if metricResources[resource] {
		modeled = append(append(modeled, metricFields...), "segments.date")
	}
	return modeled
}

func mustInt(s string) int64 {
	var n int64
	fmt.Sscanf(s, "%d", &n)
	return n
}
