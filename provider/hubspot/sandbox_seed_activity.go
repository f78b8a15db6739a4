package hubspot

import "time"

// seedLink points an engagement at seed records by index (-1: none).
type seedLink struct{ contact, company, deal int }

type seedNote struct {
	link  seedLink
	day   int
	owner string
	body  string
}

var seedNotes = []seedNote{
	{seedLink{2, 1, 2}, 40, "71001", "<p>Discovery call with Rachel. Month-end close takes 9 days; finance rebuilds pipeline reports by hand. Wants a demo for the FP&amp;A team.</p>"},
	{seedLink{3, 1, 2}, 47, "71001", "<p>Sam confirmed Snowflake as the warehouse. Security review questionnaire sent; SOC 2 report requested.</p>"},
	{seedLink{4, 2, 3}, 44, "71002", "<p>Devon ran the trial on 3 regions. Forecast accuracy +11 pts vs spreadsheet. Grace (CRO) is the economic buyer.</p>"},
	{seedLink{8, 4, 6}, 52, "71001", "<p>Legal redlines back from Pinecrest: liability cap and data residency (US only). Procurement wants 3-year pricing.</p>"},
	{seedLink{12, 6, 8}, 55, "71002", "<p>QBR with Yael: 140 of 150 seats active. Asked about adding the APAC team (~60 seats) next quarter.</p>"},
	{seedLink{14, 7, 10}, 58, "71004", "<p>Jonathan wants portfolio-level dashboards for 14 companies. Budget approved for FY25; decision by end of April.</p>"},
	{seedLink{16, 8, 11}, 36, "71003", "<p>Foxglove chose a cheaper point tool; revisit in Q4 when their agency contract renews.</p>"},
	{seedLink{20, 10, 13}, 50, "71004", "<p>Renewal signed for 12 months with a 7% uplift. Aoife happy with support response times.</p>"},
	{seedLink{0, 0, 0}, 61, "71001", "<p>Usage review: Brightwave's dispatch team logs in daily; finance usage dropped after their analyst left. Offer enablement session.</p>"},
	{seedLink{6, 3, 5}, 63, "71002", "<p>Intro call booked with Oliver for the pilot scope. They run 400 stores; pilot would cover the UK North region.</p>"},
}

type seedTask struct {
	link                   seedLink
	dueDay                 int
	subject, body          string
	status, priority, kind string
	owner                  string
}

var seedTasks = []seedTask{
	{seedLink{2, 1, 2}, 66, "Send Halcyon demo recording and pricing", "Include the FP&A use case deck.", "NOT_STARTED", "HIGH", "EMAIL", "71001"},
	{seedLink{3, 1, 2}, 68, "Follow up on Halcyon security review", "", "WAITING", "MEDIUM", "TODO", "71001"},
	{seedLink{26, 2, 3}, 64, "Call Grace Liu to confirm budget", "Economic buyer sign-off before the order form.", "NOT_STARTED", "HIGH", "CALL", "71002"},
	{seedLink{8, 4, 6}, 62, "Answer Pinecrest legal redlines", "Liability cap and US data residency.", "IN_PROGRESS", "HIGH", "TODO", "71001"},
	{seedLink{12, 6, 8}, 70, "Quote APAC seat expansion for Corvid", "~60 seats, co-term with current contract.", "NOT_STARTED", "MEDIUM", "EMAIL", "71002"},
	{seedLink{10, 5, 7}, 65, "Second touch: Tessellate CTO", "", "NOT_STARTED", "LOW", "CALL", "71003"},
	{seedLink{18, 9, 12}, 80, "Re-engage Atlas Forge after budget freeze", "Matthias said to check back after Q2 planning.", "DEFERRED", "LOW", "EMAIL", "71004"},
	{seedLink{20, 10, 13}, 49, "Send Nimbus renewal paperwork", "", "COMPLETED", "MEDIUM", "EMAIL", "71004"},
	{seedLink{0, 0, 0}, 67, "Book enablement session for Brightwave finance", "", "NOT_STARTED", "MEDIUM", "TODO", "71001"},
}

func (s *Sandbox) seedEngagements(at func(days, hours int) time.Time, companyIDs, contactIDs, dealIDs []int64) {
	link := func(from string, id int64, l seedLink) {
		if l.contact >= 0 {
			s.associate(from, id, "contacts", contactIDs[l.contact])
		}
		if l.company >= 0 {
			s.associate(from, id, "companies", companyIDs[l.company])
		}
		if l.deal >= 0 {
			s.associate(from, id, "deals", dealIDs[l.deal])
		}
	}
	for _, n := range seedNotes {
		ts := at(n.day, 6)
		rec := s.insert(s.types["notes"], map[string]string{"hs_note_body": n.body, "hs_timestamp": ts.Format(hsTime), "hubspot_owner_id": n.owner}, ts)
		link("notes", rec.id, n.link)
	}
	for i, t := range seedTasks {
		props := map[string]string{"hs_task_subject": t.subject, "hs_task_body": t.body, "hs_task_status": t.status,
			"hs_task_priority": t.priority, "hs_task_type": t.kind, "hs_timestamp": at(t.dueDay, 8).Format(hsTime), "hubspot_owner_id": t.owner}
		rec := s.insert(s.types["tasks"], props, at(t.dueDay-7, i))
		link("tasks", rec.id, t.link)
	}
}
