package linkedinads

import (
	"fmt"
	"hash/fnv"
	"math"
	"strconv"
	"time"
)

// sbAccount is one sandbox sponsored account.
type sbAccount struct {
	ID, Name, Currency string
	Campaigns          []*sbCampaign
}

// sbCampaign's amounts are in currency units; spend is its average daily cost.
type sbCampaign struct {
	ID, Name, Status, Type, CostType, Group string
	DailyBudget, TotalBudget, UnitCost      float64
	Start                                   time.Time
	spend, cpm, ctr, cvr                    float64
	pausedDaysAgo                           int
}

var seedCampaigns = []struct {
	name, status, typ, cost      string
	daily, total, unit, cpm, ctr float64
	cvr                          float64
	paused                       int
}{
	{"Sponsored Content | Benchmarks Report | RevOps Leaders", "ACTIVE", "SPONSORED_UPDATES", "CPM", 150, 0, 38, 38, 0.0065, 0.12, 0},
	{"Lead Gen Form | Demo Request | Mid-Market SaaS", "ACTIVE", "SPONSORED_UPDATES", "CPC", 200, 0, 9.5, 62, 0.0071, 0.09, 0},
	{"Conversation Ads | Webinar Invite | CFOs", "ACTIVE", "SPONSORED_INMAILS", "CPM", 0, 4000, 0.45, 410, 0.031, 0.05, 0},
	{"Text Ads | Free Trial | Data Teams", "PAUSED", "TEXT_AD", "CPC", 40, 0, 4.2, 6, 0.0009, 0.03, 25},
	{"Video | Product Tour | Retargeting", "PAUSED", "SPONSORED_UPDATES", "CPM", 60, 0, 22, 22, 0.0042, 0.02, 40},
	{"Sponsored Content | Q1 Launch (archived)", "ARCHIVED", "SPONSORED_UPDATES", "CPM", 100, 0, 35, 35, 0.005, 0.05, 75},
}

// seedAccount builds an account; scale sizes its budgets and spend.
func seedAccount(id, name, currency string, scale float64) *sbAccount {
	a := &sbAccount{ID: id, Name: name, Currency: currency}
	for i, sc := range seedCampaigns {
		a.Campaigns = append(a.Campaigns, &sbCampaign{ID: fmt.Sprintf("%s%03d", id[:6], 101+i), Name: sc.name, Status: sc.status,
			Type: sc.typ, CostType: sc.cost, Group: fmt.Sprintf("urn:li:sponsoredCampaignGroup:%s%03d", id[:6], 1+i/3),
			DailyBudget: sc.daily * scale, TotalBudget: sc.total * scale, UnitCost: sc.unit * scale,
			Start: time.Date(2025, 1, 6+i, 14, 0, 0, 0, time.UTC), spend: (sc.daily + sc.total/45) * scale * 0.9,
			cpm: sc.cpm * scale, ctr: sc.ctr, cvr: sc.cvr, pausedDaysAgo: sc.paused})
	}
	return a
}

func (a *sbAccount) idNum() int64 { n, _ := strconv.ParseInt(a.ID, 10, 64); return n }

func (a *sbAccount) campaign(id string) *sbCampaign {
	for _, c := range a.Campaigns {
		if c.ID == id {
			return c
		}
	}
	return nil
}

// campaignJSON renders a campaign as the adCampaigns API does.
func (a *sbAccount) campaignJSON(c *sbCampaign) map[string]any {
	id, _ := strconv.ParseInt(c.ID, 10, 64)
	money := func(v float64) map[string]any {
		return map[string]any{"amount": strconv.FormatFloat(v, 'f', 2, 64), "currencyCode": a.Currency}
	}
	m := map[string]any{"id": id, "name": c.Name, "status": c.Status, "type": c.Type, "costType": c.CostType,
		"account": "urn:li:sponsoredAccount:" + a.ID, "campaignGroup": c.Group, "unitCost": money(c.UnitCost),
		"runSchedule": map[string]any{"start": c.Start.UnixMilli()}, "locale": map[string]any{"country": "US", "language": "en"},
		"objectiveType": "LEAD_GENERATION", "servingStatuses": []string{"RUNNABLE"}, "test": false}
	if c.DailyBudget > 0 {
		m["dailyBudget"] = money(c.DailyBudget)
	}
	if c.TotalBudget > 0 {
		m["totalBudget"] = money(c.TotalBudget)
	}
	return m
}

// counters are one day's metrics; Cost in account currency.
type counters struct{ Impressions, Clicks, LandingPageClicks, Conversions, Leads, Cost float64 }

func unit(id string, day time.Time, salt string) float64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s|%s|%s", id, day.Format(time.DateOnly), salt)
	return float64(h.Sum64()>>11) / (1 << 53)
}

// daily returns the campaign's metrics on day (90 days up to yesterday).
func (c *sbCampaign) daily(day, today time.Time) counters {
	ago := int(today.Sub(day).Hours() / 24)
	if ago < 1 || ago > 90 || ago <= c.pausedDaysAgo {
		return counters{}
	}
	factor := 1.0
	if wd := day.Weekday(); wd == time.Saturday || wd == time.Sunday {
		factor = 0.35 // LinkedIn's professional audience is mostly away at weekends
	}
	cost := c.spend * factor * (0.8 + 0.4*unit(c.ID, day, "cost"))
	imps := math.Round(cost / c.cpm * 1000)
	clicks := math.Round(imps * c.ctr * (0.8 + 0.4*unit(c.ID, day, "ctr")))
	return counters{Impressions: imps, Clicks: clicks, LandingPageClicks: math.Round(clicks * 0.8),
		Conversions: math.Round(clicks * c.cvr * 0.4), Leads: math.Round(clicks * c.cvr * (0.5 + unit(c.ID, day, "cvr"))),
		Cost: math.Round(cost*100) / 100}
}

func (k counters) add(o counters) counters {
	return counters{k.Impressions + o.Impressions, k.Clicks + o.Clicks, k.LandingPageClicks + o.LandingPageClicks,
		k.Conversions + o.Conversions, k.Leads + o.Leads, k.Cost + o.Cost}
}
