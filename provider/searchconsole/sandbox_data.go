package searchconsole

import (
	"math"
	"math/rand/v2"
	"time"
)

// fact is one day × query × page × country × device of search performance.
type fact struct {
	date, query, page, country, device, appearance string
	clicks, impressions, positionSum               float64
}

type seedQuery struct {
	query, path, appearance string
	impressions, position   float64
}

// seedQueries is Ledgerly's organic search footprint: brand, product,
// comparison and content queries with their landing paths.
var seedQueries = []seedQuery{
	{"ledgerly", "/", "", 140, 1.1},
	{"ledgerly pricing", "/pricing", "", 45, 1.2},
	{"ledgerly login", "/login", "", 60, 1.0},
	{"saas revenue analytics", "/product/revenue-analytics", "", 220, 7.8},
	{"mrr dashboard", "/product/revenue-analytics", "", 160, 9.4},
	{"saas cohort analysis", "/product/revenue-analytics", "", 90, 11.2},
	{"saas metrics benchmarks", "/blog/saas-metrics-benchmarks-2025", "FAQ_RICH_RESULT", 380, 5.6},
	{"net revenue retention benchmark", "/blog/saas-metrics-benchmarks-2025", "FAQ_RICH_RESULT", 210, 4.3},
	{"churn rate calculator", "/blog/churn-rate-calculator", "", 300, 8.9},
	{"arr vs mrr", "/blog/arr-vs-mrr", "FAQ_RICH_RESULT", 260, 6.1},
	{"hubspot revenue reporting", "/integrations/hubspot", "", 120, 12.5},
	{"baremetrics alternative", "/compare/baremetrics", "REVIEW_SNIPPET", 70, 8.2},
	{"chartmogul alternative", "/compare/chartmogul", "REVIEW_SNIPPET", 65, 9.7},
}

var (
	scCountries = []struct {
		code   string
		weight float64
	}{{"usa", .48}, {"gbr", .13}, {"deu", .09}, {"can", .08}, {"ind", .12}, {"aus", .05}, {"fra", .05}}
	scDevices = []struct {
		code   string
		weight float64
	}{{"DESKTOP", .71}, {"MOBILE", .27}, {"TABLET", .02}}
)

// generate returns days of daily facts ending lastDay for a site whose pages
// live under origin, deterministically from seed.
func generate(seed uint64, origin string, lastDay time.Time, days int, scale float64) []fact {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	var out []fact
	for d := days - 1; d >= 0; d-- {
		day := lastDay.AddDate(0, 0, -d)
		dayScale := scale * (1 + .003*float64(days-d))
		if wd := day.Weekday(); wd == time.Saturday || wd == time.Sunday {
			dayScale *= .55
		}
		for _, q := range seedQueries {
			for _, c := range scCountries {
				for _, dv := range scDevices {
					impr := poisson(rng, q.impressions*dayScale*c.weight*dv.weight)
					if impr == 0 {
						continue
					}
					pos := math.Max(1, q.position*(.85+.3*rng.Float64()))
					clicks := poisson(rng, float64(impr)*ctrAt(pos))
					out = append(out, fact{date: day.Format(time.DateOnly), query: q.query, page: origin + q.path, country: c.code,
						device: dv.code, appearance: q.appearance, clicks: float64(min(clicks, impr)), impressions: float64(impr),
						positionSum: pos * float64(impr)})
				}
			}
		}
	}
	return out
}

// ctrAt is a typical organic click-through rate at an average position.
func ctrAt(pos float64) float64 { return .32 / math.Pow(pos, 1.15) }

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
