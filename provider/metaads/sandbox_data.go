package metaads

import (
	"fmt"
	"hash/fnv"
	"math"
	"time"
)

// sbAccount is one sandbox ad account.
type sbAccount struct {
	ID, Name, Currency string
	Campaigns          []*sbCampaign
	AdSets             []*sbAdSet
	Ads                []*sbAd
}

// sbCampaign budgets are in minor units, as Meta stores them.
type sbCampaign struct {
	ID, Name, Status, Objective string
	DailyBudget, LifetimeBudget int64
	spend, cpm, ctr, cvr        float64 // spend in currency units a day
	pausedDaysAgo               int
}

type sbAdSet struct {
	ID, Name string
	Campaign *sbCampaign
	weight   float64
}

type sbAd struct {
	ID, Name string
	AdSet    *sbAdSet
	weight   float64
}

// counters are one day's metrics; Spend in currency units.
type counters struct {
	Impressions, Clicks, Leads float64
	Spend                      float64
}

var seedCampaigns = []struct {
	name, status, objective        string
	daily, lifetime, cpm, ctr, cvr float64
	paused                         int
	adsets                         []string
}{
	{"Lead Gen | Ebook: SaaS Metrics Benchmarks", "ACTIVE", "OUTCOME_LEADS", 80, 0, 28, 0.011, 0.09, 0, []string{"Lookalike 1% - Trial signups", "Interest - RevOps & Finance"}},
	{"Retargeting | Free Trial | Website Visitors", "ACTIVE", "OUTCOME_SALES", 50, 0, 42, 0.018, 0.05, 0, []string{"Website visitors 30d", "Pricing page 14d"}},
	{"Awareness | Product Video | Lookalike 1%", "PAUSED", "OUTCOME_AWARENESS", 60, 0, 9, 0.004, 0.005, 20, []string{"Lookalike 1% - Customers"}},
	{"Webinar | Q3 Pipeline Masterclass", "ACTIVE", "OUTCOME_LEADS", 0, 3000, 35, 0.009, 0.12, 0, []string{"Job titles - Sales leaders", "Engaged video viewers"}},
	{"Test | Carousel Creative", "ARCHIVED", "OUTCOME_TRAFFIC", 20, 0, 15, 0.008, 0.01, 60, []string{"Broad - US"}},
}

// seedAccount builds an ad account; rate converts USD seed amounts into its currency.
func seedAccount(id, name, currency string, rate float64, prefix int) *sbAccount {
	a := &sbAccount{ID: id, Name: name, Currency: currency}
	minor := minorPerUnit(currency)
	for i, sc := range seedCampaigns {
		c := &sbCampaign{ID: fmt.Sprintf("%d%013d", prefix, 6100000000000+int64(i)), Name: sc.name, Status: sc.status, Objective: sc.objective,
			DailyBudget: int64(math.Round(sc.daily * rate * minor)), LifetimeBudget: int64(math.Round(sc.lifetime * rate * minor)),
			spend: (sc.daily + sc.lifetime/60) * rate * 0.92, cpm: sc.cpm * rate, ctr: sc.ctr, cvr: sc.cvr, pausedDaysAgo: sc.paused}
		a.Campaigns = append(a.Campaigns, c)
		for j, name := range sc.adsets {
			as := &sbAdSet{ID: fmt.Sprintf("%d%013d", prefix, 6200000000000+int64(i*10+j)), Name: name, Campaign: c, weight: 1 / float64(len(sc.adsets))}
			a.AdSets = append(a.AdSets, as)
			for k, creative := range []string{"Static - Benchmark chart", "Video - 30s customer story"} {
				a.Ads = append(a.Ads, &sbAd{ID: fmt.Sprintf("%d%013d", prefix, 6300000000000+int64(i*100+j*10+k)),
					Name: name + " | " + creative, AdSet: as, weight: []float64{0.6, 0.4}[k]})
			}
		}
	}
	return a
}

func unit(id string, day time.Time, salt string) float64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s|%s|%s", id, day.Format(time.DateOnly), salt)
	return float64(h.Sum64()>>11) / (1 << 53)
}

// daily returns the campaign's metrics on day (today excluded, 90 days kept).
func (c *sbCampaign) daily(day, today time.Time) counters {
	ago := int(today.Sub(day).Hours() / 24)
	if ago < 1 || ago > 90 || ago <= c.pausedDaysAgo {
		return counters{}
	}
	spend := c.spend * (0.75 + 0.5*unit(c.ID, day, "spend"))
	imps := math.Round(spend / c.cpm * 1000)
	clicks := math.Round(imps * c.ctr * (0.8 + 0.4*unit(c.ID, day, "ctr")))
	return counters{Impressions: imps, Clicks: clicks, Leads: math.Round(clicks * c.cvr * (0.5 + unit(c.ID, day, "cvr"))), Spend: spend}
}

func (k counters) scale(w float64) counters {
	return counters{k.Impressions * w, k.Clicks * w, k.Leads * w, k.Spend * w}
}

func (k counters) add(o counters) counters {
	return counters{k.Impressions + o.Impressions, k.Clicks + o.Clicks, k.Leads + o.Leads, k.Spend + o.Spend}
}

// breakdownValues splits delivery across a breakdown's values.
var breakdownValues = map[string][]struct {
	value  string
	weight float64
}{
	"age":                {{"18-24", 0.06}, {"25-34", 0.34}, {"35-44", 0.31}, {"45-54", 0.18}, {"55-64", 0.08}, {"65+", 0.03}},
	"gender":             {{"female", 0.41}, {"male", 0.56}, {"unknown", 0.03}},
	"country":            {{"US", 0.62}, {"CA", 0.11}, {"GB", 0.15}, {"AU", 0.07}, {"DE", 0.05}},
	"region":             {{"California", 0.22}, {"New York", 0.18}, {"Texas", 0.12}, {"Ontario", 0.08}, {"England", 0.4}},
	"publisher_platform": {{"facebook", 0.58}, {"instagram", 0.33}, {"audience_network", 0.06}, {"messenger", 0.03}},
	"platform_position":  {{"feed", 0.64}, {"instagram_stories", 0.18}, {"facebook_reels", 0.1}, {"right_hand_column", 0.08}},
	"device_platform":    {{"mobile_app", 0.71}, {"desktop", 0.29}},
	"impression_device":  {{"iphone", 0.38}, {"android_smartphone", 0.33}, {"desktop", 0.29}},
}
