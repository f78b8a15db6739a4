package hubspot

import (
	"strings"
	"time"
)

// The sandbox portal belongs to Northwind Cloud, a fictional B2B SaaS
// company selling a revenue-analytics platform. Its four reps (owners 71001
// to 71004) work the accounts below.

// seedBase is when the seed's records were created, give or take.
var seedBase = time.Date(2025, 1, 6, 9, 0, 0, 0, time.UTC)

type seedCompany struct {
	name, domain, industry, city, country, employees, revenue, stage, owner string
}

var seedCompanies = []seedCompany{
	{"Brightwave Logistics", "brightwavelogistics.com", "LOGISTICS_AND_SUPPLY_CHAIN", "Rotterdam", "Netherlands", "1200", "310000000", "customer", "71001"},
	{"Halcyon Health", "halcyonhealth.io", "HOSPITAL_HEALTH_CARE", "Boston", "United States", "850", "140000000", "opportunity", "71001"},
	{"Quarry Analytics", "quarryanalytics.com", "COMPUTER_SOFTWARE", "Austin", "United States", "230", "38000000", "opportunity", "71002"},
	{"Lumen Retail Group", "lumenretail.com", "RETAIL", "Manchester", "United Kingdom", "4100", "920000000", "salesqualifiedlead", "71002"},
	{"Pinecrest Insurance", "pinecrestins.com", "INSURANCE", "Hartford", "United States", "2600", "1450000000", "opportunity", "71001"},
	{"Tessellate Learning", "tessellate.education", "E_LEARNING", "Toronto", "Canada", "140", "12500000", "lead", "71003"},
	{"Corvid Security", "corvidsec.com", "INFORMATION_TECHNOLOGY_AND_SERVICES", "Tel Aviv", "Israel", "320", "54000000", "customer", "71002"},
	{"Meridian Capital Partners", "meridiancp.com", "FINANCIAL_SERVICES", "New York", "United States", "610", "280000000", "opportunity", "71004"},
	{"Foxglove Media", "foxglovemedia.co", "MARKETING_AND_ADVERTISING", "Berlin", "Germany", "95", "9800000", "marketingqualifiedlead", "71003"},
	{"Atlas Forge Manufacturing", "atlasforge.com", "MANUFACTURING", "Stuttgart", "Germany", "5300", "2100000000", "lead", "71004"},
	{"Nimbus Payroll", "nimbuspayroll.com", "COMPUTER_SOFTWARE", "Dublin", "Ireland", "410", "61000000", "customer", "71004"},
	{"Greenleaf Grocers", "greenleafgrocers.com", "RETAIL", "Portland", "United States", "1800", "640000000", "subscriber", "71003"},
}

type seedContact struct {
	first, last, title string
	company            int
	stage, lead, owner string
}

var seedContacts = []seedContact{
	{"Anika", "Jansen", "VP Revenue Operations", 0, "customer", "CONNECTED", "71001"},
	{"Pieter", "de Vries", "Head of Sales Analytics", 0, "customer", "CONNECTED", "71001"},
	{"Rachel", "Okafor", "Chief Operating Officer", 1, "opportunity", "OPEN_DEAL", "71001"},
	{"Sam", "Whitfield", "Director of Finance Systems", 1, "opportunity", "OPEN_DEAL", "71001"},
	{"Devon", "Price", "RevOps Manager", 2, "opportunity", "OPEN_DEAL", "71002"},
	{"Mei", "Tanaka", "CFO", 2, "opportunity", "IN_PROGRESS", "71002"},
	{"Oliver", "Grant", "Head of Commercial Insights", 3, "salesqualifiedlead", "IN_PROGRESS", "71002"},
	{"Fatima", "Rahman", "Director of E-commerce", 3, "salesqualifiedlead", "ATTEMPTED_TO_CONTACT", "71002"},
	{"George", "Lindqvist", "SVP Distribution", 4, "opportunity", "OPEN_DEAL", "71001"},
	{"Nora", "Castellanos", "Sales Operations Lead", 4, "opportunity", "OPEN_DEAL", "71001"},
	{"Ibrahim", "Haddad", "CTO", 5, "lead", "NEW", "71003"},
	{"Chloe", "Martin", "Head of Growth", 5, "lead", "ATTEMPTED_TO_CONTACT", "71003"},
	{"Yael", "Ben-David", "VP Sales", 6, "customer", "CONNECTED", "71002"},
	{"Tomer", "Levi", "Sales Engineer", 6, "evangelist", "CONNECTED", "71002"},
	{"Jonathan", "Reyes", "Managing Director, Operations", 7, "opportunity", "OPEN_DEAL", "71004"},
	{"Priyanka", "Shah", "Data Platform Lead", 7, "opportunity", "IN_PROGRESS", "71004"},
	{"Lena", "Vogel", "Marketing Director", 8, "marketingqualifiedlead", "OPEN", "71003"},
	{"Kai", "Schmidt", "Account Director", 8, "marketingqualifiedlead", "NEW", "71003"},
	{"Matthias", "Keller", "Head of Sales Excellence", 9, "lead", "BAD_TIMING", "71004"},
	{"Sophie", "Brandt", "Commercial Controller", 9, "lead", "NEW", "71004"},
	{"Aoife", "Byrne", "VP Customer Success", 10, "customer", "CONNECTED", "71004"},
	{"Conor", "Walsh", "Revenue Analyst", 10, "customer", "CONNECTED", "71004"},
	{"Hannah", "Park", "Director of Merchandising", 11, "subscriber", "UNQUALIFIED", "71003"},
	{"Marcus", "Bell", "Regional Sales Manager", 11, "subscriber", "NEW", "71003"},
	{"Elena", "Petrova", "Finance Business Partner", 3, "lead", "NEW", "71002"},
	{"Diego", "Alvarez", "VP Sales, EMEA", 4, "salesqualifiedlead", "IN_PROGRESS", "71001"},
	{"Grace", "Liu", "Chief Revenue Officer", 2, "opportunity", "OPEN_DEAL", "71002"},
	{"Ravi", "Menon", "Business Systems Analyst", 7, "lead", "ATTEMPTED_TO_CONTACT", "71004"},
}

type seedDeal struct {
	name              string
	company           int
	contacts          []int
	amount            string
	pipeline, stage   string
	closeInDays       int
	owner, prio, kind string
}

var seedDeals = []seedDeal{
	{"Brightwave – Enterprise renewal 2025", 0, []int{0}, "186000", "31877542", "70313302", 70, "71001", "high", "existingbusiness"},
	{"Brightwave – Forecasting add-on", 0, []int{1}, "42000", "default", "contractsent", 21, "71001", "medium", "existingbusiness"},
	{"Halcyon Health – Platform (Growth)", 1, []int{2, 3}, "96000", "default", "presentationscheduled", 45, "71001", "high", "newbusiness"},
	{"Quarry Analytics – Starter to Growth", 2, []int{4, 26}, "38500", "default", "decisionmakerboughtin", 14, "71002", "medium", "newbusiness"},
	{"Quarry Analytics – Data warehouse connector", 2, []int{5}, "12000", "default", "qualifiedtobuy", 60, "71002", "low", "newbusiness"},
	{"Lumen Retail – Enterprise pilot", 3, []int{6, 7}, "150000", "default", "appointmentscheduled", 90, "71002", "high", "newbusiness"},
	{"Pinecrest – Commercial lines analytics", 4, []int{8, 9, 25}, "240000", "default", "contractsent", 10, "71001", "high", "newbusiness"},
	{"Tessellate – Team plan", 5, []int{10}, "9600", "default", "qualifiedtobuy", 30, "71003", "low", "newbusiness"},
	{"Corvid Security – Seat expansion", 6, []int{12}, "54000", "31877542", "70313303", 18, "71002", "medium", "existingbusiness"},
	{"Corvid Security – Initial platform", 6, []int{12, 13}, "72000", "default", "closedwon", -120, "71002", "medium", "newbusiness"},
	{"Meridian Capital – Portfolio reporting", 7, []int{14, 15}, "132000", "default", "presentationscheduled", 55, "71004", "high", "newbusiness"},
	{"Foxglove Media – Agency plan", 8, []int{16}, "14400", "default", "closedlost", -30, "71003", "low", "newbusiness"},
	{"Atlas Forge – Sales excellence program", 9, []int{18}, "310000", "default", "appointmentscheduled", 150, "71004", "medium", "newbusiness"},
	{"Nimbus Payroll – Annual renewal", 10, []int{20, 21}, "88000", "31877542", "70313304", -12, "71004", "medium", "existingbusiness"},
	{"Nimbus Payroll – Partner analytics", 10, []int{21}, "26000", "default", "closedwon", -45, "71004", "low", "existingbusiness"},
}

// seed fills the sandbox; it runs before the sandbox serves requests.
func (s *Sandbox) seed() {
	at := func(days, hours int) time.Time { return seedBase.Add(time.Duration(days*24+hours) * time.Hour) }
	var companyIDs, contactIDs, dealIDs []int64
	for i, c := range seedCompanies {
		rec := s.insert(s.types["companies"], map[string]string{
			"name": c.name, "domain": c.domain, "website": "https://www." + c.domain, "industry": c.industry, "city": c.city,
			"country": c.country, "numberofemployees": c.employees, "annualrevenue": c.revenue, "lifecyclestage": c.stage,
			"hubspot_owner_id": c.owner, "phone": "+1 555 01" + twoDigits(i+10),
		}, at(i, 0))
		companyIDs = append(companyIDs, rec.id)
	}
	for i, c := range seedContacts {
		co := seedCompanies[c.company]
		local := strings.ToLower(strings.ReplaceAll(c.first+"."+c.last, " ", ""))
		rec := s.insert(s.types["contacts"], map[string]string{
			"firstname": c.first, "lastname": c.last, "email": local + "@" + co.domain, "jobtitle": c.title, "company": co.name,
			"city": co.city, "country": co.country, "lifecyclestage": c.stage, "hs_lead_status": c.lead, "hubspot_owner_id": c.owner,
			"phone": "+1 555 02" + twoDigits(i+10),
		}, at(i, 3))
		contactIDs = append(contactIDs, rec.id)
		s.associate("contacts", rec.id, "companies", companyIDs[c.company])
	}
	for i, d := range seedDeals {
		created := at(12+i*3, 5)
		rec := s.insert(s.types["deals"], map[string]string{
			"dealname": d.name, "amount": d.amount, "pipeline": d.pipeline, "dealstage": d.stage,
			"closedate":        time.Date(2025, 6, 2, 0, 0, 0, 0, time.UTC).AddDate(0, 0, d.closeInDays).Format(hsTime),
			"hubspot_owner_id": d.owner, "hs_priority": d.prio, "dealtype": d.kind,
		}, created)
		dealIDs = append(dealIDs, rec.id)
		s.associate("deals", rec.id, "companies", companyIDs[d.company])
		for _, c := range d.contacts {
			s.associate("deals", rec.id, "contacts", contactIDs[c])
		}
	}
	s.seedEngagements(at, companyIDs, contactIDs, dealIDs)
}

func twoDigits(n int) string {
	const digits = "0123456789"
	return string([]byte{digits[n/10%10], digits[n%10]})
}
