package googleads

import (
	"fmt"
	"hash/fnv"
	"math"
	"strings"
	"time"
)

// sbCustomer is one sandbox Google Ads account.
type sbCustomer struct {
	ID, Name, Currency, TimeZone string
	// Manager marks a manager account; ManagedBy is a client's manager.
	Manager   bool
	ManagedBy string
	Campaigns []*sbCampaign
	Budgets   []*sbBudget
	AdGroups  []*sbAdGroup
	Keywords  []*sbKeyword
	Negatives []*sbNegative
	nextID    int64
}

type sbBudget struct {
	ID           int64
	Name         string
	AmountMicros int64
	Shared       bool
}

// sbCampaign's spend centres on its budget; ctr, cpc and cvr shape the rest.
type sbCampaign struct {
	ID                             int64
	Name, Status, Channel, Bidding string
	Budget                         *sbBudget
	ctr, cpc, cvr, spend           float64
	pausedDaysAgo                  int // no delivery in the last n days
}

type sbAdGroup struct {
	ID       int64
	Campaign *sbCampaign
	Name     string
	Status   string
	weight   float64
}

type sbKeyword struct {
	ID        int64
	AdGroup   *sbAdGroup
	Text      string
	MatchType string
	Status    string
	weight    float64
}

type sbNegative struct {
	ID        int64
	Campaign  *sbCampaign
	Text      string
	MatchType string
}

// counters are one day's raw metrics. Viewable are Active View viewable
// impressions (Display and Video), Views TrueView views (Video).
type counters struct {
	Impressions, Clicks, CostMicros int64
	Viewable, Views                 int64
	Conversions, ConversionsValue   float64
}

type seedGroup struct {
	name     string
	weight   float64
	keywords []string // "text|MATCH|weight"
}

var seedCampaigns = []struct {
	name, status, channel, bidding string
	budget, ctr, cpc, cvr          float64
	paused                         int
	shared                         bool
	groups                         []seedGroup
}{
	{"Search | Brand | Northwind", "ENABLED", "SEARCH", "TARGET_IMPRESSION_SHARE", 50, 0.12, 1.10, 0.08, 0, false, []seedGroup{
		{"Brand - Core", 0.7, []string{"northwind analytics|EXACT|0.6", "northwind analytics login|PHRASE|0.25", "northwind dashboards|PHRASE|0.15"}},
		{"Brand - Pricing", 0.3, []string{"northwind analytics pricing|EXACT|0.7", "northwind pricing|PHRASE|0.3"}}}},
	{"Search | Competitors", "ENABLED", "SEARCH", "MAXIMIZE_CONVERSIONS", 120, 0.035, 6.40, 0.03, 0, false, []seedGroup{
		{"Competitors - Alternatives", 0.55, []string{"looker alternative|PHRASE|0.45", "tableau alternative|PHRASE|0.35", "mode analytics competitor|BROAD|0.2"}},
		{"Competitors - Comparisons", 0.45, []string{"looker vs tableau|PHRASE|0.5", "best bi tools for saas|BROAD|0.5"}}}},
	{"Search | Generic | Revenue Analytics", "ENABLED", "SEARCH", "TARGET_CPA", 200, 0.028, 8.90, 0.025, 0, false, []seedGroup{
		{"Revenue Analytics", 0.6, []string{"revenue analytics software|PHRASE|0.5", "saas revenue reporting|PHRASE|0.3", "arr dashboard|EXACT|0.2"}},
		{"Pipeline Reporting", 0.4, []string{"pipeline reporting tool|PHRASE|0.4", "b2b sales analytics|BROAD|0.35", "crm reporting software|BROAD|0.25"}}}},
	{"Display | Retargeting | Trial Visitors", "PAUSED", "DISPLAY", "MANUAL_CPC", 100, 0.004, 0.85, 0.01, 18, true, []seedGroup{
		{"Trial visitors 30d", 1, nil}}},
	{"Performance Max | Free Trial", "ENABLED", "PERFORMANCE_MAX", "MAXIMIZE_CONVERSIONS", 150, 0.011, 2.75, 0.02, 0, false, nil},
	{"YouTube | Product Demo", "PAUSED", "VIDEO", "TARGET_CPM", 100, 0.002, 0.40, 0.004, 45, true, []seedGroup{
		{"Demo viewers - in-market BI", 1, nil}}},
	{"Search | Q3 Webinar (ended)", "REMOVED", "SEARCH", "MANUAL_CPC", 30, 0.05, 3.20, 0.04, 70, false, []seedGroup{
		{"Webinar", 1, []string{"saas metrics webinar|PHRASE|1"}}}},
}

// seedCustomer builds an account; scale sizes budgets and spend, prefix makes its ids distinct.
func seedCustomer(id, name, currency, tz string, scale float64, prefix int64) *sbCustomer {
	c := &sbCustomer{ID: id, Name: name, Currency: currency, TimeZone: tz, nextID: prefix*1_000_000_000 + 900_000}
	base := prefix * 1_000_000_000
	var shared *sbBudget
	for i, sc := range seedCampaigns {
		amount := int64(math.Round(sc.budget*scale)) * 1_000_000
		b := &sbBudget{ID: base + 500_001 + int64(i), Name: sc.name + " budget", AmountMicros: amount}
		if sc.shared && shared != nil {
			b = shared
		} else {
			if sc.shared {
				b.Name, b.Shared, shared = "Awareness (shared)", true, b
			}
			c.Budgets = append(c.Budgets, b)
		}
		camp := &sbCampaign{ID: base + 100_001 + int64(i), Name: sc.name, Status: sc.status, Channel: sc.channel, Bidding: sc.bidding,
			Budget: b, ctr: sc.ctr, cpc: sc.cpc * (0.8 + 0.2*scale*2), cvr: sc.cvr, spend: sc.budget * scale * 0.9, pausedDaysAgo: sc.paused}
		if sc.shared {
			camp.spend /= 2
		}
		c.Campaigns = append(c.Campaigns, camp)
		for j, g := range sc.groups {
			ag := &sbAdGroup{ID: base + 200_001 + int64(i*10+j), Campaign: camp, Name: g.name, Status: "ENABLED", weight: g.weight}
			c.AdGroups = append(c.AdGroups, ag)
			for k, kw := range g.keywords {
				parts := strings.Split(kw, "|")
				text, match, w := parts[0], parts[1], parseWeight(parts[2])
				c.Keywords = append(c.Keywords, &sbKeyword{ID: base + 300_001 + int64(i*100+j*10+k), AdGroup: ag, Text: text, MatchType: match, Status: "ENABLED", weight: w})
			}
		}
	}
	c.Negatives = append(c.Negatives, &sbNegative{ID: base + 400_001, Campaign: c.Campaigns[2], Text: "free", MatchType: "BROAD"},
		&sbNegative{ID: base + 400_002, Campaign: c.Campaigns[2], Text: "jobs", MatchType: "BROAD"})
	return c
}

func parseWeight(s string) float64 {
	var w float64
	fmt.Sscanf(s, "%g", &w)
	return w
}

// unit returns a deterministic number in [0, 1) for (id, day, salt).
func unit(id int64, day time.Time, salt string) float64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d|%s|%s", id, day.Format(time.DateOnly), salt)
	return float64(h.Sum64()>>11) / (1 << 53)
}

// daily returns the campaign's metrics on day; today is the sandbox's date.
func (c *sbCampaign) daily(day, today time.Time) counters {
	ago := int(today.Sub(day).Hours() / 24)
	if ago < 1 || ago > 90 || ago <= c.pausedDaysAgo {
		return counters{}
	}
	factor := 1.0
	if wd := day.Weekday(); wd == time.Saturday || wd == time.Sunday {
		factor = 0.55 // B2B searches drop at weekends
	}
	spend := c.spend * factor * (0.8 + 0.4*unit(c.ID, day, "spend"))
	cpc := c.cpc * (0.9 + 0.2*unit(c.ID, day, "cpc"))
	clicks := int64(math.Round(spend / cpc))
	imps := int64(math.Round(float64(clicks) / (c.ctr * (0.85 + 0.3*unit(c.ID, day, "ctr")))))
	conv := math.Round(float64(clicks)*c.cvr*(0.6+0.8*unit(c.ID, day, "cvr"))*100) / 100
	k := counters{Impressions: imps, Clicks: clicks, CostMicros: int64(math.Round(spend*100)) * 10_000,
		Conversions: conv, ConversionsValue: math.Round(conv*120*100) / 100}
	switch c.Channel {
	case "DISPLAY":
		k.Viewable = int64(math.Round(float64(imps) * 0.62))
	case "VIDEO":
		k.Viewable = int64(math.Round(float64(imps) * 0.7))
		k.Views = int64(math.Round(float64(imps) * 0.31))
	}
	return k
}

// share scales counters by weight (ad groups and keywords take a share of their parent).
func (k counters) share(w float64) counters {
	part := func(n int64) int64 { return int64(math.Round(float64(n) * w)) }
	return counters{Impressions: part(k.Impressions), Clicks: part(k.Clicks),
		CostMicros: int64(math.Round(float64(k.CostMicros)*w/10_000)) * 10_000, Viewable: part(k.Viewable), Views: part(k.Views),
		Conversions: math.Round(k.Conversions*w*100) / 100, ConversionsValue: math.Round(k.ConversionsValue*w*100) / 100}
}

func (k counters) add(o counters) counters {
	return counters{Impressions: k.Impressions + o.Impressions, Clicks: k.Clicks + o.Clicks, CostMicros: k.CostMicros + o.CostMicros,
		Viewable: k.Viewable + o.Viewable, Views: k.Views + o.Views,
		Conversions: k.Conversions + o.Conversions, ConversionsValue: k.ConversionsValue + o.ConversionsValue}
}
