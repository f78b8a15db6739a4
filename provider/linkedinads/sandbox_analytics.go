package linkedinads

import (
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The adAnalytics fields a request may project are the spec's (the
// reference page's metrics table); the sandbox computes impressions, clicks,
// costInLocalCurrency, costInUsd, landingPageClicks,
// externalWebsiteConversions, oneClickLeads, dateRange and pivotValues, and
// leaves another valid field out of elements, as LinkedIn leaves out a
// metric without data.

func (s *Sandbox) analytics(w http.ResponseWriter, p map[string]string) {
	bad := func(msg string) { writeError(w, 400, "ILLEGAL_ARGUMENT", msg) }
	if p["q"] != "analytics" {
		bad("The sandbox models the analytics finder only, not " + p["q"])
		return
	}
	// The spec's checks refuse a pivot or granularity LinkedIn does not
	// have; these are the valid ones the sandbox has data for.
	pivot, gran := p["pivot"], p["timeGranularity"]
	if !slices.Contains([]string{"CAMPAIGN", "CAMPAIGN_GROUP", "CREATIVE", "ACCOUNT"}, pivot) {
		bad("The sandbox does not model pivot " + pivot + " (it models ACCOUNT, CAMPAIGN, CAMPAIGN_GROUP and CREATIVE)")
		return
	}
	if !slices.Contains([]string{"ALL", "DAILY", "MONTHLY", "YEARLY"}, gran) {
		bad("Invalid value for param timeGranularity: " + gran)
		return
	}
	start, end, err := decodeDateRange(p["dateRange"])
	if err != nil {
		bad("Invalid param dateRange: " + err.Error())
		return
	}
	accounts, err := decodeURNs(p["accounts"], "sponsoredAccount")
	if err != nil || len(accounts) == 0 {
		bad("Invalid param accounts: a List of sponsoredAccount URNs is required")
		return
	}
	var only []string
	if p["campaigns"] != "" {
		if only, err = decodeURNs(p["campaigns"], "sponsoredCampaign"); err != nil {
			bad("Invalid param campaigns: " + err.Error())
			return
		}
	}
	fields := strings.Split(p["fields"], ",")
	for _, f := range fields {
		if liSpec().Schemas["AdAnalytics"].Properties[f] == nil {
			bad(fmt.Sprintf("Invalid field %q in fields projection", f))
			return
		}
	}
	today := s.now().UTC().Truncate(24 * time.Hour)
	groups := map[string]map[string]counters{} // pivot URN → period start → sum
	periods := map[string][2]time.Time{}
	var order []string
	for _, id := range accounts {
		a := s.accounts[id]
		if a == nil {
			writeError(w, 403, "ACCESS_DENIED", "Not enough permissions to access: adAnalytics for account "+id)
			return
		}
		for _, c := range a.Campaigns {
			if len(only) > 0 && !slices.Contains(only, c.ID) {
				continue
			}
			urn := map[string]string{"CAMPAIGN": "urn:li:sponsoredCampaign:" + c.ID, "CAMPAIGN_GROUP": c.Group,
				"ACCOUNT": "urn:li:sponsoredAccount:" + a.ID, "CREATIVE": "urn:li:sponsoredCreative:" + c.ID + "01"}[pivot]
			for d := start; !d.After(end); d = d.AddDate(0, 0, 1) {
				k := c.daily(d, today)
				if k.Impressions == 0 {
					continue
				}
				ps, pe := period(d, start, end, gran)
				key := ps.Format(time.DateOnly)
				if groups[urn] == nil {
					groups[urn] = map[string]counters{}
					order = append(order, urn)
				}
				groups[urn][key] = groups[urn][key].add(k)
				periods[key] = [2]time.Time{ps, pe}
			}
		}
	}
	var elements []any
	for _, urn := range order {
		keys := make([]string, 0, len(groups[urn]))
		for k := range groups[urn] {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, key := range keys {
			elements = append(elements, element(groups[urn][key], urn, periods[key], fields))
		}
	}
	if elements == nil {
		elements = []any{}
	}
	writeJSON(w, 200, map[string]any{"elements": elements, "paging": map[string]any{"start": 0, "count": 10, "links": []any{}}})
}

// period returns the granularity bucket of d within [start, end].
func period(d, start, end time.Time, gran string) (time.Time, time.Time) {
	switch gran {
	case "DAILY":
		return d, d
	case "MONTHLY", "YEARLY":
		first := d.AddDate(0, 0, 1-d.Day())
		last := first.AddDate(0, 1, -1)
		if gran == "YEARLY" {
			first = time.Date(d.Year(), 1, 1, 0, 0, 0, 0, time.UTC)
			last = first.AddDate(1, 0, -1)
		}
		if first.Before(start) {
			first = start
		}
		if last.After(end) {
			last = end
		}
		return first, last
	}
	return start, end
}

func element(k counters, urn string, p [2]time.Time, fields []string) map[string]any {
	date := func(t time.Time) map[string]any {
		return map[string]any{"year": t.Year(), "month": int(t.Month()), "day": t.Day()}
	}
	all := map[string]any{"impressions": int64(k.Impressions), "clicks": int64(k.Clicks),
		"costInLocalCurrency": strconv.FormatFloat(math.Round(k.Cost*100)/100, 'f', -1, 64),
		"costInUsd":           strconv.FormatFloat(math.Round(k.Cost*100)/100, 'f', -1, 64),
		"landingPageClicks":   int64(k.LandingPageClicks), "externalWebsiteConversions": int64(k.Conversions),
		"oneClickLeads": int64(k.Leads), "pivotValues": []string{urn},
		"dateRange": map[string]any{"start": date(p[0]), "end": date(p[1])}}
	out := map[string]any{}
	for _, f := range fields {
		if v, ok := all[f]; ok {
			out[f] = v
		}
	}
	return out
}

// decodeDateRange reads (start:(year:Y,month:M,day:D),end:(…)).
func decodeDateRange(raw string) (time.Time, time.Time, error) {
	v, err := Decode(raw)
	if err != nil {
		return time.Time{}, time.Time{}, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return time.Time{}, time.Time{}, fmt.Errorf("expected (start:(…),end:(…))")
	}
	start, err := decodeDate(m["start"])
	if err != nil {
		return time.Time{}, time.Time{}, err
	}
	end, err := decodeDate(m["end"])
	if err != nil || end.Before(start) {
		return time.Time{}, time.Time{}, fmt.Errorf("end must be a date on or after start")
	}
	return start, end, nil
}

func decodeDate(v any) (time.Time, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return time.Time{}, fmt.Errorf("expected (year:…,month:…,day:…)")
	}
	n := func(k string) int { i, _ := strconv.Atoi(fmt.Sprint(m[k])); return i }
	t := time.Date(n("year"), time.Month(n("month")), n("day"), 0, 0, 0, 0, time.UTC)
	if n("year") < 2000 || t.Month() != time.Month(n("month")) || t.Day() != n("day") {
		return time.Time{}, fmt.Errorf("invalid date %v", m)
	}
	return t, nil
}

// decodeURNs reads List(urn%3Ali%3A<kind>%3A<id>…) into ids.
func decodeURNs(raw, kind string) ([]string, error) {
	v, err := Decode(raw)
	if err != nil {
		return nil, err
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("expected List(…)")
	}
	var ids []string
	for _, x := range list {
		s, _ := x.(string)
		id, ok := strings.CutPrefix(s, "urn:li:"+kind+":")
		if !ok || !digits.MatchString(id) {
			return nil, fmt.Errorf("%q is not a %s URN", s, kind)
		}
		ids = append(ids, id)
	}
	return ids, nil
}
