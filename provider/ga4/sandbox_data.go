package ga4

import (
	"math"
	"math/rand/v2"
	"time"
)

// Base (additive) measures every sandbox fact carries; metrics are computed
// from their sums.
const (
	bSessions = iota
	bUsers
	bNewUsers
	bEngaged
	bKeyEvents
	bRevenue
	bViews
	bDuration
	bEvents
	nBase
)

// table is a fact table: each fact is one combination of dimension values
// (indexes into values) with its base measures.
type table struct {
	columns []string
	values  [][]string
	facts   []fact
}

type fact struct {
	dims [5]uint16
	v    [nBase]float64
}

type share struct {
	name   string
	weight float64
	// conv scales the key-event rate; eng is the engagement rate.
	conv, eng float64
}

var (
	channels = []share{{"Organic Search", .34, 1, .62}, {"Direct", .22, 1.4, .58}, {"Paid Search", .14, 2, .55},
		{"Referral", .08, 1.6, .66}, {"Organic Social", .07, .5, .41}, {"Email", .06, 2.4, .71}, {"Paid Social", .05, .6, .38}}
	countries = []share{{"United States", .46, 1.1, 0}, {"United Kingdom", .12, 1, 0}, {"Germany", .09, .9, 0}, {"Canada", .08, 1, 0},
		{"India", .08, .4, 0}, {"France", .06, .8, 0}, {"Australia", .05, 1, 0}, {"Netherlands", .06, .9, 0}}
	devices      = []share{{"desktop", .68, 1.2, 0}, {"mobile", .29, .5, 0}, {"tablet", .03, .7, 0}}
	landingPages = []share{{"/", .30, 1, 0}, {"/pricing", .14, 2.2, 0}, {"/product/revenue-analytics", .12, 1.3, 0},
		{"/blog/saas-metrics-benchmarks-2025", .18, .35, 0}, {"/demo", .07, 4.5, 0}, {"/integrations/hubspot", .09, 1.1, 0},
		{"/customers", .06, 1, 0}, {"(not set)", .04, .2, 0}}
	screens = []share{{"Ledgerly | Revenue analytics for B2B SaaS", .35, 1, 0}, {"Pricing | Ledgerly", .18, 2, 0},
		{"SaaS metrics benchmarks 2025 | Ledgerly blog", .22, .3, 0}, {"Book a demo | Ledgerly", .08, 4, 0},
		{"HubSpot integration | Ledgerly", .1, 1, 0}, {"Customer stories | Ledgerly", .07, 1, 0}}
	planPrices = []float64{49, 99, 299, 2990}
)

// dailyTable generates days of daily traffic ending today, by channel,
// country, device and landing page. The same seed and today give the same data.
func dailyTable(seed uint64, today time.Time, days int, scale float64) *table {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	t := &table{columns: []string{"date", "sessionDefaultChannelGroup", "country", "deviceCategory", "landingPage"}}
	var dates []string
	for d := days; d >= 0; d-- {
		dates = append(dates, today.AddDate(0, 0, -d).Format("20060102"))
	}
	t.values = [][]string{dates, shareNames(channels), shareNames(countries), shareNames(devices), shareNames(landingPages)}
	for di := range dates {
		day := today.AddDate(0, 0, di-days)
		total := 1400 * scale * (1 + 0.004*float64(di))
		switch day.Weekday() {
		case time.Saturday:
			total *= .45
		case time.Sunday:
			total *= .5
		}
		if di == days {
			total *= .4 // today is still running
		}
		for ci, ch := range channels {
			for ki, co := range countries {
				for vi, dv := range devices {
					for pi, pg := range landingPages {
						s := poisson(rng, total*ch.weight*co.weight*dv.weight*pg.weight)
						if s == 0 {
							continue
						}
						f := fact{dims: [5]uint16{uint16(di), uint16(ci), uint16(ki), uint16(vi), uint16(pi)}}
						f.v = measures(rng, s, ch.eng, 0.011*ch.conv*co.conv*dv.conv*pg.conv)
						t.facts = append(t.facts, f)
					}
				}
			}
		}
	}
	return t
}

// realtimeTable generates the last 30 minutes by country, device and screen.
func realtimeTable(seed uint64, scale float64) *table {
	rng := rand.New(rand.NewPCG(seed, 0x51ed27))
	t := &table{columns: []string{"minutesAgo", "country", "deviceCategory", "unifiedScreenName"}}
	var minutes []string
	for m := range 30 {
		minutes = append(minutes, twoDigits(m))
	}
	t.values = [][]string{minutes, shareNames(countries), shareNames(devices), shareNames(screens)}
	for mi := range minutes {
		for ki, co := range countries {
			for vi, dv := range devices {
				for si, sc := range screens {
					u := poisson(rng, 45*scale*co.weight*dv.weight*sc.weight)
					if u == 0 {
						continue
					}
					f := fact{dims: [5]uint16{uint16(mi), uint16(ki), uint16(vi), uint16(si)}}
					f.v[bUsers] = float64(u)
					f.v[bViews] = float64(u + poisson(rng, float64(u)*.6))
					f.v[bEvents] = f.v[bViews] + float64(poisson(rng, float64(u)*2))
					f.v[bKeyEvents] = float64(poisson(rng, float64(u)*.02*sc.conv))
					t.facts = append(t.facts, f)
				}
			}
		}
	}
	return t
}

func measures(rng *rand.Rand, sessions int, eng, conv float64) (v [nBase]float64) {
	s := float64(sessions)
	v[bSessions] = s
	v[bUsers] = math.Max(1, math.Round(s*(.75+.15*rng.Float64())))
	v[bNewUsers] = math.Round(v[bUsers] * (.5 + .2*rng.Float64()))
	v[bEngaged] = math.Min(s, math.Round(s*eng*(.85+.3*rng.Float64())))
	v[bViews] = math.Round(s * (1.6 + 1.6*rng.Float64()))
	v[bDuration] = math.Round(v[bEngaged]*(60+180*rng.Float64()) + (s-v[bEngaged])*10*rng.Float64())
	v[bEvents] = v[bViews] + math.Round(s*(2+2*rng.Float64()))
	k := poisson(rng, s*conv)
	v[bKeyEvents] = float64(k)
	for range k {
		if rng.Float64() < .2 {
			v[bRevenue] += planPrices[rng.IntN(len(planPrices))]
		}
	}
	return v
}

// poisson draws a Poisson variate (Knuth for small means, normal otherwise).
func poisson(rng *rand.Rand, mean float64) int {
	if mean <= 0 {
		return 0
	}
	if mean > 30 {
		return max(0, int(math.Round(mean+math.Sqrt(mean)*rng.NormFloat64())))
	}
	l, k, p := math.Exp(-mean), 0, 1.0
	for {
		p *= rng.Float64()
		if p <= l {
			return k
		}
		k++
	}
}

func shareNames(s []share) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = v.name
	}
	return out
}

func twoDigits(n int) string { return string([]byte{byte('0' + n/10), byte('0' + n%10)}) }
